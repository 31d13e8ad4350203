/// Turns an Instagram caption (plain text) into a Markdown body that shows exactly the text the
/// person typed: every character Markdown could read as syntax is backslash-escaped (CommonMark
/// lets any ASCII punctuation be escaped), so nothing becomes a list, a heading, emphasis, code, a
/// table, a link or an HTML entity. Hashtags and mentions are left as written so gramgen links
/// them, and line breaks are kept as hard breaks (`\` at the end of a line) because Instagram
/// shows them and Markdown would otherwise join the lines.
///
/// What the page shows is the caption with each line's trailing spaces and leading indentation
/// removed and runs of blank lines made one paragraph break; HTML collapses spaces anyway.
enum CaptionMarkdown {
    static func body(from caption: String) -> String {
        let normalized = caption.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            return escape(String(trimmed))
        }
        var output: [String] = []
        for (index, line) in lines.enumerated() {
            if line.isEmpty {
                if output.last.map({ !$0.isEmpty }) ?? false { output.append("") }
                continue
            }
            let next = lines.dropFirst(index + 1).first
            let continues = next.map { !$0.isEmpty } ?? false
            output.append(continues ? line + "\\" : line)
        }
        while output.last == "" { output.removeLast() }
        return output.joined(separator: "\n")
    }

    /// Characters that are Markdown syntax wherever they stand: emphasis, code, links, images,
    /// raw HTML, entities, tables, strikethrough, and the escape character itself.
    private static let alwaysEscaped: Set<Unicode.Scalar> = ["\\", "`", "*", "_", "[", "]", "<", ">", "&", "|", "~"]

    /// Escapes one line that has no leading or trailing blanks.
    static func escape(_ line: String) -> String {
        var text = ""
        let scalars = Array(line.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "_", isInsideWord(scalars, index) {
                // An intraword `_` never opens or closes emphasis; kept bare so handles like
                // `@ann_lee` and tags like `#summer_2024` read as typed in the source.
                text.unicodeScalars.append(scalar)
            } else if let entity = autolinkBreaker(scalars, index) {
                text += entity
            } else if alwaysEscaped.contains(scalar) {
                text += "\\"
                text.unicodeScalars.append(scalar)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return escapeStart(text)
    }

    /// cmark-gfm's autolink extension reads `www.` and `scheme://` links from the raw text, so an
    /// escape inside one would show as a backslash. Instagram does not link URLs in captions
    /// either: the `w` of `www.` and the `:` of `://` are written as character references, which
    /// show the same text and start no link.
    private static func autolinkBreaker(_ scalars: [Unicode.Scalar], _ index: Int) -> String? {
        func follows(_ text: String) -> Bool {
            let next = scalars[index...].prefix(text.unicodeScalars.count)
            return next.elementsEqual(text.unicodeScalars) { $0.properties.lowercaseMapping == String($1) }
        }
        switch scalars[index] {
        case ":" where follows("://"): return "&#58;"
        case "w" where follows("www."), "W" where follows("www."): return "&#\(scalars[index].value);"
        default: return nil
        }
    }

    private static func isInsideWord(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
        guard index > 0, index + 1 < scalars.count else { return false }
        let isWord = { (s: Unicode.Scalar) in s.properties.isAlphabetic || s.properties.numericType != nil }
        return isWord(scalars[index - 1]) && isWord(scalars[index + 1])
    }

    /// What makes a line a block of its own when it starts it: a heading (`# `), a list item
    /// (`- `, `+ `, `1. `, `1) `; `*` is already escaped), a rule or setext underline (`---`,
    /// `===`), a quote (`>`, already escaped).
    private static func escapeStart(_ text: String) -> String {
        guard let first = text.first else { return text }
        if first == "#" {
            let hashes = text.prefix { $0 == "#" }
            let after = text.dropFirst(hashes.count).first
            if hashes.count <= 6 && (after == nil || after == " " || after == "\t") { return "\\" + text }
        }
        if first == "-" || first == "+" || first == "=" {
            let after = text.dropFirst().first
            // A rule may have tabs between its marks as well as spaces (`---\t-` is one).
            if after == nil || after == " " || after == "\t" || text.allSatisfy({ $0 == first || $0 == " " || $0 == "\t" }) {
                return "\\" + text
            }
        }
        // An ordered list: up to nine digits, then `.` or `)`, then a blank or the end.
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        if (1...9).contains(digits.count) {
            let rest = text.dropFirst(digits.count)
            if let marker = rest.first, marker == "." || marker == ")" {
                let after = rest.dropFirst().first
                if after == nil || after == " " || after == "\t" { return digits + "\\" + rest }
            }
        }
        return text
    }
}
