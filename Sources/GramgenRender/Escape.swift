import GramgenCore

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
    static func appendEscaped<Sink: ByteSink>(_ text: String, to out: inout Sink) {
        text.withUTF8Bytes { appendEscaped($0, to: &out) }
    }

    /// `InternalLink.rootMark`'s bytes (one).
    static let rootMark = Array(InternalLink.rootMark.utf8)

    /// `text` with `root` written for each `InternalLink.rootMark` in it, the rest escaped or not
    /// (`TemplateValue.rooted`). A root ("../../") is never escaped.
    static func append<Sink: ByteSink>(_ text: String, root: [UInt8], escaped: Bool, to out: inout Sink) {
        text.withUTF8Bytes { append($0, root: root, escaped: escaped, to: &out) }
    }

    static func append<Sink: ByteSink>(_ bytes: UnsafeBufferPointer<UInt8>, root: [UInt8], escaped: Bool, to out: inout Sink) {
        var start = 0
        while true {
            let end = bytes.index(of: rootMark[0], from: start) ?? bytes.count
            let piece = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if escaped { appendEscaped(piece, to: &out) } else { out.append(bytes: piece) }
            guard end < bytes.count else { return }
            out.append(bytes: root)
            start = end + 1
        }
    }

    static func appendEscaped<Sink: ByteSink>(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout Sink) {
        var runStart = 0
        var i = 0
        let count = bytes.count
        while i < count {
            // Eight bytes at a time while none of them may need escaping (most text has none);
            // then byte by byte, each sent on by the switch's `default`.
            i = skipPlain(bytes, from: i)
            guard i < count else { break }
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
            if runStart < i { out.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            if let replacement, replacement.utf8CodeUnitCount > 0 { out.append(bytes: replacement) }
            i += skip
            runStart = i
        }
        if runStart < count { out.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
    }

    /// Where, from `start` on, the next eight bytes may hold one that needs escaping (one of
    /// `& < > " '`, a control character, or 0xEF, which starts U+FFFE and U+FFFF; the switch of
    /// `appendEscaped` says which), or where fewer than eight are left: the bytes are tested
    /// eight at a time as one 64-bit word (a zero byte of the word xor a character's copies is
    /// that character; a byte below 0x20 borrows past its top bit). Swift's `SIMD16` made the
    /// escaping 5× slower here: its comparisons were not turned into vector instructions.
    @inline(__always)
    private static func skipPlain(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        let count = bytes.count
        guard let base = bytes.baseAddress else { return count }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        while i + 8 <= count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let special = (word &- ones &* 0x20) & ~word & highs != 0
                || hasZero(word ^ (ones &* UInt64(UInt8(ascii: "&")))) || hasZero(word ^ (ones &* UInt64(UInt8(ascii: "<"))))
                || hasZero(word ^ (ones &* UInt64(UInt8(ascii: ">")))) || hasZero(word ^ (ones &* UInt64(UInt8(ascii: "\""))))
                || hasZero(word ^ (ones &* UInt64(UInt8(ascii: "'")))) || hasZero(word ^ (ones &* 0xEF))
            if special { break }
            i += 8
        }
        return i
    }
}
