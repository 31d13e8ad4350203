import Foundation
import Testing
@testable import GramgenBuild

/// A `sensitive` post's photos appear only behind a cover: every grid, tag page, explore tile,
/// activity thumbnail, share preview and feed of the built site is scanned for them.
struct SensitiveTests {
    @Test("no page or feed shows a sensitive post's photo outside a cover")
    func coveredEverywhere() throws {
        let box = try ContainmentTests.Sandbox()
        defer { box.remove() }
        // The only photo of the site (no avatar), so every file in media/ is one of the post's.
        try box.write("site/content/users/ann/posts/2024-01-01-a/post.md",
                      "---\nsensitive: true\nliked_by: [ann]\nlocation: Seoul\n---\nSurgery went well #recovery @ann\n")
        let (report, text) = try box.build()
        #expect(text == "" && report.published)
        let media = try FileManager.default.contentsOfDirectory(atPath: box.output.appendingPathComponent("media").path)
        #expect(media.count >= 3, "\(media)")

        var covered = 0, scanned = 0
        for path in TestSupport.files(in: box.output) {
            let url = box.output.appendingPathComponent(path)
            guard ["html", "json", "xml"].contains(url.pathExtension) else { continue }
            var page = try String(contentsOf: url, encoding: .utf8)
            scanned += 1
            if url.pathExtension == "html" {
                let open = page.components(separatedBy: "<details class=\"sensitive\"").count - 1
                covered += open
                page = Self.removingCovers(page)
            } else if url.pathExtension == "json" && !path.hasPrefix("search/") {
                // `_gramgen.images` lists the media for programs, next to `sensitive: true`.
                // (The search index is scanned as it is: it must not name the photo at all.)
                let feed = try #require(JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])
                let items = feed["items"] as? [[String: Any]] ?? []
                for item in items {
                    let gramgen = try #require(item["_gramgen"] as? [String: Any])
                    #expect(gramgen["sensitive"] as? Bool == true)
                    #expect(item["image"] == nil)
                }
                page = items.map { ($0["content_html"] as? String ?? "") }.joined()
            }
            for name in media {
                #expect(!page.contains("media/" + name), "\(path) shows \(name) uncovered")
            }
        }
        #expect(covered >= 2, "the post page and the home feed cover the photo")
        #expect(scanned >= 15)
    }

    /// The page without its `<details class="sensitive">…</details>` covers (which never nest).
    static func removingCovers(_ html: String) -> String {
        var result = "", rest = Substring(html)
        while let start = rest.range(of: "<details class=\"sensitive\"") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "</details>") else { return result }
            rest = rest[end.upperBound...]
        }
        return result + rest
    }
}
