/// Turns an Instagram caption (plain text) into a Markdown body that shows the same text.
/// Hashtags and mentions are left exactly as written so gramgen links them; only what Markdown
/// would swallow or restyle is escaped, and line breaks are kept as hard breaks (`\` at the end
/// of a line) because Instagram shows them and Markdown would otherwise join the lines.
enum CaptionMarkdown {
    static func body(from caption: String) -> String {
        let normalized = caption.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let trimmed = String(line.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            return trimmed.allSatisfy(\.isWhitespace) ? "" : escape(trimmed)
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

    /// Escapes one line: backslashes and HTML-like `<` anywhere; at the start, what would make
    /// the line a heading, a rule or a setext underline, or indented code.
    static func escape(_ line: String) -> String {
        var text = ""
        let scalars = Array(line.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case "\\":
                text += "\\\\"
            case "<" where next.map { $0.properties.isAlphabetic || $0 == "/" || $0 == "!" || $0 == "?" } ?? false:
                text += "\\<"
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        // Up to three leading spaces are ignored by Markdown; four or more make a code block.
        let indent = text.prefix { $0 == " " }
        var rest = String(text.dropFirst(indent.count))
        if indent.count >= 4 { return rest.isEmpty ? "" : escapeStart(rest) }
        rest = escapeStart(rest)
        return String(indent) + rest
    }

    private static func escapeStart(_ text: String) -> String {
        guard let first = text.first else { return text }
        // `# heading`, `#` alone (an empty heading); `#tag` stays a hashtag.
        if first == "#" {
            let hashes = text.prefix { $0 == "#" }
            let after = text.dropFirst(hashes.count).first
            if hashes.count <= 6 && (after == nil || after == " " || after == "\t") { return "\\" + text }
        }
        // `---`, `===`, `***`, `___` (with spaces) are rules or underline the line above.
        if "-=*_".contains(first), text.allSatisfy({ $0 == first || $0 == " " }) { return "\\" + text }
        if first == ">" { return "\\" + text }
        return text
    }
}
