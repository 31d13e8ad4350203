import Testing
import GramgenMarkdown

/// Exact HTML for a representative set of captions: links carry `InternalLink`'s marker, tag URLs
/// use the lower-case NFC key percent-encoded, and no raw HTML or script URL gets through.
struct HTMLCase: CustomTestStringConvertible, Sendable {
    var markdown: String
    var html: String
    var testDescription: String { describe(markdown) }
}

let htmlCases: [HTMLCase] = [
    HTMLCase(markdown: "Hello #Seoul",
             html: "<p>Hello <a href=\"gramgen:/tags/seoul/\">#Seoul</a></p>\n"),
    HTMLCase(markdown: "#서울",
             html: "<p><a href=\"gramgen:/tags/%EC%84%9C%EC%9A%B8/\">#서울</a></p>\n"),
    HTMLCase(markdown: "#cafe\u{301}",  // NFD spelling kept in the text, NFC key in the URL
             html: "<p><a href=\"gramgen:/tags/caf%C3%A9/\">#cafe\u{301}</a></p>\n"),
    HTMLCase(markdown: "thanks @alfred. hi @bob and @bruce.wayne",
             html: "<p>thanks <a href=\"gramgen:/alfred/\">@alfred</a>. hi @bob and "
                 + "<a href=\"gramgen:/bruce.wayne/\">@bruce.wayne</a></p>\n"),
    HTMLCase(markdown: "&#35;tag \\#tag &amp;#tag",
             html: "<p>#tag #tag &amp;#tag</p>\n"),
    HTMLCase(markdown: "`#code` https://x.com/#frag",
             html: "<p><code>#code</code> <a href=\"https://x.com/#frag\">https://x.com/#frag</a></p>\n"),
    HTMLCase(markdown: "~~#gone~~ *#tag*",
             html: "<p><del><a href=\"gramgen:/tags/gone/\">#gone</a></del> <em><a href=\"gramgen:/tags/tag/\">#tag</a></em></p>\n"),
    HTMLCase(markdown: "# Title\n\n## Trip #seoul",
             html: "<h1>Title</h1>\n<h2>Trip <a href=\"gramgen:/tags/seoul/\">#seoul</a></h2>\n"),
    HTMLCase(markdown: "| a | #cell |\n|---|---|\n| @alfred | x |",
             html: "<table>\n<thead>\n<tr>\n<th>a</th>\n<th><a href=\"gramgen:/tags/cell/\">#cell</a></th>\n</tr>\n</thead>\n"
                 + "<tbody>\n<tr>\n<td><a href=\"gramgen:/alfred/\">@alfred</a></td>\n<td>x</td>\n</tr>\n</tbody>\n</table>\n"),
    HTMLCase(markdown: "a@b.com www.example.com",
             html: "<p><a href=\"mailto:a@b.com\">a@b.com</a> <a href=\"http://www.example.com\">www.example.com</a></p>\n"),
    HTMLCase(markdown: "<script>alert(1)</script>",
             html: "<!-- raw HTML omitted -->\n"),
    HTMLCase(markdown: "<style>x</style><iframe src=x></iframe>",
             html: "<!-- raw HTML omitted -->\n"),
    HTMLCase(markdown: "hi <b onclick=\"x()\">x</b>",
             html: "<p>hi <!-- raw HTML omitted -->x<!-- raw HTML omitted --></p>\n"),
    HTMLCase(markdown: "[x](javascript:alert(1)) [y](data:text/html,hi)",
             html: "<p><a href=\"\">x</a> <a href=\"\">y</a></p>\n"),
    HTMLCase(markdown: "5 < 6 & \"q\"",
             html: "<p>5 &lt; 6 &amp; &quot;q&quot;</p>\n"),
    HTMLCase(markdown: "a\u{1}b\u{0}c\u{1B}[0m",
             html: "<p>abc[0m</p>\n"),
    HTMLCase(markdown: "",
             html: ""),
]

@Test("exact HTML", arguments: htmlCases)
func exactHTML(_ example: HTMLCase) {
    #expect(renderer.render(example.markdown).text.html == example.html)
}

/// Plain text feeds summaries and meta descriptions: no markup, entities decoded, whitespace collapsed.
@Test("plain text", arguments: [
    ("**Hello**   _world_\n\nnext para", "Hello world next para"),
    ("Visit [site](https://x.com) #seoul @alfred ![alt text](p.jpg)", "Visit site #seoul @alfred alt text"),
    ("&amp; &#35;x \\*y\\*", "& #x *y*"),
    ("<b>bold</b> x\n\n<div>\nblock\n</div>", "bold x"),
    ("line1\nline2  \nline3\\\nline4", "line1 line2 line3 line4"),
    ("- one\n- two\n\n```\ncode\n```", "one two code"),
    ("| a | b |\n|---|---|\n| c | d |", "a b c d"),
    ("  \n\n  ", ""),
])
func plainText(_ markdown: String, _ expected: String) {
    #expect(renderer.render(markdown).text.plainText == expected)
}
