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
        }
    }
}
