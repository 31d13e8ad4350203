import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import GramgenBuild
@testable import GramgenRender

/// The feeds of the fixture site, read back as a feed reader would.
struct FeedTests {
    static func build() throws -> URL {
        let output = try TestSupport.temporaryFolder()
        _ = try TestSupport.build(site: GoldenSiteTests.site, output: output)
        return output
    }

    static func json(_ url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("JSON Feed 1.1 with every field the spec names, and the _gramgen image list")
    func jsonFeed() throws {
        let output = try Self.build()
        defer { TestSupport.remove(output) }
        for path in ["feed.json", "alice/feed.json", "tags/seoul/feed.json", "tags/한강/feed.json"] {
            let feed = try Self.json(output.appendingPathComponent(path))
            #expect(feed["version"] as? String == "https://jsonfeed.org/version/1.1", "\(path)")
            #expect((feed["title"] as? String)?.isEmpty == false)
            #expect((feed["home_page_url"] as? String)?.hasPrefix("https://example.com/photos/") == true)
            let feedURL = try #require(feed["feed_url"] as? String)
            #expect(feedURL.hasPrefix("https://example.com/photos/") && feedURL.hasSuffix("feed.json"))
            let items = try #require(feed["items"] as? [[String: Any]])
            #expect(!items.isEmpty)
            for item in items {
                for key in ["id", "url", "content_html", "date_published", "authors", "_gramgen"] {
                    #expect(item[key] != nil, "\(path): item without \(key)")
                }
                // A sensitive post has no top-level image: readers would show it uncovered.
                let sensitive = (item["_gramgen"] as? [String: Any])?["sensitive"] as? Bool ?? false
                #expect((item["image"] != nil) == !sensitive, "\(path): image of a sensitive post, or none of another")
                let date = try #require(item["date_published"] as? String)
                #expect(ISO8601DateFormatter().date(from: date) != nil, "\(date) is not RFC 3339")
                let ext = try #require(item["_gramgen"] as? [String: Any])
                let images = try #require(ext["images"] as? [[String: Any]])
                #expect(!images.isEmpty)
                for image in images {
                    let width = try #require(image["width"] as? Int), height = try #require(image["height"] as? Int)
                    let ratio = try #require(image["aspect_ratio"] as? Double)
                    #expect(abs(ratio - Double(width) / Double(height)) < 0.001)
                    #expect((image["url"] as? String)?.hasPrefix("https://example.com/photos/media/") == true)
                    #expect(image["alt"] is String)
                }
            }
        }
        let river = try #require((try Self.json(output.appendingPathComponent("alice/feed.json"))["items"] as? [[String: Any]])?
            .first { ($0["id"] as? String)?.hasSuffix("2024-05-25-river/") == true })
        #expect(river["tags"] as? [String] == ["Seoul", "한강", "Café"]) // a tie (café once, Café once) shows the first in code-point order
        #expect(river["date_published"] as? String == "2024-05-25T14:30:00+09:00")
        let images = try #require((river["_gramgen"] as? [String: Any])?["images"] as? [[String: Any]])
        #expect(images.map { $0["alt"] as? String } == ["Water at dusk", "Window blinds & light"])
    }

