import Foundation
import GramgenCore

/// The templates and assets pages are drawn with: the built-in default theme, with any file of the
/// same name in the site's `templates/` taking its place.
public struct Theme: Sendable {
    /// A theme file as loaded, with where it came from (for messages).
    struct File: Sendable {
        var name: String
        var text: String
        var origin: String
    }

    let renderer: TemplateRenderer
    /// Asset name (e.g. `style.css`) → published path with a content hash (`assets/style.1a2b3c4d.css`).
    let assetPaths: [String: String]
    let assets: [OutputFile]
    /// `sw.js`: published at the root (a service worker serves only the folder it is in), not
    /// with the hashed assets; `WebApp` decides whether.
    let serviceWorker: String?
    /// A template other than the hashtags index reads a field named `count` or `countText`, as a
    /// post's hashtag links have (their post counts): then a post's pages change with the counts
    /// of its hashtags. The built-in theme shows counts on the index only, so a caption edit that
    /// adds or drops a popular hashtag does not redraw the thousands of pages of its other posts.
    let showsTagCounts: Bool
    /// The files it was made from (name → origin and text), and what making them reported: a
    /// theme made from the same files is this one (`load(siteRoot:diagnostics:reusing:)`).
    private var sources: [String: String] = [:]
    private var madeWith: [Diagnostic] = []
    /// A digest of the files as read (names, origins and texts): what every page depends on of
    /// the theme (`InputDigests`), without reading `templates/` a second time.
    public private(set) var filesDigest: UInt64 = 0
    /// Taken from the build before, not made again.
    public private(set) var reused = false

    /// Changes whenever the built-in theme does, so a new gramgen never reuses an old build.
    public static let builtInDigest: String = ContentHash.hex(
        Data(DefaultTheme.files.sorted { $0.key < $1.key }.map { $0.key + "\u{0}" + $0.value }.joined(separator: "\u{0}").utf8))

    /// A template or theme asset larger than this is refused before it is read.
    static let maxTemplateBytes = 1024 * 1024

    /// Loads the theme; a template that does not parse is reported with its file, line and column.
    /// `last`: the theme a build before made (`gramgen serve`); when the files read are the ones
    /// it was made from, it is the theme again, with the same warnings, and nothing is parsed.
    public static func load(siteRoot: URL?, diagnostics: inout Diagnostics, reusing last: Theme? = nil) -> Theme {
        var read = Diagnostics()
        let files = Self.files(siteRoot: siteRoot, diagnostics: &read)
        diagnostics.append(contentsOf: read.items)
        // Where each came from too: a warning names the file.
        let sources = files.mapValues { $0.origin + "\u{0}" + $0.text }
        if let last, read.items.isEmpty, last.sources == sources {
            diagnostics.append(contentsOf: last.madeWith)
            var again = last
            again.reused = true
            return again
        }
        var made = Diagnostics()
        var theme = make(files, diagnostics: &made)
        diagnostics.append(contentsOf: made.items)
        if read.items.isEmpty { (theme.sources, theme.madeWith) = (sources, made.items) }
        var digest = DigestBuilder()
        for name in sources.keys.sorted() {
            digest.add(name)
            digest.add(sources[name] ?? "")
        }
        theme.filesDigest = digest.value
        return theme
    }

