import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

/// `sitemap.xml` lists its pages in the order of their paths' UTF-8 bytes: for paths in NFC, as
/// gramgen makes them, the order `<` gives, which it no longer asks for.
struct SitemapTests {
    @Test("paths sorted by their bytes come in the order of Unicode text, prefixes first")
    func sortedByBytesAgrees() {
        let examples = ["", "a/", "a/b/", "a-b/", "a/p/x/", "a/p/x/likes/", "tags/ça/", "tags/ca/", "tags/日本/", "tags/📷/", "Z/", "z/"]
        #expect(SitemapRenderer.sortedByBytes(examples).map { examples[$0] } == examples.sorted())
        // Paths from an alphabet of separators, letters, digits and multi-byte letters (all NFC).
        var random = SeededRandom.forTest("SitemapTests.sortedByBytesAgrees")
        let alphabet: [String] = ["/", "/", "-", ".", "a", "b", "p", "0", "9", "Z", "é", "ß", "日", "📷"]
        for _ in 0..<200 {
            let paths = (0..<Int.random(in: 0...300, using: &random)).map { _ in
                (0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
            }
            #expect(SitemapRenderer.sortedByBytes(paths).map { paths[$0] } == paths.sorted(), "seed \(random.seed)")
            // The way a run too deep for the byte-at-a-time sort is finished, whole texts compared.
            #expect(SitemapRenderer.sortedByBytes(paths, maximumLevel: 0).map { paths[$0] } == paths.sorted(), "seed \(random.seed)")
        }
        // A site's paths: long shared starts, a post's page before its likes page.
        let site = (0..<3_000).flatMap { number -> [String] in
            let post = "u\(number % 7)/p/2025-\(10 + number % 3)-\(number % 28)-post-\(number)/"
            return [post, post + "likes/"]
        }.shuffled(using: &random)
        #expect(SitemapRenderer.sortedByBytes(site).map { site[$0] } == site.sorted(), "seed \(random.seed)")
    }
    @Test("a sitemap past the protocol's 50,000 URLs or 50 MiB is an index of files that each fit, in the paths' byte order")
    func splitIntoParts() throws {
        let paths = (0..<120_001).map { "u\($0 % 997)/p/\($0)/" }
        #expect(SitemapRenderer.parts(Array(paths.prefix(50_000)), baseURL: "https://example.com/") == nil, "50,000 fit in one")
        let parts = try #require(SitemapRenderer.parts(paths, baseURL: "https://example.com/"))
        #expect(parts.map(\.count) == [50_000, 50_000, 20_001])
        #expect(Array(parts.joined()) == paths.sorted())
        // Under 50,000 URLs, but too many bytes for one file: a long base URL (1,200 bytes).
        let base = "https://example.com/" + String(repeating: "a", count: 1_180) + "/"
        let few = Array(paths.prefix(45_000))
        let split = try #require(SitemapRenderer.parts(few, baseURL: base))
        #expect(split.count == 2 && Array(split.joined()) == few.sorted())
        let sizes = split.map { SitemapRenderer.urlset(baseURL: base, paths: $0, inOrder: Array($0.indices)).count }
        #expect(sizes.allSatisfy { $0 <= SitemapRenderer.maxBytes } && sizes[0] > SitemapRenderer.maxBytes - 1_300, "\(sizes)")
        // A path that escapes longer than it is (`&` is `&amp;` in XML) counts as written.
        let amp = ["a&b/", "c/"]
        let tight = try #require(SitemapRenderer.parts(amp, baseURL: "https://x/", maxURLs: 10, maxBytes: 150))
        #expect(tight == [["a&b/"], ["c/"]])
        let index = String(decoding: SitemapRenderer.index(baseURL: "https://x/", parts: 2), as: UTF8.self)
        #expect(index == """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <sitemap><loc>https://x/sitemap-1.xml</loc></sitemap>
              <sitemap><loc>https://x/sitemap-2.xml</loc></sitemap>
            </sitemapindex>

            """)
    }
}
