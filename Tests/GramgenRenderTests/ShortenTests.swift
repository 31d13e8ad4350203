import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

/// `SiteRenderer.shorten` cuts a text to a number of characters, trims the spaces the cut leaves
/// and adds "…": the same result as Foundation's trimming, which it no longer calls.
struct ShortenTests {
    /// The definition it replaces.
    static func reference(_ text: String, to length: Int) -> String {
        guard text.count > length else { return text }
        return String(text.prefix(length - 1)).trimmingCharacters(in: .whitespaces) + "…"
    }

    @Test("examples: short texts unchanged, spaces trimmed at the cut, multi-byte characters counted as one")
    func examples() {
        #expect(SiteRenderer.shorten("short", to: 10) == "short")
        #expect(SiteRenderer.shorten("exactly10!", to: 10) == "exactly10!")
        #expect(SiteRenderer.shorten("hello world again", to: 7) == "hello…")
        #expect(SiteRenderer.shorten("ééééé", to: 5) == "ééééé", "ten bytes, five characters")
        #expect(SiteRenderer.shorten("  \t   x", to: 4) == "…")
        #expect(SiteRenderer.shorten("\u{3000}東京\u{3000}駅です", to: 5) == "東京…")
    }

    @Test("its spaces are exactly Foundation's whitespaces, over every scalar")
    func spaces() {
        for value in 0...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if SiteRenderer.isSpace(scalar) != CharacterSet.whitespaces.contains(scalar) {
                Issue.record("U+\(String(value, radix: 16))")
            }
        }
    }

    @Test("the same as Foundation's trimming on random ASCII texts, with line breaks of every kind and control bytes")
    func matchesFoundationOnASCII() {
        var random = SeededRandom.forTest("ShortenTests.matchesFoundationOnASCII")
        let seed = random.seed
        let pieces = [" ", "\t", "\r", "\n", "\r\n", "\u{0}", "\u{7F}", "\u{1B}", "a", "Z", "#", "."]
        for _ in 0..<4_000 {
            let text = (0..<Int(random.next() % 40)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let length = Int(random.next() % 30) + 1
            #expect(SiteRenderer.shorten(text, to: length) == Self.reference(text, to: length),
                    "seed \(seed): \(Array(text.utf8)) to \(length)")
        }
    }

    @Test("the same as Foundation's trimming on random texts of spaces, tabs, letters, accents and emoji")
    func matchesFoundation() {
        var random = SeededRandom.forTest("ShortenTests.matchesFoundation")
        let seed = random.seed
        let pieces = [" ", "\t", "\u{00A0}", "\u{3000}", "\u{2009}", "\n", "a", "é", "e\u{0301}", "東", "👍🏽", "🇫🇷", "x", "\u{200B}"]
        for _ in 0..<2_000 {
            let text = (0..<Int(random.next() % 40)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let length = Int(random.next() % 30) + 1
            #expect(SiteRenderer.shorten(text, to: length) == Self.reference(text, to: length),
                    "seed \(seed): \(text.unicodeScalars.map { String($0.value, radix: 16) }) to \(length)")
        }
    }
}