    @Test("item ids do not change between builds")
    func stableIDs() throws {
        let first = try Self.build(), second = try Self.build()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        func ids(_ root: URL) throws -> [String] {
            (try Self.json(root.appendingPathComponent("feed.json"))["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try ids(first) == ids(second))
        #expect(try ids(first).count == 3)
    }

    @Test("the Atom feed and the sitemap are well-formed XML with absolute URLs")
    func xml() throws {
        let output = try Self.build()
        defer { TestSupport.remove(output) }
        for name in ["feed.xml", "sitemap.xml"] {
            let parser = XMLParser(data: try Data(contentsOf: output.appendingPathComponent(name)))
            #expect(parser.parse(), "\(name): \(String(describing: parser.parserError))")
        }
        let sitemap = try String(contentsOf: output.appendingPathComponent("sitemap.xml"), encoding: .utf8)
        #expect(sitemap.contains("<loc>https://example.com/photos/tags/%ED%95%9C%EA%B0%95/</loc>"))
        #expect(!sitemap.contains("404.html"))
        let atom = try String(contentsOf: output.appendingPathComponent("feed.xml"), encoding: .utf8)
        #expect(atom.components(separatedBy: "<entry>").count - 1 == 3)
    }

    @Test("a feed of any length: feed.json holds the newest 50 to 99 posts, archives of 50 the rest, oldest first, and every post is in one file")
    func split() {
        let size = FeedSet.pageSize
        for count in 0...(5 * size + 3) {
            let posts = Array((0..<count).reversed())  // newest first: the newest is the highest number
            let (current, archives) = FeedSet.split(posts)
            #expect(current.count == (count < 2 * size ? count : size + count % size), "\(count) posts: \(current.count) in feed.json")
            #expect(archives.allSatisfy { $0.count == size }, "\(count)")
            // Archive `n` holds the posts `(n - 1) × size` … counted from the oldest, whatever came after.
            for (index, archive) in archives.enumerated() {
                #expect(Array(archive) == Array((index * size..<(index + 1) * size).reversed()), "\(count): archive \(index + 1)")
            }
            #expect(Array(current) + archives.reversed().flatMap { Array($0) } == posts, "\(count): newest first, each once")
        }
    }

    @Test("a new post changes feed.json, and every 50th makes a new archive file; the others keep their bytes, and next_url reaches every post once")
    func archives() throws {
        let box = try ContainmentTests.Sandbox()
        defer { box.remove() }
        try FileManager.default.removeItem(at: box.post)
        func add(_ number: Int) throws {
            let folder = String(format: "site/content/users/ann/posts/2024-%02d-%02d-n%03d", number / 28 + 1, number % 28 + 1, number)
            try box.write(folder + "/post.md", "Post \(number)\n")
            try FileManager.default.copyItem(at: ContainmentTests.photo, to: box.root.appendingPathComponent(folder + "/1.jpg"))
        }
        func file(_ path: String) -> Data? { FileManager.default.contents(atPath: box.output.appendingPathComponent(path).path) }
        /// The posts' numbers as a reader following `next_url` from `feed.json` sees them.
        func chain() throws -> [Int] {
            var numbers: [Int] = [], next: String? = "feed.json", files = 0
            while let path = next, files < 10 {
                let feed = try Self.json(box.output.appendingPathComponent(path))
                let items = try #require(feed["items"] as? [[String: Any]])
                let number = try Regex("-n([0-9]{3})/")
                numbers += items.compactMap { ($0["id"] as? String)?.firstMatch(of: number).flatMap { Int($0.output[1].substring ?? "") } }
                #expect(feed["feed_url"] as? String == "https://example.com/" + path, "\(path)")
                next = (feed["next_url"] as? String).map { String($0.dropFirst("https://example.com/".count)) }
                files += 1
            }
            return numbers
        }
        try box.write("site/content/site.yml", "base_url: https://example.com/\n")
        for number in 0..<148 { try add(number) }
        #expect(try box.build().0.published)
        #expect(try chain() == Array((0..<148).reversed()))
        let oldest = try #require(file("feed/1.json"))
        #expect(file("feed/2.json") == nil, "98 posts in feed.json, 50 in feed/1.json")
        try add(148)
        #expect(try box.build().0.published)
        #expect(try chain() == Array((0..<149).reversed()))
        #expect(file("feed/1.json") == oldest && file("feed/2.json") == nil)
        try add(149)
        #expect(try box.build().0.published)
        #expect(try chain() == Array((0..<150).reversed()))
        #expect(file("feed/1.json") == oldest, "an archive file keeps its bytes")
        #expect(try Self.json(box.output.appendingPathComponent("feed.json"))["next_url"] as? String == "https://example.com/feed/2.json")
    }
}
