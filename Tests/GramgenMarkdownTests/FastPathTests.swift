import Foundation
@testable import GramgenCore
import Testing
@testable import GramgenMarkdown

/// The shortcuts taken for common input give exactly what the general code gives.
struct FastPathTests {
    static let tags = [
        "", "seoul", "Seoul", "SEOUL_2024", "a-b.c~d", "tag with space", "a/b", "%41", "café", "cafe\u{301}",
        "CAFÉ", "서울", "İstanbul", "ǅ", "ﬁ", "ß", "Σίσυφος", "x\u{0}y", "~", "..", "#tag", "émoji😀",
    ]

    @Test("tag keys and URL components: the ASCII shortcuts give the general rule's answers", arguments: tags + [
        "ＳＥＯＵＬ", "seoul\u{FE0F}", "Straße", "summer_2024", String(repeating: "a", count: 250), String(repeating: "가", count: 90),
    ])
    func tagKeys(_ tag: String) {
        #expect(TagKey.key(for: tag) == TagKey.folded(tag))
        let key = TagKey.key(for: tag)
        #expect(TagKey.urlComponent(for: key) == TagKey.percentEncoded(key))
        #expect(TagKey.urlComponent(for: tag) == TagKey.percentEncoded(tag))
        #expect(TagKey.precomposed(tag) == tag.precomposedStringWithCanonicalMapping)
        #expect(TagKey.precomposed(tag).unicodeScalars.elementsEqual(tag.precomposedStringWithCanonicalMapping.unicodeScalars))
    }

    @Test("a caption's tags in every spelling link to one tag page")
    func oneLink() {
        let renderer = MarkdownRenderer(isKnownHandle: { _ in false })
        let html = renderer.render("#Seoul #ＳＥＯＵＬ #seoul\u{FE0F}").text.html
        #expect(html.components(separatedBy: "tags/seoul/").count - 1 == 3, "\(html)")
    }

    @Test("handle shape: the handle rule, reserved words allowed")
    func handleShape() {
        var generator = SeededRandom.forTest("FastPathTests.handleShape")
        let alphabet: [Character] = ["a", "z", "0", "_", ".", ".", "A", "é", "-"]
        var samples = ["", ".", "a", "a.", ".a", "a..b", "a.b", "tags", "about", String(repeating: "a", count: 30),
                       String(repeating: "a", count: 31), String(repeating: "é", count: 10)]
        for _ in 0..<2000 {
            samples.append(String((0..<Int.random(in: 0...33, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }))
        }
        for handle in samples {
            let expected = Handle.problem(with: handle) == nil || Handle.reserved.contains(handle)
            #expect(CaptionScanner.hasHandleShape(handle) == expected, "\(handle)")
        }
    }

    @Test("plain text collapses whitespace exactly as one scalar at a time does")
    func plainText() {
        let pieces = ["", " ", "a", "  a  b  ", "\n\t", "é\u{301} x", "\u{A0}nbsp\u{2003}em", " \u{301}mark", "x\u{2028}y",
                      "서울 #tag", "\u{85}", "end "]
        var generator = SeededRandom.forTest("FastPathTests.plainText")
        for _ in 0..<500 {
            var builder = PlainTextBuilder()
            var reference = ReferencePlainText()
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                if Int.random(in: 0..<5, using: &generator) == 0 {
                    builder.breakBlock()
                    reference.breakBlock()
                } else {
                    let piece = pieces.randomElement(using: &generator)!
                    builder.append(piece)
                    reference.append(piece)
                }
            }
            #expect(builder.text.unicodeScalars.elementsEqual(reference.text.unicodeScalars))
        }
    }
}

/// PlainTextBuilder as it was first written, scalar by scalar.
private struct ReferencePlainText {
    var text = ""
    var pendingSpace = false

    mutating func append(_ piece: String) {
        for scalar in piece.unicodeScalars {
            if isWhitespace(scalar) {
                pendingSpace = !text.isEmpty
            } else {
                if pendingSpace {
                    text.unicodeScalars.append(" ")
                    pendingSpace = false
                }
                text.unicodeScalars.append(scalar)
            }
        }
    }

    mutating func breakBlock() { pendingSpace = !text.isEmpty }

    func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }
}
