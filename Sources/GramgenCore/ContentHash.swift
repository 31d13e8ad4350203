import Foundation

/// A fast, stable 64-bit hash (FNV-1a) for cache-busting asset names; not for security.
public enum ContentHash {
    public static func hex(_ data: Data) -> String {
        hex(data.withUnsafeBytes { value($0) })
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        hex(bytes.withUnsafeBytes { value($0) })
    }

    public static func hex(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 { out[15 - i] = digits[Int(value >> (UInt64(i) * 4) & 0xf)] }
        return String(decoding: out, as: UTF8.self)
    }

    /// FNV-1a of the bytes, continuing from `seed` (so several parts can be hashed as one).
    public static func value(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// Accumulates a stable digest from strings and numbers (each part is delimited, so
/// ["ab", "c"] and ["a", "bc"] differ).
public struct DigestBuilder: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { value = ContentHash.value(UnsafeRawBufferPointer($0), seed: value) }
        add(UInt64(text.utf8.count))
    }

    public mutating func add(_ number: UInt64) {
        withUnsafeBytes(of: number.littleEndian) { value = ContentHash.value($0, seed: value) }
    }

    public mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { value = ContentHash.value($0, seed: value) }
        add(UInt64(bytes.count))
    }

    public var hex: String { ContentHash.hex(value) }
}
