import Foundation
import Testing
@testable import GramgenBuild

/// What the pages say beyond the contract's paths: the activity page in the third person with
/// likes grouped and comments quoted, the tagged tab without the user's own posts, hashtag pages
/// with their count and top posts, the hashtag index by count with an order by name, tile counts.
struct ThemePagesTests {
    static func site() throws -> WebAppTests.Site {
        let site = try WebAppTests.Site(siteYML: "title: Friends\n")
        for user in ["bo", "cy", "di"] { try site.write("content/users/\(user)/profile.md", "---\nname: \(user)\n---\n") }
        // hana's post: liked by three, a comment from bo; hana mentions herself, bo mentions her.
        try site.write("content/users/hana/posts/2024-01-01-a/post.md", """
            ---
            liked_by: [bo, cy, di]
            comments:
              - author: bo
                date: 2024-01-02T10:00:00Z
                text: "Lovely light here, the kind you only get in January <b>really</b>"
            ---
            Me, @hana, at the lake #lake #zebra
            """)
        for (index, author) in ["bo", "cy", "di", "bo"].enumerated() {
            try site.write("content/users/\(author)/posts/2024-02-0\(index + 1)-p/post.md",
                           "---\nliked_by: [\(index == 2 ? "hana, bo" : "hana")]\n---\nWith @hana #lake\n")
            try site.photo("content/users/\(author)/posts/2024-02-0\(index + 1)-p/1.jpg", 300, 300)
        }
        return site
    }

    @Test("activity speaks of the user in the third person, groups a post's likes and quotes comments")
    func activity() throws {
        let site = try Self.site()
        defer { site.remove() }
        #expect(try site.build().published)
        let page = try site.page("hana/activity/index.html")
        #expect(page.contains(#"<a class="handle" href="../../bo/">bo</a> and <a href="../../hana/p/2024-01-01-a/likes/">2 others</a> liked <a class="handle" href="../../hana/">hana</a>’s post."#), "\(page)")
        #expect(page.components(separatedBy: "liked <a class=\"handle\" href=\"../../hana/\">hana</a>’s post.").count == 2, "one line for the three likes")
        #expect(page.contains("commented on <a class=\"handle\" href=\"../../hana/\">hana</a>’s post: “Lovely light here, the kind you only get in January &lt;b&gt;really&lt;/b&gt;”")
                || page.contains("commented on <a class=\"handle\" href=\"../../hana/\">hana</a>’s post: “Lovely light here, the kind you only get in January really”"), "\(page)")
        #expect(!page.contains("your post") && !page.contains("<b>really"))
    }

    @Test("the tagged tab lists others' posts that mention the user, not the user's own")
    func tagged() throws {
        let site = try Self.site()
        defer { site.remove() }
        #expect(try site.build().published)
        let page = try site.page("hana/tagged/index.html")
        #expect(!page.contains("hana/p/2024-01-01-a/"))
        #expect(page.contains("bo/p/2024-02-01-p/") && page.contains("cy/p/2024-02-02-p/"))
    }

    @Test("a hashtag page shows its count and, past three posts, its three most liked and commented first")
    func tagPage() throws {
        let site = try Self.site()
        defer { site.remove() }
        #expect(try site.build().published)
        let lake = try site.page("tags/lake/index.html")
        #expect(lake.contains("<p class=\"page-sub\">5 posts</p>"))
        let top = try #require(lake.range(of: "Top posts")), recent = try #require(lake.range(of: "Most recent"))
        let topSection = String(lake[top.upperBound..<recent.lowerBound])
        // hana's post has 3 likes and a comment; di's has 2 likes; then the newest with one like.
        let order = ["hana/p/2024-01-01-a/", "di/p/2024-02-03-p/", "bo/p/2024-02-04-p/"].map { topSection.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!, "\(topSection)")
        #expect(!(try site.page("tags/zebra/index.html")).contains("Top posts"))
        // Counts over each tile, in the grid.
        #expect(lake.contains("<span class=\"tile-counts\" aria-hidden=\"true\"><span>3</span><span>1</span></span>"))
    }

    @Test("the hashtag index lists by post count and carries each tag's place by name")
    func tagIndex() throws {
        let site = try Self.site()
        defer { site.remove() }
        #expect(try site.build().published)
        let page = try site.page("tags/index.html")
        let lake = try #require(page.range(of: "<li style=\"--n:0\"><a href=\"../tags/lake/\">"))
        let zebra = try #require(page.range(of: "<li style=\"--n:1\"><a href=\"../tags/zebra/\">"))
        #expect(lake.lowerBound < zebra.lowerBound)
        #expect(page.contains("<a href=\"#by-name\">By name</a>") && page.contains("id=\"by-name\""))
    }
}