    /// The built-in files, with the site's `templates/` in their place.
    private static func files(siteRoot: URL?, diagnostics: inout Diagnostics) -> [String: File] {
        var files: [String: File] = [:]
        for (name, text) in DefaultTheme.files { files[name] = File(name: name, text: text, origin: "(built-in) \(name)") }
        if let siteRoot {
            let folder = siteRoot.appendingPathComponent("templates")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name)
                guard FileContainment.isInside(url, folder) else {
                    diagnostics.error(SourceLocation("templates/\(name)"), "the file is a link to a file outside templates/",
                                      hint: "copy the file here instead of linking to it")
                    continue
                }
                let data: Data
                switch InputFile.read(atPath: url.path, limit: maxTemplateBytes) {
                case .success(let bytes): data = bytes
                case .failure(.folder): continue
                case .failure(let failure):
                    diagnostics.error(SourceLocation("templates/\(name)"), failure.message, hint: failure.hint)
                    continue
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    diagnostics.error(SourceLocation("templates/\(name)"), "the template is not valid UTF-8",
                                      hint: "save it as UTF-8")
                    continue
                }
                files[name] = File(name: name, text: text, origin: "templates/\(name)")
            }
        }
        return files
    }

    private static func make(_ files: [String: File], diagnostics: inout Diagnostics) -> Theme {
        var templates: [String: CompiledTemplate] = [:]
        var assetPaths: [String: String] = [:]
        var assets: [OutputFile] = []
        var serviceWorker: String?
        for file in files.values.sorted(by: { $0.name < $1.name }) {
            if file.name.hasSuffix(".mustache") {
                do {
                    // Templates are indented for their readers; visitors get the pages without
                    // (docs/templates.md says so, for a theme that wants a `<pre>`).
                    templates[String(file.name.dropLast(".mustache".count))] = try TemplateParser(Self.withoutIndentation(file.text)).parse()
                } catch {
                    diagnostics.error(SourceLocation(file.origin, line: error.line, column: error.column),
                                      "the template does not parse: \(error.message)", hint: error.hint)
                }
            } else if file.name == WebApp.serviceWorker {
                serviceWorker = Self.withoutComments(file.text, ext: "js")
            } else {
                let ext = (file.name as NSString).pathExtension
                let data = Data(Self.withoutComments(file.text, ext: ext).utf8)
                let base = (file.name as NSString).deletingPathExtension
                let path = "assets/\(base).\(ContentHash.hex(data).prefix(10)).\(ext)"
                assetPaths[file.name] = path
                assets.append(OutputFile(path: path, contents: data))
            }
        }
        for (name, template) in templates.sorted(by: { $0.key < $1.key }) {
            let origin = files[name + ".mustache"]?.origin ?? name
            for (partial, line) in template.partials where templates[partial] == nil {
                if partial.contains("/") {
                    diagnostics.warning(SourceLocation(origin, line: line), "{{> \(partial)}}: partials in subfolders are not supported, so it draws nothing",
                                        hint: "put \((partial as NSString).lastPathComponent).mustache directly in templates/ and write {{> \((partial as NSString).lastPathComponent)}}")
                } else {
                    diagnostics.warning(SourceLocation(origin, line: line), "{{> \(partial)}}: there is no template \(partial).mustache, so it draws nothing",
                                        hint: "check the name, or add templates/\(partial).mustache")
                }
            }
        }
        for cycle in PartialCycles.find(in: templates) {
            let origin = files[cycle[0] + ".mustache"]?.origin ?? cycle[0]
            diagnostics.error(SourceLocation(origin), "the template includes itself through partials: \(cycle.joined(separator: " → "))",
                              hint: "remove one of these partial tags; templates may not include themselves")
            for name in cycle { templates[name] = nil }
        }
        let showsTagCounts = templates.contains { name, template in
            name != "tags" && !template.fieldNames.isDisjoint(with: ["count", "countText"])
        }
        return Theme(renderer: TemplateRenderer(templates: templates), assetPaths: assetPaths, assets: assets,
                     serviceWorker: serviceWorker, showsTagCounts: showsTagCounts)
    }

    /// Each line without its leading spaces and tabs (lines stay where they are, so messages about a
    /// template still give the right line).
    static func withoutIndentation(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var lineStart = true
        for byte in text.utf8 {
            if lineStart, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
            lineStart = byte == UInt8(ascii: "\n")
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A stylesheet without its `/* comments */` and the spaces around `{ } ; , >`, and a script
    /// without its whole-line `// comments` and indentation (unless it has template literals, where
    /// indentation is text): they are for the theme's readers, not its visitors (about 7 KB of the
    /// home page's 60 KB budget). Text inside quotes is left alone. Every theme file is made so at
    /// every build; a byte at a time (the markers are ASCII, so UTF-8 stays whole), as Unicode
    /// scalars it was 2% of a caption edit's CPU at 10,000 posts.
    static func withoutComments(_ text: String, ext: String) -> String {
        switch ext.lowercased() {
        case "css":
            let source = Array(text.utf8)
            var out: [UInt8] = []
            out.reserveCapacity(source.count)
            var quote: UInt8?
            var at = 0
            while at < source.count {
                let byte = source[at]
                at += 1
                if let open = quote {
                    out.append(byte)
                    if byte == UInt8(ascii: "\\"), at < source.count {
                        out.append(source[at])
                        at += 1
                    } else if byte == open {
                        quote = nil
                    }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                    out.append(byte)
                } else if byte == UInt8(ascii: "/"), at < source.count, source[at] == UInt8(ascii: "*") {
                    at += 1
                    while at < source.count, !(source[at] == UInt8(ascii: "*") && at + 1 < source.count && source[at + 1] == UInt8(ascii: "/")) {
                        at += 1
                    }
                    at += 2
                } else {
                    out.append(byte)
                }
            }
            return String(decoding: withoutSpaces(out), as: UTF8.self)
        case "js":
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.drop(while: \.isWhitespace).hasPrefix("//") }.joined(separator: "\n")
            return lines.contains("`") ? lines : withoutIndentation(lines)
        default:
            return text
        }
    }

    /// CSS with every run of white space outside quotes made one space, and none beside `{ } ; , >`
    /// or after `:` (where CSS never needs one), nor a `;` before `}`; a line break ends each rule.
    /// White space as CSS has it: space, tab, line feed, carriage return and form feed.
    private static func withoutSpaces(_ css: [UInt8]) -> [UInt8] {
        func isTight(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",")
                || byte == UInt8(ascii: ">")
        }
        var out: [UInt8] = []
        out.reserveCapacity(css.count)
        var quote: UInt8?
        var pendingSpace = false
        for byte in css {
            if let open = quote {
                out.append(byte)
                if byte == open && (out.count < 2 || out[out.count - 2] != UInt8(ascii: "\\")) { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                pendingSpace = true
                continue
            default:
                break
            }
            // (After a colon too: `a: b` is a declaration, and a selector never has `: `.)
            if pendingSpace, let last = out.last, !isTight(last), last != UInt8(ascii: ":"), last != UInt8(ascii: "\n"), !isTight(byte) {
                out.append(UInt8(ascii: " "))
            }
            pendingSpace = false
            if byte == UInt8(ascii: "}"), out.last == UInt8(ascii: ";") { out.removeLast() }
            out.append(byte)
            if byte == UInt8(ascii: "}") { out.append(UInt8(ascii: "\n")) }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
        }
        return out
    }

    /// What is wrong with the site's language or its own texts (`content/i18n/<language>.yml`).
    public static func languageProblems(_ config: SiteConfig) -> [Diagnostic] { Messages.problems(in: config) }

    /// Renders a page at the end of `out`; a missing template is a theme error.
    func render(_ name: String, _ page: PageView, into out: PageBytes, memo: FragmentMemo? = nil) throws {
        guard renderer.render(name, .object(page), root: page.root, memo: memo, into: out) else {
            throw ThemeError(message: "the theme has no template '\(name).mustache'")
        }
    }
}

public struct ThemeError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
