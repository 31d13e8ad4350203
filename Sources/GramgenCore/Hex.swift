/// Hexadecimal text: the one home for digests in names, `\u00XX` escapes and `#rrggbb` colours.
public enum Hex {
    /// `0123456789abcdef` as bytes.
    public static let lowerDigits = Array("0123456789abcdef".utf8)

    /// Two lower-case digits per byte, in order.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { append(byte, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value as exactly `digits` digits (leading zeros; the lowest digits when it has more).
    public static func string(_ value: UInt64, digits: Int = 16, uppercase: Bool = false) -> String {
        let table = uppercase ? Array("0123456789ABCDEF".utf8) : lowerDigits
        var out = [UInt8](repeating: 0, count: digits)
        for i in 0..<digits { out[digits - 1 - i] = table[Int(truncatingIfNeeded: (value >> (UInt64(i) * 4)) & 0xF)] }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the byte's two lower-case digits.
    @inline(__always)
    public static func append(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(lowerDigits[Int(byte >> 4)])
        out.append(lowerDigits[Int(byte & 0xF)])
    }
}
