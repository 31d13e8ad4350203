import Testing
import GramgenMarkdown

/// The `@handle` rules of SITE-FORMAT.md: known users become mentions, well-formed unknown ones
/// are reported with their line and column, anything else is plain text.
struct MentionCase: CustomTestStringConvertible, Sendable {
    var markdown: String
    var mentions: [String]
    var unknown: [UnknownMention]
    var note: String
    init(_ markdown: String, _ mentions: [String], _ unknown: [UnknownMention], _ note: String) {
        self.markdown = markdown
        self.mentions = mentions
        self.unknown = unknown
        self.note = note
    }
    init(_ markdown: String, _ mentions: [String], _ note: String) {
        self.init(markdown, mentions, [], note)
    }
    var testDescription: String { "\(note): \(describe(markdown))" }
}

func unknown(_ handle: String, _ line: Int, _ column: Int) -> UnknownMention {
    UnknownMention(handle: handle, line: line, column: column)
}

let mentionCases: [MentionCase] = [
    MentionCase("@alfred", ["alfred"], "known user"),
    MentionCase("thanks @alfred.", ["alfred"], "a trailing dot ends the sentence"),
    MentionCase("thanks @alfred...", ["alfred"], "several trailing dots"),
    MentionCase("@bruce.wayne!", ["bruce.wayne"], "a dot inside a handle"),
    MentionCase("@robin_ and @alfred, @batman", ["robin_", "alfred", "batman"], "several, in order"),
    MentionCase("@alfred and @alfred", ["alfred"], "a user mentioned twice is listed once"),
    MentionCase("@bob", [], [unknown("bob", 1, 1)], "unknown user"),
    MentionCase("Hi @alfred and @bob", ["alfred"], [unknown("bob", 1, 16)], "known and unknown"),
    MentionCase("first\nsecond @bob", [], [unknown("bob", 2, 8)], "line and column"),
    MentionCase("first\n   @bob", [], [unknown("bob", 2, 4)], "indented continuation line"),
    MentionCase("> a\n> b @bob", [], [unknown("bob", 2, 5)], "block quote continuation"),
    MentionCase("> a\n@bob @bob", [], [unknown("bob", 2, 1), unknown("bob", 2, 6)], "lazy continuation, twice"),
    MentionCase("- a\n\n  @bob", [], [unknown("bob", 3, 3)], "list item paragraph"),
    MentionCase("서울 @bob", [], [unknown("bob", 1, 4)], "columns count characters, not bytes"),
    MentionCase("x\t@bob", [], [unknown("bob", 1, 3)], "a tab is one column"),
    MentionCase("| a | @bob |\n|---|---|", [], [unknown("bob", 1, 7)], "table header cell"),
    MentionCase("| a | b |\n|---|---|\n| x\\|y | @bob |", [], [unknown("bob", 3, 10)], "table cell after an escaped pipe"),
    MentionCase("@bob\r\n@carl", [], [unknown("bob", 1, 1), unknown("carl", 2, 1)], "CRLF line ends"),
    MentionCase("\u{7}@bob", [], [unknown("bob", 1, 2)], "removed control characters still count as columns"),
    MentionCase("@about", [], [unknown("about", 1, 1)], "a reserved word is no user"),
    MentionCase("@tags.", [], [unknown("tags", 1, 1)], "a reserved word before a dot"),
    MentionCase("@" + String(repeating: "b", count: 30), [], [unknown(String(repeating: "b", count: 30), 1, 1)],
                "30 characters is a handle"),
    MentionCase("@" + String(repeating: "b", count: 31), [], "31 characters is too long for a handle"),
    MentionCase("@al..fred", [], "two dots in a row"),
    MentionCase("@.alfred", [], "a leading dot"),
    MentionCase("@Alfred", [], "upper case is not a handle character"),
    MentionCase("@alfredX", [], "a handle glued to an upper-case letter"),
    MentionCase("@alfredé", [], "a handle glued to a non-ASCII letter"),
    MentionCase("@", [], "a lone at sign"),
    MentionCase("a@alfred", [], "after a letter"),
    MentionCase("1@alfred", [], "after a digit"),
    MentionCase("_@alfred", [], "after an underscore"),
    MentionCase("x.@alfred", [], "after a dot"),
    MentionCase("mail me: alfred@batman.com", [], "e-mail address"),
    MentionCase("x-@alfred", ["alfred"], "after a hyphen"),
    MentionCase("x-@alfred.com", [], "after a hyphen, an e-mail address"),
    MentionCase("&amp;@alfred", ["alfred"], "after an ampersand"),
    MentionCase("&#64;alfred", [], "decimal entity"),
    MentionCase("&commat;alfred", [], "named entity"),
    MentionCase("\\@alfred", [], "backslash escape"),
    MentionCase("`@alfred`", [], "code span"),
    MentionCase("```\n@alfred\n```", [], "fenced code block"),
    MentionCase("[@alfred](https://example.com)", [], "link text"),
    MentionCase("https://example.com/@alfred", [], "inside a URL"),
    MentionCase("*@alfred* ~~@batman~~", ["alfred", "batman"], "emphasis and strikethrough"),
    MentionCase("| @alfred |\n|---|", ["alfred"], "table cell"),
]

@Test("mentions", arguments: mentionCases)
func mentions(_ example: MentionCase) {
    let result = renderer.render(example.markdown)
    #expect(result.text.mentions == example.mentions)
    #expect(result.unknownMentions == example.unknown)
    #expect(result.text.tags.isEmpty)
}

@Test("tags and mentions are found together, in order")
func tagsAndMentionsTogether() {
    let result = renderer.render("Sunset with @alfred #seoul #HanRiver\n\n> @selina: #Seoul! @bob#x #y@alfred")
    #expect(result.text.tags == ["seoul", "HanRiver", "Seoul", "y"])
    #expect(result.text.mentions == ["alfred", "selina"])
    #expect(result.unknownMentions == [unknown("bob", 3, 20)])
}
