import Foundation

/// Finds every local link (`href`, `src`, `srcset`) in a built site's pages that points nowhere.
enum LinkChecker {
    static func brokenLinks(in root: URL) -> [String] {
        var broken: [String] = []
        for page in TestSupport.files(in: root) where page.hasSuffix(".html") {
            guard let html = try? String(contentsOf: root.appendingPathComponent(page), encoding: .utf8) else { continue }
            let folder = (page as NSString).deletingLastPathComponent
            for target in links(in: html) where !isExternal(target) {
                if page == "404.html" { continue } // served at any depth; its links are absolute paths
                // The page a link opens: without its #fragment or ?query (`search/?q=…`).
                let path = target.split(whereSeparator: { $0 == "#" || $0 == "?" }).first.map(String.init) ?? ""
                if target.hasPrefix("#") || target.hasPrefix("?") { continue }
                if path.isEmpty { continue }
                let decoded = path.removingPercentEncoding ?? path
                var resolved = URL(fileURLWithPath: root.path + "/" + folder + "/" + decoded).standardizedFileURL.path
                if decoded.hasSuffix("/") || decoded == "." || decoded == "./" { resolved += "/index.html" }
                if !FileManager.default.fileExists(atPath: resolved) {
                    broken.append("\(page) → \(target)")
                }
            }
        }
        return broken
    }

    static func links(in html: String) -> [String] {
        var result: [String] = []
        for attribute in ["href", "src", "srcset"] {
            let pattern = " \(attribute)=\""
            var rest = html[...]
            while let start = rest.range(of: pattern) {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                let value = String(rest[..<end])
                if attribute == "srcset" {
                    result += value.split(separator: ",").compactMap {
                        $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init)
                    }
                } else {
                    result.append(value.replacingOccurrences(of: "&amp;", with: "&"))
                }
                rest = rest[end...]
            }
        }
        return result
    }

    static func isExternal(_ link: String) -> Bool {
        link.hasPrefix("http://") || link.hasPrefix("https://") || link.hasPrefix("mailto:") || link.hasPrefix("data:")
            || link.hasPrefix("#")
    }
}
