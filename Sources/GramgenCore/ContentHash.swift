import Foundation

/// A fast, stable 64-bit hash (FNV-1a) for cache-busting asset names; not for security.
public enum ContentHash {
    public static func hex(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(format: "%016llx", hash)
    }
}
