import Testing
import GramgenMarkdown

/// The `#tag` rules of SITE-FORMAT.md ("Hashtags and mentions"), one case per rule or trap.
struct HashtagCase: CustomTestStringConvertible, Sendable {
    var markdown: String
    var tags: [String]
    var note: String
    init(_ markdown: String, _ tags: [String], _ note: String) {
        self.markdown = markdown
        self.tags = tags
        self.note = note
    }
    var testDescription: String { "\(note): \(describe(markdown))" }
}

let hashtagCases: [HashtagCase] = [
    // What a tag is made of
    HashtagCase("Hello #seoul", ["seoul"], "ASCII tag"),
    HashtagCase("#서울 at night", ["서울"], "Hangul tag"),
    HashtagCase("#café", ["café"], "NFC accented tag"),
    HashtagCase("#cafe\u{301}", ["cafe\u{301}"], "NFD accented tag keeps the combining mark, as written"),
    HashtagCase("#summer_2024", ["summer_2024"], "letters, digits and underscore"),
    HashtagCase("#2024", [], "digits only is not a tag"),
    HashtagCase("#2024년", ["2024년"], "digits plus a letter is a tag"),
    HashtagCase("#_2024", [], "underscore and digits without a letter"),
    HashtagCase("#crème_brûlée", ["crème_brûlée"], "one tag across underscores and accents"),
    HashtagCase("#東京タワー", ["東京タワー"], "CJK and katakana"),
    HashtagCase("#🌸 #spring🌸", ["spring"], "emoji are not tag characters"),
    HashtagCase("#", [], "a lone hash"),
    HashtagCase("# ", [], "hash and space"),
    // Where a tag ends
    HashtagCase("#seoul!", ["seoul"], "punctuation ends a tag"),
    HashtagCase("#tag's", ["tag"], "apostrophe ends a tag"),
    HashtagCase("(#seoul)", ["seoul"], "tag in parentheses"),
    HashtagCase("#tag#other", ["tag"], "a second hash glued to a tag"),
    HashtagCase("##tag", ["tag"], "hash after hash"),
    HashtagCase("#a #b #a", ["a", "b", "a"], "several tags in order, repeats kept"),
    HashtagCase("#Seoul #seoul", ["Seoul", "seoul"], "spelling as written"),
    HashtagCase("line one\n#tag", ["tag"], "tag after a soft line break"),
    HashtagCase("line one  \n#tag", ["tag"], "tag after a hard line break"),
    // What may come before the hash
    HashtagCase("C# and F#", [], "after a letter"),
    HashtagCase("a#b", [], "between letters"),
    HashtagCase("1#b", [], "after a digit"),
    HashtagCase("_#b", [], "after an underscore"),
    HashtagCase("e\u{301}#tag", [], "after a combining mark (NFD letter)"),
    HashtagCase("&#x", [], "after an ampersand: an unfinished entity"),
    HashtagCase("AT&T &#tag", [], "after a literal ampersand"),
    HashtagCase("&amp;#tag", [], "after an ampersand written as an entity"),
    HashtagCase("*a*#tag", [], "after a letter in emphasis"),
    HashtagCase("-#tag", ["tag"], "after a hyphen"),
    // Entities and escapes never start a tag
    HashtagCase("&#35;tag", [], "decimal entity"),
    HashtagCase("&#x23;tag", [], "hexadecimal entity"),
    HashtagCase("&num;tag", [], "named entity"),
    HashtagCase("\\#tag", [], "backslash escape"),
    HashtagCase("\\##tag", ["tag"], "a typed hash after an escaped one"),
    HashtagCase("#caf&eacute;", ["café"], "an entity inside a tag is part of it"),
    HashtagCase("#summer\\_2024", ["summer_2024"], "an escaped underscore inside a tag is part of it"),
    // Markdown contexts
    HashtagCase("`#code`", [], "code span"),
    HashtagCase("```\n#fenced\n```", [], "fenced code block"),
    HashtagCase("    #indented", [], "indented code block"),
    HashtagCase("[#link](https://example.com)", [], "link text"),
    HashtagCase("[see](https://x.com/#frag)", [], "link URL"),
    HashtagCase("![#alt](photo.jpg)", [], "image alt text"),
    HashtagCase("https://x.com/#frag", [], "autolinked URL with a fragment"),
    HashtagCase("<https://x.com/#frag>", [], "angle-bracket autolink"),
    HashtagCase("www.example.com/#frag", [], "bare www. URL"),
    HashtagCase("# Title", [], "an ATX heading marker is not a tag"),
    HashtagCase("## Trip #seoul", ["seoul"], "a tag inside a heading"),
    HashtagCase("#seoul\n===", ["seoul"], "a tag as a setext heading"),
    HashtagCase("*#tag*", ["tag"], "emphasis"),
    HashtagCase("**#bold** _#under_", ["bold", "under"], "strong and underscore emphasis"),
    HashtagCase("~~#gone~~", ["gone"], "strikethrough"),
    HashtagCase("> quoted #tag", ["tag"], "block quote"),
    HashtagCase("- one #a\n- two #b", ["a", "b"], "list items"),
    HashtagCase("| a | #cell |\n|---|---|\n| #row | b |", ["cell", "row"], "table cells"),
    HashtagCase("<span>#tag</span>", ["tag"], "next to raw HTML, which is omitted"),
    HashtagCase("<a href=\"#x\">y</a>", [], "inside a raw HTML attribute"),
    HashtagCase("[ref]: https://x.com/#frag\n\n[ref]", [], "reference definition"),
]

@Test("hashtags", arguments: hashtagCases)
func hashtags(_ example: HashtagCase) {
    let result = renderer.render(example.markdown)
    #expect(result.text.tags == example.tags)
    #expect(result.text.mentions.isEmpty)
    #expect(result.unknownMentions.isEmpty)
}

@Test("a tag may be 100 characters long, not more", arguments: [
    (String(repeating: "a", count: 100), true),
    (String(repeating: "a", count: 101), false),
    (String(repeating: "e\u{301}", count: 100), true),  // 200 scalars, 100 characters
    (String(repeating: "서", count: 100) + "울", false),
])
func hashtagLength(_ body: String, isTag: Bool) {
    #expect(renderer.render("#" + body + " end").text.tags == (isTag ? [body] : []))
}
