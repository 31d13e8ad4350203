/// Markdown ready for cmark: C0 control characters other than tab and newline removed (they are
/// invisible, can break the HTML and feeds, and NUL would become U+FFFD), and CR or CRLF line ends
/// turned into LF. Remembers what it removed so positions can be reported against the original.
struct SanitizedInput {
    /// The text given to cmark.
    let text: String
    /// For each 1-based line with removed characters: their UTF-8 offsets in the sanitized line,
    /// ascending (an offset `k` means "removed just before the byte at `k`").
    let removedOffsets: [Int: [Int]]

    init(_ markdown: String) {
        guard markdown.utf8.contains(where: Self.needsWork) else {
            text = markdown
            removedOffsets = [:]
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(markdown.utf8.count)
        var removed: [Int: [Int]] = [:]
        var line = 1, lineStart = 0
        var input = markdown.utf8.makeIterator()
        var lookahead = input.next()
        while let byte = lookahead {
            lookahead = input.next()
            if byte == UInt8(ascii: "\r") && lookahead == UInt8(ascii: "\n") {
                continue  // CRLF: the LF ends the line
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {  // a lone CR ends a line too
                bytes.append(UInt8(ascii: "\n"))
                line += 1
                lineStart = bytes.count
            } else if byte < 0x20 && byte != UInt8(ascii: "\t") {
                removed[line, default: []].append(bytes.count - lineStart)
            } else {
                bytes.append(byte)
            }
        }
        // Only ASCII bytes were dropped, so the bytes are still valid UTF-8.
        text = String(decoding: bytes, as: UTF8.self)
        removedOffsets = removed
    }

    private static func needsWork(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\t")
    }
}
