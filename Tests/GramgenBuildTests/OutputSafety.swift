import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a built site the way a browser or feed reader would and lists anything that could run
/// script: a `<script>` other than the theme's own, an `on…=` attribute, a `javascript:`,
/// `vbscript:` or `data:` (other than an image) URL, an attribute whose name is not a plain name
/// (what a value broken out of its quotes leaves behind), a feed that is not well-formed.
enum OutputSafety {
    /// Every problem in the files of an output folder (HTML, JSON Feed, Atom, sitemap).
    static func problems(inFolder root: URL) -> [String] {
        TestSupport.files(in: root).flatMap { path -> [String] in
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
                return ["\(path): unreadable"]
            }
            return problems(path: path, data: data)
        }
    }

    static func problems(path: String, data: Data) -> [String] {
        let problems: [String]
        if path.hasSuffix(".html") {
            problems = html(String(decoding: data, as: UTF8.self), isPage: true, isSearchPage: path == "search/index.html")
        } else if path.hasSuffix(".json") {
            problems = json(data)
        } else if path.hasSuffix(".xml") {
            problems = xml(data)
        } else {
            problems = []
        }
        return problems.map { "\(path): \($0)" }
    }

    // MARK: HTML

    /// The theme's script tag, the only one a page may have.
    private static let themeScript = try! NSRegularExpression(pattern: #"^(\./|(\.\./)*|/([^"]*/)?)assets/gramgen\.[0-9a-f]+\.js$"#)
    /// The search page's own script, form and `<noscript>` (no user text reaches that page).
    private static let searchScript = try! NSRegularExpression(pattern: #"^\.\./assets/search\.[0-9a-f]+\.js$"#)
    private static let attributeName = try! NSRegularExpression(pattern: "^[a-z][a-z0-9_-]*$")
    private static let urlAttributes: Set<String> = ["href", "src", "action", "formaction", "poster", "cite", "background",
                                                     "xlink:href", "data", "codebase", "manifest", "ping"]
    private static let forbiddenTags: Set<String> = ["iframe", "object", "embed", "applet", "frame", "frameset", "base",
                                                     "form", "svg", "math", "style", "xmp", "plaintext", "noscript"]
    private static let rawTextTags: Set<String> = ["script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                                                   "noframes", "noscript"]

    static func html(_ text: String, isPage: Bool, isSearchPage: Bool = false) -> [String] {
        var problems: [String] = []
        let s = Array(text.unicodeScalars)
        var i = 0
        func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }
        func isSpace(_ c: Unicode.Scalar?) -> Bool { c.map { " \t\n\r\u{0C}".unicodeScalars.contains($0) } ?? false }
        func isAlpha(_ c: Unicode.Scalar?) -> Bool { c.map { $0.isASCII && ($0.properties.isAlphabetic) } ?? false }
        func lower(_ c: Unicode.Scalar) -> Unicode.Scalar { (65...90).contains(c.value) ? Unicode.Scalar(c.value + 32)! : c }
        func skip(past needle: String) {
            let n = Array(needle.unicodeScalars)
            while i < s.count {
                var k = 0
                while k < n.count, i + k < s.count, lower(s[i + k]) == n[k] { k += 1 }
                if k == n.count { i += n.count; return }
                i += 1
            }
        }
        while i < s.count {
            guard s[i] == "<" else { i += 1; continue }
            if at(i + 1) == "!" {
                if at(i + 2) == "-" && at(i + 3) == "-" { i += 4; skip(past: "-->") } else { skip(past: ">") }
                continue
            }
            if at(i + 1) == "/" && isAlpha(at(i + 2)) { skip(past: ">"); continue }
            guard isAlpha(at(i + 1)) else { i += 1; continue }
            i += 1
            var name = ""
            while let c = at(i), !isSpace(c), c != "/", c != ">" { name.unicodeScalars.append(c); i += 1 }
            name = name.lowercased()
            var attributes: [(String, String)] = []
            while i < s.count {
                while isSpace(at(i)) || at(i) == "/" { i += 1 }
                if at(i) == ">" || at(i) == nil { i += 1; break }
                var attribute = ""
                repeat { attribute.unicodeScalars.append(s[i]); i += 1 } while at(i).map { !isSpace($0) && $0 != "/" && $0 != ">" && $0 != "=" } ?? false
                while isSpace(at(i)) { i += 1 }
                var value = ""
                if at(i) == "=" {
                    i += 1
                    while isSpace(at(i)) { i += 1 }
                    if let quote = at(i), quote == "\"" || quote == "'" {
                        i += 1
                        while let c = at(i), c != quote { value.unicodeScalars.append(c); i += 1 }
                        i += 1
                        if let c = at(i), !isSpace(c), c != "/", c != ">" {
                            problems.append("<\(name)>: no space after the value of \(attribute) (broken out of its quotes?)")
                        }
                    } else {
                        while let c = at(i), !isSpace(c), c != ">" { value.unicodeScalars.append(c); i += 1 }
                    }
                }
                attributes.append((attribute.lowercased(), decodeEntities(value)))
            }
            problems += check(tag: name, attributes: attributes, isSearchPage: isSearchPage)
            if rawTextTags.contains(name) { skip(past: "</\(name)") }
        }
        return problems
    }

    private static func check(tag: String, attributes: [(String, String)], isSearchPage: Bool) -> [String] {
        var problems: [String] = []
        let names = attributes.map(\.0)
        if Set(names).count != names.count { problems.append("<\(tag)>: an attribute appears twice: \(names)") }
        if forbiddenTags.contains(tag) && !(isSearchPage && (tag == "form" || tag == "noscript")) {
            problems.append("<\(tag)> element")
        }
        if tag == "script" {
            let src = attributes.first { $0.0 == "src" }?.1 ?? ""
            if names.sorted() != ["defer", "src"] || !(matches(themeScript, src) || (isSearchPage && matches(searchScript, src))) {
                problems.append("<script> that is not the theme's: \(attributes)")
            }
        }
        if tag == "meta", attributes.contains(where: { $0.0 == "http-equiv" }) { problems.append("<meta http-equiv>") }
        for (name, value) in attributes {
            if !matches(attributeName, name) { problems.append("<\(tag)>: odd attribute name \(name.debugDescription)") }
            if name.hasPrefix("on") { problems.append("<\(tag)>: event handler \(name)=\(value.debugDescription)") }
            if urlAttributes.contains(name), let scheme = dangerousScheme(value) {
                problems.append("<\(tag)>: \(scheme) URL in \(name): \(value.debugDescription)")
            }
            if name == "srcset" {
                for candidate in value.split(separator: ",") {
                    if let scheme = dangerousScheme(candidate.trimmingCharacters(in: .whitespaces)) {
                        problems.append("<\(tag)>: \(scheme) URL in srcset")
                    }
                }
            }
            if name == "style" {
                let lower = value.lowercased()
                let urls = lower.components(separatedBy: "url(").dropFirst()
                if lower.contains("expression(") || lower.contains("javascript:")
                    || urls.contains(where: { !$0.hasPrefix("data:image/webp;base64,") && !$0.hasPrefix("data:image/png;base64,") }) {
                    problems.append("<\(tag)>: style with a foreign URL: \(value.prefix(120).debugDescription)")
                }
            }
        }
        return problems
    }

    /// The scheme of a URL a browser would run or render as a document, after the clean-up browsers do.
    static func dangerousScheme(_ url: String) -> String? {
        let cleaned = String(String.UnicodeScalarView(url.unicodeScalars.filter { $0.value > 0x20 })).lowercased()
        for scheme in ["javascript:", "vbscript:", "livescript:"] where cleaned.hasPrefix(scheme) { return scheme }
        if cleaned.hasPrefix("data:") {
            let images = ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"]
            return images.contains(where: { cleaned.hasPrefix($0) }) ? nil : "data:"
        }
        return nil
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let semi = rest.prefix(12).firstIndex(of: ";") else { out += "&"; rest = rest.dropFirst(); continue }
            let entity = rest[rest.index(after: rest.startIndex)..<semi]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "colon": ":", "Tab": "\t", "NewLine": "\n"]
            var decoded: String?
            if let value = named[String(entity)] {
                decoded = value
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let n = UInt32(entity.dropFirst(2), radix: 16) {
                decoded = Unicode.Scalar(n).map { String($0) }
            } else if entity.hasPrefix("#"), let n = UInt32(entity.dropFirst()) {
                decoded = Unicode.Scalar(n).map { String($0) }
            }
            if let decoded {
                out += decoded
                rest = rest[rest.index(after: semi)...]
            } else {
                out += "&"
                rest = rest.dropFirst()
            }
        }
        return out + rest
    }

    private static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    // MARK: Feeds

    /// JSON Feed: valid JSON, `content_html` safe as HTML, every URL field http(s).
    static func json(_ data: Data) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: data) else { return ["not valid JSON"] }
        var problems: [String] = []
        func walk(_ value: Any, key: String) {
            if let dictionary = value as? [String: Any] {
                for (k, v) in dictionary { walk(v, key: k) }
            } else if let array = value as? [Any] {
                for v in array { walk(v, key: key) }
            } else if let string = value as? String {
                if key == "content_html" { problems += html(string, isPage: false).map { "content_html: \($0)" } }
                if ["url", "image", "home_page_url", "feed_url", "next_url", "avatar", "id"].contains(key),
                   !(string.hasPrefix("https://") || string.hasPrefix("http://")) {
                    problems.append("\(key) is not an http(s) URL: \(string.debugDescription)")
                }
            }
        }
        walk(object, key: "")
        return problems
    }

    /// Atom and sitemap: well-formed XML; Atom's `content` safe as HTML.
    static func xml(_ data: Data) -> [String] {
        let collector = XMLCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        guard parser.parse() else { return ["not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")"] }
        return collector.contents.flatMap { html($0, isPage: false).map { "<content>: \($0)" } }
            + collector.hrefs.compactMap { href in
                href.hasPrefix("http://") || href.hasPrefix("https://") ? nil : "link href is not http(s): \(href)"
            }
    }

    private final class XMLCollector: NSObject, XMLParserDelegate {
        var contents: [String] = []
        var hrefs: [String] = []
        private var current: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "content" { current = "" }
            if name == "link", let href = attributes["href"] { hrefs.append(href) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "content", let text = current { contents.append(text) }
            if name == "content" { current = nil }
        }
    }
}
