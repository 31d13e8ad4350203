import GramgenCore
import GramgenMarkdown
import PropertyBased
import Testing
@testable import GramgenImport

/// An imported caption must show on the page exactly as it was typed on Instagram: the text of
/// the rendered HTML equals the caption, whatever Markdown syntax it happens to contain.
struct CaptionRoundTripTests {
    static let renderer = MarkdownRenderer(isKnownHandle: { $0 == "ann" || $0 == "ann_lee" })

    /// Pieces a caption is made of: Markdown syntax of every kind, hashtags, mentions, words.
    static let fragments = [
        "- ", "* ", "+ ", "1. ", "1) ", "12.", "# ", "## ", "#", "> ", "---", "===", "***", "___", "    ", "\t",
        "*x*", "**x**", "_x_", "__x__", "`x`", "```", "~~x~~", "~", "[x](y)", "![x](y)", "[x]", "[x]: y",
        "<b>", "</b>", "<3", "&amp;", "&copy;", "&#35;", "|", "|a|b|", "|-|-|", "\\", "\\n", "!", "(", ")",
        "#tag", "#summer_2024", "#서울", "@ann", "@ann_lee", "@nobody", "a@b.com", "&#tag", "x#tag",
        "www.x.com", "https://x.com/a_b", "word", "é", "서울", "😀", " ", "  ", "\n", "\n", "\n\n", "\n\n\n",
        "snake_case", "_", "*", "=", "-", "+", ".", "1",
    ]
    static let caption = Gen<Int>.value(in: 0...(fragments.count - 1))
        .map { fragments[$0] }.array(of: 0...24).map { $0.joined() }

    @Test("random captions made of Markdown syntax render to the text as typed")
    func roundTrip() async {
        await propertyCheck(count: 400, input: Self.caption) { caption in
            let html = Self.renderer.render(CaptionMarkdown.body(from: caption)).text.html
            #expect(Self.visibleText(html) == Self.expectedText(caption),
                    "caption: \(caption.debugDescription)\nbody: \(CaptionMarkdown.body(from: caption).debugDescription)\nhtml: \(html.debugDescription)")
        }
    }

    @Test("recipe lists, emphasis, code and links stay as typed", arguments: [
        "Pancakes:\n- 2 eggs\n- 1 cup milk\n1. mix\n2) fry\n* enjoy",
        "so *good* and _really_ `hot` [menu](x) ~~not~~ &amp; <b>bold</b> \\o/ |a|b|",
        "#tag first\n# heading\n#\n---\n= =\n> quote",
        "---\t- ", "-\t-\t-", "+ +\t+", "=\t=",
    ])
    func examples(_ caption: String) {
        let html = Self.renderer.render(CaptionMarkdown.body(from: caption)).text.html
        #expect(Self.visibleText(html) == Self.expectedText(caption), "html: \(html)")
        #expect(!html.contains("<li>") && !html.contains("<em>") && !html.contains("<code>") && !html.contains("<h1>"))
    }

    @Test("hashtags and mentions still link after escaping")
    func linksStillWork() {
        let text = Self.renderer.render(CaptionMarkdown.body(from: "* #summer_2024 with @ann_lee & @ann!\n1. #서울")).text
        #expect(text.tags == ["summer_2024", "서울"])
        #expect(text.mentions == ["ann_lee", "ann"])
    }

    /// What a reader sees: lines trimmed, runs of blanks as one space, runs of empty lines as one.
    static func expectedText(_ caption: String) -> String {
        let lines = caption.split(separator: "\n", omittingEmptySubsequences: false).map { collapse(String($0)) }
        var result: [String] = []
        for line in lines where !(line.isEmpty && (result.last?.isEmpty ?? true)) { result.append(line) }
        while result.last == "" { result.removeLast() }
        return result.joined(separator: "\n")
    }

    /// The rendered HTML's text: `<br />` a line break, a paragraph an empty line, tags dropped,
    /// entities decoded.
    static func visibleText(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "<br />\n", with: "\n")
            .replacingOccurrences(of: "</p>\n<p>", with: "\n\n")
        var plain = "", inTag = false
        for character in text {
            if character == "<" { inTag = true } else if character == ">" && inTag { inTag = false } else if !inTag { plain.append(character) }
        }
        text = plain
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return expectedText(text)
    }

    private static func collapse(_ line: String) -> String {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
