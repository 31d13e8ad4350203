/// Builds a caption's plain text for feed summaries and meta descriptions: no markup, and every
/// run of whitespace — including line and block breaks — collapsed into one space.
struct PlainTextBuilder {
    private(set) var text = ""
    private var pendingSpace = false

    mutating func append(_ piece: String) {
        for scalar in piece.unicodeScalars {
            if Self.isWhitespace(scalar) {
                pendingSpace = !text.isEmpty
            } else {
                if pendingSpace {
                    text.unicodeScalars.append(" ")
                    pendingSpace = false
                }
                text.unicodeScalars.append(scalar)
            }
        }
    }

    mutating func append(_ scalar: Unicode.Scalar) { append(String(scalar)) }

    /// Separates blocks (paragraphs, table cells, list items) so their words do not run together.
    mutating func breakBlock() { pendingSpace = !text.isEmpty }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }
}
