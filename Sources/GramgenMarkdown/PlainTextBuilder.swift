/// Builds a caption's plain text for feed summaries and meta descriptions: no markup, and every
/// run of whitespace — including line and block breaks — collapsed into one space.
struct PlainTextBuilder {
    /// The text as UTF-8, appended whole scalars at a time, so it is always valid.
    private var bytes: [UInt8] = []
    private var pendingSpace = false

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ piece: String) {
        var piece = piece
        let wasASCII = piece.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return false }
            for byte in utf8 { append(Unicode.Scalar(byte)) }
            return true
        }
        guard !wasASCII else { return }
        for scalar in piece.unicodeScalars {
            append(scalar)
        }
    }

    mutating func append(_ scalar: Unicode.Scalar) {
        if Self.isWhitespace(scalar) {
            pendingSpace = !bytes.isEmpty
            return
        }
        if pendingSpace {
            bytes.append(UInt8(ascii: " "))
            pendingSpace = false
        }
        if scalar.isASCII {
            bytes.append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
            bytes.append(contentsOf: scalar.utf8)
        }
    }

    /// Separates blocks (paragraphs, table cells, list items) so their words do not run together.
    mutating func breakBlock() { pendingSpace = !bytes.isEmpty }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }
}
