/// Post folder names become URLs, so they are restricted to characters that need no escaping.
enum PostID {
    /// ASCII letters, digits, '-', '_' and '.' (a comparison, not a set look-up: each kept post's
    /// id is checked again when a build reads it back).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x2D, 0x5F, 0x2E: true
        default: false
        }
    }

    static func problem(with id: String) -> String? {
        // Most ids checked are valid (each kept post's, read back by every build): those pass on
        // their bytes, each allowed character being one byte of ASCII.
        if id.utf8.withContiguousStorageIfAvailable(isValidBytes) == true { return nil }
        return problemByCharacters(with: id)
    }

    /// `problem(with:)` without the byte check: the rule as it reads.
    static func problemByCharacters(with id: String) -> String? {
        // No more characters than bytes: the characters are counted only for a long id.
        if id.isEmpty || id.utf8.count > 100 && id.count > 100 { return "it must be 1 to 100 characters long" }
        if id.hasPrefix(".") { return "it may not start with '.'" }
        if let bad = id.unicodeScalars.first(where: { !isAllowed($0) }) {
            return "it contains '\(bad.escaped(asASCII: false))'"
        }
        return nil
    }

    /// 1 to 100 bytes, each an allowed character, the first not '.': what `problem` passes.
    private static func isValidBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 100, bytes[0] != 0x2E else { return false }
        for byte in bytes {
            switch byte {
            case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x2D, 0x5F, 0x2E: continue
            default: return false
            }
        }
        return true
    }
}
