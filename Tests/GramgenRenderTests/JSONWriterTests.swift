import Foundation
import Testing
@testable import GramgenRender
import GramgenCore

/// Feeds are written by gramgen's JSONWriter; it must match Foundation's JSONEncoder byte for byte.
struct JSONWriterTests {
    struct Sample: Encodable {
        var text: String
        var number: Double
        var count: Int
        var flag: Bool
        var empty: [Int]
        var nested: [[String]]
        var missing: String?
    }

    @Test("same bytes as JSONEncoder (sorted keys, pretty printed, slashes kept)", arguments: [
        "plain", "q\"uote\\back/slash", "\u{0}\u{1}\u{8}\u{9}\u{a}\u{c}\u{d}\u{1f}\u{7f}", "é 😀 \u{2028} \u{FFFE}",
        "", "<p>caption</p>\n",
    ])
    func matchesFoundation(_ text: String) throws {
        for number in [1.0, 1.3333, 12.0, 0.0833, 0.5] {
            let sample = Sample(text: text, number: number, count: -3, flag: true, empty: [], nested: [[text], []])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            let expected = try encoder.encode(sample)
            var out: [UInt8] = []
            JSONWriter.write(.object([
                "text": .string(text), "number": .number(number), "count": .int(-3), "flag": .bool(true),
                "empty": .array([]), "nested": .array([.array([.string(text)]), .array([])]), "missing": nil,
            ]), into: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            // Written member by member, the keys in order, as a feed's items are.
            var blocks: [UInt8] = []
            JSONWriter.object(indent: 0, into: &blocks) { sample in
                sample.int("count", -3)
                sample.array("empty") { _ in }
                sample.bool("flag", true)
                sample.string("missing", nil)
                sample.array("nested") { outer in
                    outer.value(.array([.string(text)]))
                    outer.value(.array([]))
                }
                sample.number("number", number)
                sample.string("text", text)
            }
            #expect(String(decoding: blocks, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test("strings of any mix of plain runs and escapes: the same bytes as JSONEncoder")
    func randomStrings() throws {
        var random = SeededRandom.forTest("JSONWriterTests.randomStrings")
        let pieces = ["a", "plain text ", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{1}", "\u{1f}", "é", "😀", "<a href=\"x\">"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var out: [UInt8] = []
            JSONWriter.writeString(text, into: &out)
            let expected = try encoder.encode([text])  // `[ "…" ]`, pretty printed
            #expect("[\n  " + String(decoding: out, as: UTF8.self) + "\n]" == String(decoding: expected, as: UTF8.self), "seed \(random.seed)")
        }
    }

    @Test("integers are written as String(value) writes them")
    func integers() {
        var random = SeededRandom.forTest("JSONWriterTests.integers")
        var values = [0, 1, 9, 10, -1, -10, 99, 100, 123_456_789, Int.max, Int.min]
        for _ in 0..<1000 { values.append(Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0...62, using: &random)) }
        for value in values {
            var out: [UInt8] = [UInt8(ascii: "[")]
            JSONWriter.writeInteger(value, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == "[" + String(value), "\(value)")
        }
    }
}
