import GramgenCore
import Testing
@testable import GramgenRender

/// A view with whatever fields a test needs.
private struct Fields: TemplateObject {
    var values: [String: TemplateValue]
    func field(_ name: String) -> TemplateValue { values[name] ?? .missing }
}

private func object(_ values: [String: TemplateValue]) -> TemplateValue { .object(Fields(values: values)) }

private func render(_ template: String, _ value: TemplateValue, partials: [String: String] = [:], root: String = "") throws -> String {
    var templates = ["page": try TemplateParser(template).parse()]
    for (name, text) in partials { templates[name] = try TemplateParser(text).parse() }
    let bytes = try #require(TemplateRenderer(templates: templates).render("page", value, root: root))
    return String(decoding: bytes, as: UTF8.self)
}

private func syntaxError(_ template: String) -> TemplateSyntaxError? {
    do {
        _ = try TemplateParser(template).parse()
        return nil
    } catch {
        return error
    }
}

struct TemplateTests {
    @Test("variables: escaped, unescaped, numbers, flags, dotted names, the current item")
    func variables() throws {
        let value = object([
            "t": .text("<a href=\"x\">Tom & 'Jerry'</a>"), "n": .number(42), "f": .flag(false),
            "user": object(["name": .text("Ana")]), "items": .list([.text("a"), .text("b")]),
        ])
        #expect(try render("{{t}}|{{{t}}}|{{& t}}|{{n}}|{{f}}|{{user.name}}|{{user.missing}}|{{nope}}", value)
            == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;|<a href=\"x\">Tom & 'Jerry'</a>|<a href=\"x\">Tom & 'Jerry'</a>|42|false|Ana||")
        #expect(try render("{{#items}}[{{.}}]{{/items}}", value) == "[a][b]")
    }

    @Test("a rooted value is written with the page's root for each mark, escaped or not; a text's mark is dropped")
    func rooted() throws {
        let mark = InternalLink.rootMark
        let value = object([
            "href": .rooted(mark + "ana/p/1/?q=a&b"), "html": .rooted("<a href=\"\(mark)tags/x/\">#x</a> & <a href=\"\(mark)bo/\">@bo</a>"),
            "srcset": .rooted(mark + "media/a.webp 320w, " + mark + "media/b.webp 640w"), "plain": .rooted("no link"),
            "text": .text(mark + "ana/"), "empty": .rooted(""),
        ])
        let template = "{{href}}|{{{html}}}|{{srcset}}|{{plain}}|{{text}}|{{#href}}[{{.}}]{{/href}}|{{empty}}"
        #expect(try render(template, value, root: "../../")
            == "../../ana/p/1/?q=a&amp;b|<a href=\"../../tags/x/\">#x</a> & <a href=\"../../bo/\">@bo</a>|"
            + "../../media/a.webp 320w, ../../media/b.webp 640w|no link|ana/|[../../ana/p/1/?q=a&amp;b]|")
        #expect(try render(template, value)
            == "ana/p/1/?q=a&amp;b|<a href=\"tags/x/\">#x</a> & <a href=\"bo/\">@bo</a>|"
            + "media/a.webp 320w, media/b.webp 640w|no link|ana/|[ana/p/1/?q=a&amp;b]|")
        // A link made for a message (`liked_by`) keeps the mark its href holds, the rest escaped.
        #expect(ViewFactory.link(mark + "a&b/", "<ana>", className: "handle")
            == "<a class=\"handle\" href=\"\(mark)a&amp;b/\">&lt;ana&gt;</a>")
    }

    @Test("escaping works on code points: a quote with a combining mark, controls and non-characters")
    func escaping() throws {
        let value = object(["t": .text("\"\u{301} x\u{1}y\u{FFFE}z\u{FFFF}\té😀\r\n")])
        #expect(try render("{{t}}", value) == "&quot;\u{301} xyz\té😀\r\n")
        #expect(Escape.html("a\"\u{301}<\u{0}") == "a&quot;\u{301}&lt;")
    }

    /// The escaper tests eight bytes at a time and the rest one by one: random texts of every
    /// length around those steps, built from the characters it changes or drops and their
    /// neighbours in UTF-8 (U+FEFF and U+FFFD also begin with 0xEF), escaped as a scalar-by-scalar
    /// reading says. Seeded; the seed is printed.
    @Test("escaping eight bytes at a time gives what escaping scalar by scalar gives")
    func escapingInChunks() {
        var random = SeededRandom.forTest("escapingInChunks")
        let pieces: [String] = ["a", "Z", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
                                "é", "😀", "\u{FFFE}", "\u{FFFF}", "\u{FEFF}", "\u{FFFD}", "\u{EFFF}", "#", "%"]
        func reference(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += "&#39;"
                case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
                case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": break
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        for _ in 0..<3_000 {
            let plain = Int.random(in: 0...40, using: &random)
            var text = String(repeating: "x", count: plain)
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                text += pieces.randomElement(using: &random)!
                text += String(repeating: "y", count: Int.random(in: 0...20, using: &random))
            }
            #expect(Escape.html(text) == reference(text), "\(Array(text.unicodeScalars))")
        }
    }

    @Test("sections: lists, flags, objects, text; inverted sections; names found further out")
    func sections() throws {
        let value = object([
            "posts": .list([object(["id": .text("1")]), object(["id": .text("2"), "title": .text("own")])]),
            "title": .text("outer"), "yes": .flag(true), "no": .flag(false), "empty": .list([]),
            "location": .text(""),
        ])
        #expect(try render("{{#posts}}{{id}}:{{title}};{{/posts}}", value) == "1:outer;2:own;")
        #expect(try render("{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}!N{{/no}}{{^yes}}!Y{{/yes}}", value) == "Y!N")
        #expect(try render("{{#empty}}E{{/empty}}{{^empty}}none{{/empty}}{{^missing}}gone{{/missing}}", value) == "nonegone")
        #expect(try render("{{#location}}<{{location}}>{{/location}}{{^location}}-{{/location}}", value) == "<>")
    }

    @Test("standalone tag lines vanish; other whitespace stays")
    func standaloneLines() throws {
        let value = object(["items": .list([.text("a"), .text("b")]), "x": .text("X")])
        let template = "<ul>\n  {{#items}}\n  <li>{{.}}</li>\n  {{/items}}\n</ul>\n{{! note }}\n {{x}} \n{{#items}}{{.}}{{/items}}\n"
        #expect(try render(template, value) == "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n X \nab\n")
    }

    @Test("a standalone partial indents every line it draws")
    func partialIndentation() throws {
        let value = object(["items": .list([.text("a"), .text("b")])])
        let partials = ["list": "<ol>\n{{#items}}\n<li>{{.}}</li>\n{{/items}}\n</ol>\n", "inline": "[{{#items}}{{.}}{{/items}}]"]
        #expect(try render("<div>\n  {{> list}}\n</div>\n", value, partials: partials)
            == "<div>\n  <ol>\n  <li>a</li>\n<li>b</li>\n  </ol>\n</div>\n")
        #expect(try render("x {{> inline}} y", value, partials: partials) == "x [ab] y")
        #expect(try render("{{> nothing}}.", value) == ".")
    }

    @Test("published stylesheets and scripts lose their comments and spare spaces, never text in quotes")
    func comments() {
        let css = "/* theme */\na { color: red; } /* why */\n.q::before { content: \"/* not a comment */\"; }\n"
        #expect(Theme.withoutComments(css, ext: "css") == "a{color:red}\n.q::before{content:\"/* not a comment */\"}\n")
        // A space before a colon is a descendant combinator; spaces in values and in quotes stay.
        let spaced = ".a :focus-visible , .b > .c {\n  margin: 0 auto;\n  font-family: \"Noto  Sans\", serif;\n}\n@media (min-width: 9px) { .d { width: calc(1px + 2vw); } }\n"
        #expect(Theme.withoutComments(spaced, ext: "css")
            == ".a :focus-visible,.b>.c{margin:0 auto;font-family:\"Noto  Sans\",serif}\n@media (min-width:9px){.d{width:calc(1px + 2vw)}\n}\n")
        let js = "// about\nvar a = \"http://x\"; // kept: not a whole line\n  // gone\n  b();"
        #expect(Theme.withoutComments(js, ext: "js") == "var a = \"http://x\"; // kept: not a whole line\nb();")
        // Indentation inside a template literal is text: a script with one keeps its indentation.
        #expect(Theme.withoutComments("var t = `\n  x`;\n  y();", ext: "js") == "var t = `\n  x`;\n  y();")
        #expect(Theme.withoutComments("/* kept */", ext: "txt") == "/* kept */")
        // Non-ASCII text stays whole, in quotes and out; white space is CSS's own (a no-break
        // space is part of a name); an escaped quote does not end a string; an unclosed comment ends the file.
        let unicode = "a { content: \"é  \\\" ü\" }\r\n/* ü */ b\u{A0}c\t{ x: y; }\u{C}d/* open"
        #expect(Theme.withoutComments(unicode, ext: "css") == "a{content:\"é  \\\" ü\"}\nb\u{A0}c{x:y}\nd")
        #expect(Theme.withoutIndentation("  a\n\t\tb é\n \n  c") == "a\nb é\n\nc")
    }

    @Test("set delimiters let a theme print a literal {{, and end with the template")
    func delimiters() throws {
        let value = object(["name": .text("Ana")])
        #expect(try render("{{=<% %>=}}{{name}} is <%name%><%={{ }}=%> {{name}}", value) == "{{name}} is Ana Ana")
        #expect(try render("{{> p}}{{name}}", value, partials: ["p": "{{=[ ]=}}[name] "]) == "Ana Ana")
    }

    @Test("a partial that includes itself stops at a fixed depth")
    func recursion() throws {
        let output = try render("{{> loop}}", object([:]), partials: ["loop": "x{{> loop}}"])
        #expect(output == String(repeating: "x", count: TemplateRenderer.maximumDepth))
    }

    @Test("mistakes are reported at their line and column", arguments: [
        ("<p>\n  {{#post}}\n<p>{{caption}}</p>\n", 2, 3, "{{#post}} is never closed"),
        ("{{#a}}{{#b}}{{/a}}{{/b}}", 1, 13, "{{/a}} does not match the open section {{#b}} of line 1"),
        ("ok\n{{/a}}", 2, 1, "{{/a}} closes a section that was never opened"),
        ("é {{title", 1, 3, "the tag is never closed"),
        ("{{{title}}", 1, 1, "the tag is never closed"),
        ("{{ }}", 1, 1, "the tag has no name"),
        ("{{uppercased(name)}}", 1, 1, "`uppercased(name)`: functions in tags are not supported"),
        ("{{first name}}", 1, 1, "`first name` is not a field or template name"),
        ("x\n  {{=<% =}}", 2, 3, "a set-delimiter tag needs two delimiters between equals signs"),
        ("{{<base}}{{/base}}", 1, 1, "template inheritance ({{< parent}}, {{$ block}}) is not supported"),
    ])
    func errors(_ template: String, _ line: Int, _ column: Int, _ message: String) {
        let error = syntaxError(template)
        #expect(error?.line == line)
        #expect(error?.column == column)
        #expect(error?.message == message)
        #expect(error?.hint.isEmpty == false)
    }
}
