import Foundation
import Testing
@testable import GramgenCore

struct HandleTests {
    @Test("valid handles", arguments: ["a", "bruce.wayne", "user_01", "x9", String(repeating: "a", count: 30)])
    func valid(_ handle: String) {
        #expect(Handle.problem(with: handle) == nil)
    }

    @Test("invalid handles say why", arguments: [
        ("", "a handle is 1 to 30 characters long"),
        (String(repeating: "a", count: 31), "a handle is 1 to 30 characters long"),
        ("Bruce", "a handle may only use lower-case letters a–z, digits, '.' and '_'"),
        ("bruce wayne", "a handle may only use lower-case letters a–z, digits, '.' and '_'"),
        ("café", "a handle may only use lower-case letters a–z, digits, '.' and '_'"),
        // Lengths count characters, not bytes: 20 and 31 two-byte letters.
        (String(repeating: "é", count: 20), "a handle may only use lower-case letters a–z, digits, '.' and '_'"),
        (String(repeating: "é", count: 31), "a handle is 1 to 30 characters long"),
        (".bruce", "a handle may not start or end with '.'"),
        ("bruce.", "a handle may not start or end with '.'"),
        ("bru..ce", "a handle may not contain '..'"),
        ("tags", "'tags' is reserved for the site's own pages"),
        ("explore", "'explore' is reserved for the site's own pages"),
        ("p", "'p' is reserved for the site's own pages"),
    ])
    func invalid(_ handle: String, _ problem: String) {
        #expect(Handle.problem(with: handle) == problem)
    }

