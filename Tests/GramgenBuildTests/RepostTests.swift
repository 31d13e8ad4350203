import Foundation
import Testing
@testable import GramgenBuild

/// `repost:`: the original's media under the reposter's name, everywhere it should be and nowhere else.
struct RepostTests {
    /// ann posts a photo; bob reposts it with a caption of his own.
    static func site(sensitive: Bool) throws -> ContainmentTests.Sandbox {
        let box = try ContainmentTests.Sandbox()
        try box.write("site/content/users/ann/posts/2024-01-01-a/post.md",
                      "---\nsensitive: \(sensitive)\n---\nThe original #river\n")
        try box.write("site/content/users/bob/profile.md", "---\nname: Bob\nfollowing: [ann]\n---\nHi\n")
        try box.write("site/content/users/bob/posts/2024-02-01-look/post.md",
                      "---\nrepost: ann/2024-01-01-a\n---\nLook at this #shared\n")
        return box
    }

    private func page(_ box: ContainmentTests.Sandbox, _ path: String) throws -> String {
        try String(contentsOf: box.output.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("a repost shows the original's photo, links it, counts on it, and has its own tab, feed item and activity")
    func everywhere() throws {
        let box = try Self.site(sensitive: false)
        defer { box.remove() }
        let (report, text) = try box.build()
        #expect(text == "" && report.published)
        let media = try FileManager.default.contentsOfDirectory(atPath: box.output.appendingPathComponent("media").path)
        let photo = try #require(media.first { $0.hasSuffix(".jpg") })

        let repost = try page(box, "bob/p/2024-02-01-look/index.html")
        #expect(repost.contains("Reposted from <a href=\"../../../ann/p/2024-01-01-a/\">ann</a>"))
        #expect(repost.contains("Look at this") && repost.contains("The original"))
        #expect(repost.contains("media/") && media.contains { repost.contains("media/" + $0) })
        #expect(try page(box, "ann/p/2024-01-01-a/index.html").contains("<p class=\"reposts\">1 repost</p>"))
        // bob's posts grid holds his own posts only; the Reposts tab holds the repost.
        #expect(try page(box, "bob/index.html").contains("No posts yet."))
        #expect(try page(box, "bob/reposts/index.html").contains("href=\"../../bob/p/2024-02-01-look/\""))
        #expect(try page(box, "bob/index.html").contains("<strong>0</strong> posts"))
        #expect(try page(box, "ann/activity/index.html").contains("reposted <a class=\"handle\" href=\"../../ann/\">ann</a>’s post."))
        #expect(try page(box, "tags/shared/index.html").contains(photo) || media.contains { try! page(box, "tags/shared/index.html").contains($0) })
        // Explore shows the original once, not the repost.
        #expect(try page(box, "explore/index.html").components(separatedBy: "href=\"../bob/p/").count == 1)
        let feed = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: box.output.appendingPathComponent("bob/feed.json"))) as? [String: Any])
        let item = try #require((feed["items"] as? [[String: Any]])?.first)
        let gramgen = try #require(item["_gramgen"] as? [String: Any])
        #expect(gramgen["repost_of"] as? String == "http://localhost:8000/ann/p/2024-01-01-a/")
        #expect((gramgen["images"] as? [Any])?.count == 1)
    }

    @Test("reposting a sensitive post keeps it covered on every page and out of every feed, activity and post links included")
    func sensitiveOriginal() throws {
        let box = try Self.site(sensitive: true)
        defer { box.remove() }
        // First only the sensitive photo: every file in media/ is one of its.
        let (first, _) = try box.build()
        #expect(first.published)
        let media = try FileManager.default.contentsOfDirectory(atPath: box.output.appendingPathComponent("media").path)
        #expect(media.count >= 3)
        // Then a post of ann's next to it (its older/newer links and "more posts") and bob's like
        // (an activity thumbnail for ann).
        try box.write("site/content/users/ann/posts/2024-03-01-b/post.md", "---\nliked_by: [bob]\n---\nAnother\n")
        try FileManager.default.copyItem(at: TestSupport.repositoryRoot.appendingPathComponent("Tests/GramgenImagingTests/Fixtures/adobe-rgb.jpg"),
                                         to: box.site.appendingPathComponent("content/users/ann/posts/2024-03-01-b/1.jpg"))
        try box.write("site/content/users/ann/posts/2024-01-01-a/post.md", "---\nsensitive: true\nliked_by: [bob]\n---\nThe original #river\n")
        let (report, text) = try box.build()
        #expect(text == "" && report.published)
        let repost = try page(box, "bob/p/2024-02-01-look/index.html")
        #expect(repost.contains("<details class=\"sensitive\""))
        for path in TestSupport.files(in: box.output) where path.hasSuffix(".html") || path.hasSuffix(".json") || path.hasSuffix(".xml") {
            var text = try page(box, path)
            if path.hasSuffix(".html") { text = SensitiveTests.removingCovers(text) }
            if path.hasSuffix(".json"), let feed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] {
                let items = feed["items"] as? [[String: Any]] ?? []
                for item in items {
                    // `_gramgen.images` lists the media for programs, next to `sensitive: true`.
                    let gramgen = item["_gramgen"] as? [String: Any]
                    let urls = (gramgen?["images"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
                    guard urls.contains(where: { url in media.contains { url.hasSuffix($0) } }) else { continue }
                    #expect(gramgen?["sensitive"] as? Bool == true, "\(path)")
                    #expect(item["image"] == nil, "\(path)")
                }
                text = items.map { ($0["content_html"] as? String ?? "") }.joined()
            }
            for name in media {
                #expect(!text.contains("media/" + name), "\(path) shows \(name) uncovered")
            }
        }
    }
}
