/// Escaping for text placed into HTML and XML outside templates (templates escape the same way).
enum Escape {
    static func html(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        HTMLBytes.appendEscaped(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// HTML escaping on UTF-8 bytes: `& < > " '` become entities; characters XML 1.0 forbids (C0 controls
/// other than tab, line feed and carriage return; U+FFFE, U+FFFF) are dropped so feeds stay
/// well-formed. Multi-byte UTF-8 sequences never contain these ASCII bytes, so working on bytes
/// is working on Unicode scalars: a quote followed by a combining mark is still escaped.
enum HTMLBytes {
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped($0, to: &out) }
    }

    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var runStart = 0
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            let replacement: StaticString?
            var skip = 1
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D: replacement = ""
            case 0xEF where i + 2 < count && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                replacement = ""
                skip = 3
            default:
                i += 1
                continue
            }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            if let replacement, replacement.utf8CodeUnitCount > 0 {
                out.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            }
            i += skip
            runStart = i
        }
        if runStart < count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
    }
}
