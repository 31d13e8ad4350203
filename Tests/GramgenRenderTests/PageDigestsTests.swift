import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

/// Page digests decide which pages a build draws again, so a mistake in them leaves a page stale.
struct PageDigestsTests {
    static func site(_ count: Int) -> Site {
        let users = [Profile(handle: "ana", name: "Ana", bio: RichText(), website: nil, location: nil, following: [], avatar: nil,
                             sourcePath: "x")]
        let posts = (0..<count).reversed().map { n in
            Post(id: "p\(n)", author: "ana", date: PostDate(instant: Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 3600), utcOffsetSeconds: 0),
                 location: nil, images: [], caption: RichText(html: "<p>Walk \(n)</p>", plainText: "Walk \(n)"), tagKeys: [], likedBy: [],
                 comments: [], isDraft: false, isSensitive: false, sourcePath: "x")
        }
        return Site(config: SiteConfig(), users: users, posts: posts, tags: [])
    }

    @Test("each post's digest follows its source's by its place; source digests made for other posts are not used, and every page then comes out changed")
    func sourcesByPlace() {
        let site = Self.site(5)
        let sources: [UInt64] = [11, 12, 13, 14, 15]
        let digests = PageDigests(RenderInputs(site: "s", posts: sources, profiles: [:]), site: site, tagCounts: false)
        var edited = sources
        edited[2] = 99
        let after = PageDigests(RenderInputs(site: "s", posts: edited, profiles: [:]), site: site, tagCounts: false)
        for (index, post) in site.posts.enumerated() {
            #expect((digests.digest(of: post) != after.digest(of: post)) == (index == 2), "post \(index)")
        }
        // Four digests for five posts: none is taken, and two such builds differ from each other.
        let wrong = RenderInputs(site: "s", posts: Array(sources.prefix(4)), profiles: [:])
        let first = PageDigests(wrong, site: site, tagCounts: false), second = PageDigests(wrong, site: site, tagCounts: false)
        for post in site.posts {
            #expect(first.digest(of: post) != digests.digest(of: post))
            #expect(first.digest(of: post) != second.digest(of: post))
        }
    }
}
