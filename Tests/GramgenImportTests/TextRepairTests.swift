import Foundation
import GramgenCore
import Testing
@testable import GramgenImport

/// Mojibake repair, and the text helpers that turn captions into safe front matter and Markdown.
struct TextRepairTests {
    /// What a JSON parser makes of Instagram's byte-per-escape text.
    static func mojibake(_ text: String) -> String {
        String(text.utf8.map { Character(Unicode.Scalar($0)) })
    }

    @Test("UTF-8 bytes escaped as Latin-1 are repaired", arguments: [
        "café", "Café day in 서울", "한강 산책 🌙 #한강", "☕️🌸 emoji with variation selector", "Radosław", "Дорогой друг",
    ])
    func repairsMojibake(_ text: String) {
        #expect(Self.mojibake(text) != text)
        #expect(MojibakeRepair.repair(Self.mojibake(text)) == text)
    }

    @Test("the escapes from the issue decode to é")
    func decodesIssueExample() throws {
        let json = try JSONDecoder().decode(ExportJSON.self, from: Data(#"{"t": "caf\u00c3\u00a9 \u00f0\u009f\u0098\u008a"}"#.utf8))
        #expect(json["t"]?.string == "café 😊")
    }

    @Test("correct text is left alone", arguments: ["plain ascii", "café", "서울 is already fine", "naïve Latin-1 ©", "Ã© mixed with 서울", ""])
    func leavesCorrectTextAlone(_ text: String) {
        #expect(MojibakeRepair.repair(text) == text)
    }

    @Test("repairing twice changes nothing")
    func idempotent() {
        let once = MojibakeRepair.repair(Self.mojibake("Café 서울 😊"))
        #expect(MojibakeRepair.repair(once) == once)
    }

    @Test("YAML strings are always double-quoted with escapes")
    func yamlQuoting() {
        #expect(YAMLQuote.quoted("plain") == #""plain""#)
        #expect(YAMLQuote.quoted(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
        #expect(YAMLQuote.quoted("two\nlines\ttab") == #""two\nlines\ttab""#)
        #expect(YAMLQuote.quoted("bell\u{07}") == #""bell\u0007""#)
        #expect(YAMLQuote.quoted("서울 ☕️") == "\"서울 ☕️\"")
        #expect(YAMLQuote.quoted("no") == #""no""#)
    }

    @Test("captions keep hashtags, mentions and line breaks; Markdown that would eat text is escaped")
    func captionMarkdown() {
        #expect(CaptionMarkdown.body(from: "Café #서울 with @bob") == "Café #서울 with @bob")
        #expect(CaptionMarkdown.body(from: "one\ntwo\n\nthree\r\nfour  ") == "one\\\ntwo\n\nthree\\\nfour")
        #expect(CaptionMarkdown.body(from: "#tag first\n# heading\n#\n---\n= =\n> quote") ==
            "#tag first\\\n\\# heading\\\n\\#\\\n\\---\\\n\\= =\\\n\\> quote")
        #expect(CaptionMarkdown.body(from: "<b>bold</b> I <3 it \\o/") == "\\<b\\>bold\\</b\\> I \\<3 it \\\\o/")
        #expect(CaptionMarkdown.body(from: "\n\n  text\n\n\n\nmore\n\n") == "text\n\nmore")
        #expect(CaptionMarkdown.body(from: "") == "")
    }

    @Test("slugs come from the caption's first ASCII words", arguments: [
        ("Café day in 서울 ☕️🌸 #café #서울 with @bob", "cafe-day-in-cafe-with-bob"),
        ("한강 산책 🌙 #한강", "post"),
        ("", "post"),
        ("Don't STOP me now!!!", "dont-stop-me-now"),
        ("A very long caption that keeps going well past the forty character limit", "a-very-long-caption-that-keeps-going"),
        ("Supercalifragilisticexpialidocious-and-even-more-letters-here", "supercalifragilisticexpialidocious-and"),
        (String(repeating: "x", count: 50), String(repeating: "x", count: 40)),
    ])
    func slugs(_ caption: String, _ slug: String) {
        #expect(PostSlug.slug(for: caption) == slug)
        #expect(slug.count <= 40)
    }

    @Test("folder names are unique, also against existing folders in another case")
    func uniqueFolders() {
        var namer = FolderNamer(existing: ["2021-03-04-First-Post"])
        #expect(namer.name(timestamp: 1614834367, caption: "First post") == "2021-03-04-first-post-2")
        #expect(namer.name(timestamp: 1614834367, caption: "first post!") == "2021-03-04-first-post-3")
        #expect(namer.name(timestamp: 1614834367, caption: "서울") == "2021-03-04-post")
    }

    @Test("dates are RFC 3339 in UTC")
    func dates() {
        #expect(ExportDate.rfc3339(1614834367) == "2021-03-04T05:06:07Z")
        #expect(ExportDate.day(1614834367) == "2021-03-04")
    }

    @Test("websites without a scheme get https; unusable ones are left out")
    func websites() {
        #expect(ProfileMarkdown.website(from: "mina.example.com") == "https://mina.example.com")
        #expect(ProfileMarkdown.website(from: "http://x.org/a") == "http://x.org/a")
        #expect(ProfileMarkdown.website(from: "javascript:alert(1)") == nil)
        #expect(ProfileMarkdown.website(from: "my site") == nil)
        #expect(ProfileMarkdown.website(from: "") == nil)
    }
}
