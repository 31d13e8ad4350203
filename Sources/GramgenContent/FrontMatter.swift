import GramgenCore
import Yams

/// A Markdown file split into its YAML front matter (composed, with line numbers) and its body.
struct FrontMatter {
    var fields: FrontMatterFields
    var body: String
    /// 1-based line of the file on which the body starts, to report caption problems by file line.
    var bodyFirstLine: Int

    /// Reads `---\n yaml \n---\n body`. A file without front matter is all body.
    static func parse(_ text: String, path: String, diagnostics: inout Diagnostics) -> FrontMatter? {
        guard let parts = split(text) else { return parseLines(text, path: path, diagnostics: &diagnostics) }
        guard let yaml = parts.yaml else {
            let empty = FrontMatterFields(mapping: nil, path: path, lineOffset: 0)
            return FrontMatter(fields: empty, body: text, bodyFirstLine: 1)
        }
        guard let end = parts.closingLine else {
            diagnostics.error(SourceLocation(path, line: 1), "the front matter is not closed",
                              hint: "add a line with just `---` after the YAML block")
            return nil
        }
        if let mapping = SimpleFrontMatter.compose(yaml) {
            return FrontMatter(fields: FrontMatterFields(mapping: mapping, path: path, lineOffset: 1),
                               body: parts.body, bodyFirstLine: end + 2)
        }
        return compose(yaml, body: parts.body, closingLine: end, path: path, diagnostics: &diagnostics)
    }

    /// The parts of a text without carriage returns, found by one pass over its bytes: `parseLines`
    /// splits at `\n` Characters, which for such a text are exactly the `\n` bytes, and joins the
    /// lines back with `\n`, which gives the text between them.
    /// - Returns: nil when the text has a carriage return; `yaml` nil when it has no front matter;
    ///   `closingLine` nil when the front matter is not closed.
    private static func split(_ text: String) -> (yaml: String?, closingLine: Int?, body: String)? {
        let bytes = text.utf8
        guard !bytes.contains(UInt8(ascii: "\r")) else { return nil }
        var lineStart = bytes.startIndex
        var line = 0
        var yamlStart: String.Index?
        while true {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let isMarker = isDashes(bytes[lineStart..<lineEnd])
            let next = lineEnd < bytes.endIndex ? bytes.index(after: lineEnd) : nil
            if line == 0 {
                guard isMarker else { return (nil, nil, text) }
                guard let next else { return ("", nil, "") }
                yamlStart = next
            } else if isMarker, let yamlStart {
                let yaml = line == 1 ? "" : String(text[yamlStart..<bytes.index(before: lineStart)])
                return (yaml, line, next.map { String(text[$0...]) } ?? "")
            }
            guard let next else { return ("", nil, "") }
            lineStart = next
            line += 1
        }
    }

    /// `---` and nothing but spaces and tabs after it.
    private static func isDashes(_ line: Substring.UTF8View) -> Bool {
        line.starts(with: "---".utf8)
            && line.dropFirst(3).allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    private static func parseLines(_ text: String, path: String, diagnostics: inout Diagnostics) -> FrontMatter? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.first.map({ $0.hasSuffix("\r") }) == true {
            lines = lines.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        }
        guard let first = lines.first, first.trimmingTrailingSpaces == "---" else {
            let empty = FrontMatterFields(mapping: nil, path: path, lineOffset: 0)
            return FrontMatter(fields: empty, body: lines.joined(separator: "\n"), bodyFirstLine: 1)
        }
        guard let end = lines.dropFirst().firstIndex(where: { $0.trimmingTrailingSpaces == "---" }) else {
            diagnostics.error(SourceLocation(path, line: 1), "the front matter is not closed",
                              hint: "add a line with just `---` after the YAML block")
            return nil
        }
        let yaml = lines[1..<end].joined(separator: "\n")
        let body = lines[(end + 1)...].joined(separator: "\n")
        return compose(yaml, body: body, closingLine: end, path: path, diagnostics: &diagnostics)
    }

    private static func compose(_ yaml: String, body: String, closingLine end: Int, path: String,
                                diagnostics: inout Diagnostics) -> FrontMatter? {
        let lineMap = YAMLLineMap(yaml)
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml, .default, .default, YAMLEncoding.default)
        } catch {
            diagnostics.append(YAMLErrorDescriber.diagnostic(for: error, path: path, lineOffset: 1, lineMap: lineMap))
            return nil
        }
        var mapping: Node.Mapping?
        if let node {
            guard let m = node.mapping else {
                diagnostics.error(SourceLocation(path, line: 2), "the front matter is not a list of `key: value` lines",
                                  hint: "write one `key: value` per line between the `---` lines")
                return nil
            }
            mapping = m
        }
        return FrontMatter(fields: FrontMatterFields(mapping: mapping, path: path, lineOffset: 1, lineMap: lineMap),
                           body: body, bodyFirstLine: end + 2 + lineMap.loneCarriageReturns)
    }
}

/// `Parser.Encoding.default` reads the whole process environment on every use (it honours
/// `YAMS_DEFAULT_ENCODING`); the environment does not change during a build, so read it once.
enum YAMLEncoding {
    static let `default` = Parser.Encoding.default
}

extension Substring {
    var trimmingTrailingSpaces: Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}
