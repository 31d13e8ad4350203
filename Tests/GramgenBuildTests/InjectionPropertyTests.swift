import Foundation
import GramgenCore
import GramgenRender
import PropertyBased
import Testing
@testable import GramgenContent

/// Property: whatever users write into captions, bios, names, comments, alt texts, locations and
/// site.yml, no page or feed ever carries script, an event handler, a script URL or an attribute
/// broken out of its quotes. The site is loaded from real files and rendered in-process with
/// stand-in images (no libvips needed: image processing never sees these strings).
struct InjectionPropertyTests {
    /// Pieces attackers and accidents are made of; strings are random sequences of them, mixed
    /// with random code points (controls, combining marks, bidi overrides, astral planes).
    static let fragments: [String] = [
        "<script>alert(1)</script>", "<SCRIPT SRC=//x.js>", "<img src=x onerror=alert(1)>", "<svg/onload=alert(1)>",
        "\"", "'", "`", "\"\u{301}", "'\u{301}", "<\u{338}", ">\u{301}", "&\u{301}", "\u{301}", "\u{200D}",
        "javascript:alert(1)", "JaVaScRiPt:", "java\tscript:", "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)", " onerror=alert(1) ", "\" onmouseover=\"alert(1)", "' onfocus='alert(1)",
        "&#x3C;", "&#60;", "&lt;", "&quot;", "&amp;", "&", "<", ">", "/", "=", "\\", "%22", "%3C",
        "\u{0}", "\u{1}", "\u{7}", "\u{8}", "\u{B}", "\u{C}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{9B}",
        "\n", "\r\n", "\r", "\t", "\u{2028}", "\u{2029}", "\u{202E}", "\u{2066}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}",
        "{{", "}}", "{{{x}}}", "{{> head}}", "{{#site}}", "]]>", "<![CDATA[", "-->", "<!--", "</textarea>",
        "</title>", "</style>", "</script>", "<plaintext>", "<base href=//evil>",
        "[a](javascript:alert(1))", "![a](data:text/html,x)", "<javascript:alert(1)>", "[a](<java script:x>)",
        "[a]: javascript:alert(1)\n\n[a]", "```\n<script>\n```", "`<script>`", "> ", "- ", "# ", "---", "|a|b|\n|-|-|",
        "#tag", "#<b>", "@ann", "@bob", "@nobody", "a@b.com", "https://x.com/\"><script>", "www.x.com/<script>",
        "é", "😀", "서울", "ﷺ", "\u{E000}", "x", " ", "  ",
    ]

    /// One piece: a fragment four times in five, else any code point. (One integer drawn, so the
    /// library can shrink it; `Gen.frequency` needs the Swift 6 language mode.)
    static let piece = Gen<Int>.value(in: 0...(5 * 0x110000 - 1)).map { n -> String in
        if n % 5 != 0 { return fragments[(n / 5) % fragments.count] }
        return Unicode.Scalar(UInt32(n / 5)).map { String($0) } ?? "\u{FFFD}"
    }
    static let hostile = piece.array(of: 0...16).map { $0.joined() }

    /// Caption, bio, name, comment, alt, location, site title, site description.
    @Test("no user text can put script into a page or feed")
    func noInjection() async throws {
        let theme = try Self.theme()
        await propertyCheck(count: 150, input: Self.hostile.array(of: 8)) { texts in
            let problems = try Self.render(texts, theme: theme)
            #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))\ninput: \(texts.map(\.debugDescription))")
        }
    }

