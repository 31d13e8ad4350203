import GramgenCore
import Testing
@testable import GramgenRender

/// `ViewFactory.isLong` reads an ASCII caption by its bytes and any other by its characters:
/// both must say the same of every text.
struct CaptionLengthTests {
    @Test("examples: 125 characters fit, 126 do not; two lines fit, three do not; \\r\\n is one newline")
    func examples() {
        #expect(!ViewFactory.isLong(String(repeating: "a", count: 125)))
        #expect(ViewFactory.isLong(String(repeating: "a", count: 126)))
        #expect(!ViewFactory.isLong(String(repeating: "é", count: 125)), "250 bytes, 125 characters")
        #expect(!ViewFactory.isLong("one\ntwo"))
        #expect(ViewFactory.isLong("one\ntwo\nthree"))
        #expect(!ViewFactory.isLong("one\r\ntwo"))
        #expect(ViewFactory.isLong("one\r\ntwo\r\nthree"))
        #expect(ViewFactory.isLong("one\rtwo\u{0B}three"))
    }

    @Test("bytes and characters agree on random texts of letters, newlines, accents and emoji (seeded)")
    func fastPathMatchesCharacters() {
        var random = SeededRandom.forTest("CaptionLengthTests.fastPathMatchesCharacters")
        let seed = random.seed
        let ascii = ["a", "b", " ", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\t", "xyz", String(repeating: "w", count: 40)]
        let other = ["é", "e\u{0301}", "東", "👍🏽", "\u{2028}", "\u{85}"]
        for round in 0..<4_000 {
            let pieces = round % 2 == 0 ? ascii : ascii + other
            let text = (0..<Int(random.next() % 60)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(ViewFactory.isLong(text) == ViewFactory.isLong(characters: text),
                    "seed \(seed): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