    @Test("the byte check of valid handles gives the rule's answer on the examples and on random names")
    func isValidAgrees() {
        let examples = ["a", "bruce.wayne", "user_01", String(repeating: "a", count: 30), "", String(repeating: "a", count: 31),
                        "Bruce", "café", String(repeating: "é", count: 20), ".bruce", "bruce.", "bru..ce", "tags", "p", "a\u{0}b", "a/b"]
        for name in examples { #expect(Handle.problem(with: name) == Handle.problemByCharacters(with: name), "\(name)") }
        // Names from an alphabet around the rule's edges: allowed bytes, '.', a capital, a space,
        // two-byte letters and a reserved word's letters, 0 to 32 long.
        var random = SeededRandom.forTest("isValidAgrees")
        let alphabet: [String] = ["a", "z", "0", "9", "_", ".", ".", "A", " ", "é", "ß", "t", "g", "s", "p", "/"]
        for _ in 0..<20_000 {
            let name = (0..<Int.random(in: 0...32, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
            #expect(Handle.problem(with: name) == Handle.problemByCharacters(with: name), "\(name)")
        }
    }

    @Test("every reserved output path of the spec is reserved")
    func reserved() {
        #expect(Handle.reserved.isSuperset(of: ["tags", "explore", "page", "p", "media", "assets", "search", "static", "feed", "about"]))
        // And what the output's root holds beside the users' folders: each a valid name otherwise.
        let rootFiles = ["index.html", "404.html", "sitemap.xml", "feed.xml", "feed.json", "manifest.webmanifest", "sw.js", "favicon.ico", "icons"]
        #expect(Handle.reserved.subtracting(rootFiles).count == 10)
        for name in rootFiles { #expect(Handle.problem(with: name) == "'\(name)' is reserved for the site's own pages") }
    }
}

struct TagKeyTests {
    @Test("tags group case-insensitively after NFC", arguments: [
        ("Seoul", "seoul"), ("SEOUL", "seoul"), ("Café", "café"), ("Cafe\u{301}", "café"), ("서울", "서울"),
        ("Crème_Brûlée", "crème_brûlée"),
    ])
    func key(_ tag: String, _ key: String) {
        #expect(TagKey.key(for: tag) == key)
        #expect(TagKey.key(for: tag).unicodeScalars.elementsEqual(key.precomposedStringWithCanonicalMapping.unicodeScalars))
    }

    @Test("tags group after NFKC, case folding and removal of default-ignorables", arguments: [
        ("ＳＥＯＵＬ", "seoul"), ("seoul\u{FE0F}", "seoul"), ("Se\u{200B}oul", "seoul"), ("Stra\u{DF}e", "strasse"),
        ("STRASSE", "strasse"), ("\u{1E9E}", "ss"), ("ΟΔΟΣ", "οδοσ"), ("οδος", "οδοσ"), ("ﬁsh", "fish"),
        ("\u{3131}\u{314F}", "\u{1100}\u{1161}"), ("ｶﾌｪ", "カフェ"), ("café\u{FE0F}", "café"), ("x\u{AD}y", "xy"),
    ])
    func folded(_ tag: String, _ key: String) {
        #expect(TagKey.key(for: tag) == key)
    }

    @Test("a key too long for a file name gets a short folder name with a hash; links use it too")
    func longKeys() {
        let long = String(repeating: "가", count: 90), longer = long + "나"
        let folder = TagKey.folderName(for: long)
        #expect(long.utf8.count == 270 && folder.utf8.count <= 200)
        #expect(folder.hasPrefix(String(repeating: "가", count: 60) + "-"))
        #expect(folder != TagKey.folderName(for: longer))
        #expect(TagKey.folderName(for: folder) == folder)
        #expect(TagKey.urlComponent(for: long).removingPercentEncoding == folder)
        #expect(TagKey.folderName(for: "서울") == "서울")
    }

    @Test("keys are percent-encoded for links")
    func encoded() {
        #expect(TagKey.urlComponent(for: "서울") == "%EC%84%9C%EC%9A%B8")
        #expect(TagKey.urlComponent(for: "café") == "caf%C3%A9")
        #expect(TagKey.urlComponent(for: "summer_2024") == "summer_2024")
    }
}

struct DiagnosticTests {
    @Test("a diagnostic reads path:line:col: severity: what — how")
    func format() {
        let d = Diagnostic.error(SourceLocation("content/a.md", line: 3, column: 5), "bad thing", hint: "fix it")
        #expect(d.description == "content/a.md:3:5: error: bad thing — fix it")
        #expect(Diagnostic.warning(SourceLocation("x"), "w").description == "x: warning: w")
    }

    @Test("--strict turns warnings into errors")
    func strict() {
        var all = Diagnostics()
        all.warning(SourceLocation("a"), "w")
        #expect(!all.hasErrors)
        #expect(all.escalatingWarnings().hasErrors)
    }
}

struct InternalLinkTests {
    @Test("marked internal links take the page's root; other text is untouched", arguments: [
        ("<a href=\"gramgen:/tags/x/\">#x</a>", "../../", "<a href=\"../../tags/x/\">#x</a>"),
        ("a <a href=\"gramgen:/bob/\">@bob</a> and <a href=\"gramgen:/tags/%C3%A9/\">#é</a> ✓", "./",
         "a <a href=\"./bob/\">@bob</a> and <a href=\"./tags/%C3%A9/\">#é</a> ✓"),
        ("no links, gramgen:/ in text", "../", "no links, gramgen:/ in text"),
        ("<a href=\"https://x.com/\">x</a>", "../", "<a href=\"https://x.com/\">x</a>"),
        ("", "../", ""),
    ])
    func resolve(_ html: String, _ root: String, _ expected: String) {
        #expect(InternalLink.resolve(html, root: root) == expected)
    }
}

struct MediaTypeTests {
    /// The type by characters, as `MediaType(fileName:)` found it before it looked at bytes.
    private static func byCharacters(_ name: String) -> MediaType? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return MediaType(fileExtension: String(name[name.index(after: dot)...]))
    }

    @Test("a file's type found among its name's bytes is the one found among its characters")
    func byBytesAgrees() {
        let examples = ["a.jpg", "A.JPG", "clip.MOV", "clip.webm", ".jpg", "jpg", "", "a.", "a.b.mp4", "x.\u{301}jpg",
                        "café.jpeg", "a.jpg\u{301}", "photo.tiff", "notes.md", "a..png", "é.é.avif", "📷.heic"]
        for name in examples { #expect(MediaType(fileName: name) == Self.byCharacters(name), "\(name)") }
        #expect(MediaType(fileName: "A.JPG") == .photo)
        #expect(MediaType(fileName: "clip.MOV") == .video)
        #expect(MediaType(fileName: ".jpg") == nil)
        // Names from an alphabet of dots, extension letters, a combining mark and multi-byte letters.
        var random = SeededRandom.forTest("byBytesAgrees")
        let alphabet: [String] = [".", ".", "j", "p", "g", "m", "o", "v", "4", "J", "P", "G", "\u{301}", "é", "ß", "a"]
        for _ in 0..<20_000 {
            let name = (0..<Int.random(in: 0...10, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
            #expect(MediaType(fileName: name) == Self.byCharacters(name), "\(name)")
        }
    }
}