    @Test("the checker itself finds each kind of injection")
    func checkerFindsInjections() {
        let bad = [
            "<p><script>alert(1)</script></p>", "<img src=x onerror=alert(1)>", "<a href=\"javascript:alert(1)\">",
            "<a href=\" jav&#x61;script:x\">", "<img alt=\"x\"\u{301} onload=alert(1)>", "<img alt=\"a\"b=\"c\">",
            "<iframe src=x></iframe>", "<a href=\"data:text/html,x\">", "<div style=\"background:url(//evil)\">",
        ]
        for html in bad { #expect(!OutputSafety.html(html, isPage: false).isEmpty, "\(html)") }
        let good = ["<p>&lt;script&gt;</p>", "<img alt=\"&quot;\u{301} onload=x\" src=\"../media/a.jpg\">",
                    "<script src=\"../../assets/gramgen.0123abcd.js\" defer></script>", "<a href=\"../tags/x/\">#x</a>"]
        for html in good { #expect(OutputSafety.html(html, isPage: false).isEmpty, "\(html)") }
    }

    static func theme() throws -> Theme {
        var diagnostics = Diagnostics()
        let theme = Theme.load(siteRoot: nil, diagnostics: &diagnostics)
        try #require(!diagnostics.hasErrors)
        return theme
    }

    /// Writes a two-user site holding `texts`, loads and renders it; returns every safety problem.
    static func render(_ texts: [String], theme: Theme) throws -> [String] {
        let (caption, bio, name, comment, alt, location, title, description) =
            (texts[0], texts[1], texts[2], texts[3], texts[4], texts[5], texts[6], texts[7])
        let site = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: site) }
        let website = "https://example.com/" + caption.prefix(20)
        try write(site, "content/site.yml", """
            title: \(yaml(title))
            description: \(yaml(description))
            base_url: "https://example.com/photos/"

            """)
        try write(site, "content/users/ann/profile.md", """
            ---
            name: \(yaml(name))
            location: \(yaml(location))
            \(WebLink.isSafe(website) ? "website: \(yaml(website))" : "")
            following: [bob]
            ---
            \(bio)
            """)
        try write(site, "content/users/bob/profile.md", "---\nname: \(yaml(name + "2"))\n---\n")
        try write(site, "content/users/ann/posts/2024-01-01-a/post.md", """
            ---
            location: \(yaml(location))
            images:
              - file: 1.jpg
                alt: \(yaml(alt))
            liked_by: [bob]
            comments:
              - author: bob
                date: 2024-01-02
                text: \(yaml(comment))
            ---
            \(caption)
            """)
        try write(site, "content/users/ann/posts/2024-01-01-a/1.jpg", "stand-in")
        try write(site, "content/users/ann/avatar.jpg", "stand-in")

        var diagnostics = Diagnostics()
        let loaded = ContentLoader(siteRoot: site).load(diagnostics: &diagnostics)
        let errors = diagnostics.items.filter { $0.severity == .error }
        guard let loaded, errors.isEmpty else { return ["the site did not load: \(errors.map(\.description))"] }
        var images: [String: ProcessedImage] = [:]
        for source in loaded.posts.flatMap(\.images) + loaded.users.compactMap(\.avatar) {
            images[source.path] = standIn
        }
        let files = try SiteRenderer(site: loaded, images: images, theme: theme).render()
        return files.flatMap { OutputSafety.problems(path: $0.path, data: $0.contents) }
    }

    static let standIn = ProcessedImage(
        width: 1080, height: 720,
        variants: [ImageVariant(format: .webp, width: 640, height: 427, file: "0123456789abcdef-640.webp"),
                   ImageVariant(format: .jpeg, width: 1080, height: 720, file: "0123456789abcdef-1080.jpg")],
        squares: [ImageVariant(format: .jpeg, width: 480, height: 480, file: "0123456789abcdef-sq.jpg")],
        focusX: 0.5, focusY: 0.5, dominantColor: "#808080", placeholder: "data:image/webp;base64,UklGRg==")

    /// A YAML double-quoted scalar holding exactly `text`: everything YAML would fold or refuse is escaped.
    static func yaml(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || v == 0xFEFF || v >= 0xFFFE && v <= 0xFFFF {
                    out += String(format: "\\u%04X", v)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func write(_ root: URL, _ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-prop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
