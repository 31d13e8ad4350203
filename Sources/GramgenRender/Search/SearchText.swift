/// How search sees text, the same in Swift (the index) and in `search.js` (the query), which
/// repeats these rules exactly: compatibility-decomposed, lower-cased, accents dropped from
/// Latin, Greek and Cyrillic letters (so `crème` is `creme`, but Japanese `が` stays `が`), then
/// split into words of letters and digits. A word in Korean, Japanese or Chinese script becomes
/// its overlapping two-character pieces (`서울역` → `서울`, `울역`), so any two or more
/// characters of it find it, as no word breaker is needed; other words are looked up by prefix.
enum SearchText {
    /// The index's words of a text.
    static func words(_ text: String) -> [String] {
        var result: [String] = []
        for token in tokens(text) { appendPieces(of: token, to: &result) }
        return result
    }

    /// Normalised runs of letters and digits. The text is cut at its ASCII separators first (a
    /// separator ends a token on either path); a piece that is all ASCII letters and digits (most
    /// words of most captions) is only lowercased, any other piece takes the Unicode path.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var piece: [UInt8] = []
        var ascii = true
        func flush() {
            guard !piece.isEmpty else { return }
            if ascii {
                for index in piece.indices where piece[index] >= UInt8(ascii: "A") && piece[index] <= UInt8(ascii: "Z") {
                    piece[index] += 32
                }
                tokens.append(String(decoding: piece, as: UTF8.self))
            } else {
                tokens += unicodeTokens(String(decoding: piece, as: UTF8.self))
            }
            piece.removeAll(keepingCapacity: true)
            ascii = true
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                piece.append(byte)
            case 0x80...:
                piece.append(byte)
                ascii = false
            default:
                flush()
            }
        }
        flush()
        return tokens
    }

    /// Tokens of any text: compatibility-decomposed, lowercased, accents on Latin, Greek and
    /// Cyrillic letters dropped, CJK runs apart from others.
    static func unicodeTokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        var lastBase: UInt32 = 0
        func flush() {
            if !current.isEmpty { tokens.append(String(String(current).precomposedStringWithCanonicalMapping)) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.decomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
            let properties = scalar.properties
            if properties.generalCategory.isMark {
                // An accent on a Latin, Greek or Cyrillic letter is dropped; other marks (kana
                // voicing, Indic vowel signs) are part of the letter.
                if !current.isEmpty && !isAccentedScript(lastBase) { current.append(scalar) }
                continue
            }
            if properties.isAlphabetic || properties.generalCategory.isNumber {
                if isCJK(scalar.value) != (current.last.map { isCJK($0.value) } ?? isCJK(scalar.value)) { flush() }
                current.append(scalar)
                lastBase = scalar.value
            } else {
                flush()
            }
        }
        flush()
        return tokens
    }

    /// A token as the index stores it: itself, or a CJK token's two-character pieces (only a CJK
    /// token is split into its characters: most words are appended as they are).
    static func appendPieces(of token: String, to result: inout [String]) {
        guard let first = token.unicodeScalars.first, isCJK(first.value) else { return result.append(token) }
        let scalars = Array(token.unicodeScalars)
        guard scalars.count > 2 else { return result.append(token) }
        for start in 0..<(scalars.count - 1) { result.append(String(String.UnicodeScalarView(scalars[start...start + 1]))) }
    }

    /// Hangul, kana, CJK ideographs and their compatibility forms: scripts written without spaces
    /// between words (Korean uses spaces, but particles stick to the word before them).
    static func isCJK(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF, 0xF900...0xFAFF, 0xFF66...0xFF9F,
             0x20000...0x2FA1F:
            return true
        default:
            return false
        }
    }

    /// Latin, Greek, Cyrillic (and their extensions): scripts whose accents search ignores.
    static func isAccentedScript(_ value: UInt32) -> Bool {
        value < 0x0530 || (0x1E00...0x1FFF).contains(value) || (0x2C60...0x2C7F).contains(value)
            || (0xA720...0xA7FF).contains(value)
    }

    /// The file (of `count`) holding the words that start as `word` does: FNV-1a over the UTF-16
    /// of its first two characters, so every word sharing a two-character prefix is in one file.
    static func shard(of word: String, count: Int) -> Int {
        var hash: UInt32 = 0x811C_9DC5
        for unit in String(String.UnicodeScalarView(word.unicodeScalars.prefix(2))).utf16 {
            hash ^= UInt32(unit)
            hash = hash &* 0x0100_0193
        }
        return Int(hash % UInt32(max(1, count)))
    }
}

private extension Unicode.GeneralCategory {
    /// `\p{M}` in JavaScript.
    var isMark: Bool {
        self == .nonspacingMark || self == .spacingMark || self == .enclosingMark
    }

    /// `\p{N}` in JavaScript.
    var isNumber: Bool {
        self == .decimalNumber || self == .letterNumber || self == .otherNumber
    }
}
