import Foundation

/// A fast, stable 64-bit hash (FNV-1a) for cache-busting asset names; not for security.
public enum ContentHash {
    public static func hex(_ data: Data) -> String {
        hex(data.withUnsafeBytes { value($0) })
    }

    public static func hex(_ value: UInt64) -> String { Hex.string(value) }

    /// The hash of a file's bytes, read a megabyte at a time (a video is never held in memory).
    public static func hex(fileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash = chunk.withUnsafeBytes { value($0, seed: hash) }
        }
        return hex(hash)
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

/// A fast 64-bit digest of bytes, for telling whether a rendered file's bytes equal the last
/// build's (not for names: those use `ContentHash`). Four words at a time, each into a state of
/// its own (an xor, a multiplication by an odd number and an xor-shift: distinct states stay
/// distinct), the four then mixed into one: the four chains run side by side in the processor,
/// where one chain of eight bytes a step digested a build's 440 MB of pages at 1.5 GB/s (3% of a
/// pages-only build's CPU).
public enum BytesDigest {
    public static func value(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count), 0xC2B2_AE3D_27D4_EB4F,
                                                        0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5)
        @inline(__always) func mixed(_ state: UInt64, _ word: UInt64) -> UInt64 {
            let product = (state ^ word) &* 0xFF51_AFD7_ED55_8CCD
            return product ^ (product >> 32)
        }
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var offset = 0
        while offset + 32 <= bytes.count {
            lanes.0 = mixed(lanes.0, word(offset))
            lanes.1 = mixed(lanes.1, word(offset + 8))
            lanes.2 = mixed(lanes.2, word(offset + 16))
            lanes.3 = mixed(lanes.3, word(offset + 24))
            offset += 32
        }
        var hash = mixed(mixed(mixed(lanes.0, lanes.1), lanes.2), lanes.3)
        let tail = UnsafeRawBufferPointer(rebasing: bytes[offset...]).forEachWord { hash = mixed(hash, $0) }
        hash = mixed(hash, tail)
        hash ^= hash >> 29
        hash = hash &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 32)
    }
}

/// A hash of bytes for tables held in memory (`OutputManifest.Table`), keyed by a number drawn once
/// a process, so no one who picks the paths a site makes can pick ones that meet in a table: each
/// word is mixed in by a full 128-bit product with a secret-dependent state, its halves folded.
/// Swift's `Hasher` (SipHash-1-3), which the table used, took 280 instructions for a path of
/// 40-odd bytes: 3% of a caption edit's at 10,000 posts, whose manifests hold 61,000 paths.
/// Never kept: another process hashes otherwise.
public enum TableHash {
    private static let seed: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()

    public static func value(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let seed = Self.seed
        @inline(__always) func folded(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let product = a.multipliedFullWidth(by: b)
            return product.high ^ product.low
        }
        var state = folded(seed ^ 0xA076_1D64_78BD_642F, UInt64(bytes.count) ^ 0xE703_7ED1_A0B4_28DB)
        let tail = bytes.forEachWord { state = folded(state ^ $0, seed ^ 0x8EBC_6AF0_9C88_C6E3) }
        return folded(state ^ tail ^ 0x5899_65CC_7537_4CC3, seed ^ 0x1D8E_4E27_C47D_124F)
    }
}

/// Accumulates a stable digest from strings and numbers (each part is delimited, so
/// ["ab", "c"] and ["a", "bc"] differ). Eight bytes a step: each word is mixed into the state by
/// an xor, a multiplication by an odd number and an xor-shift, each of which maps distinct states
/// to distinct states, so two inputs that differ in one word never meet. (A byte a step, as FNV-1a
/// goes, it was 4% of a caption edit's CPU at 10,000 posts: every page's inputs are digested at
/// every build.) Digests are kept between builds of one gramgen only: a gramgen that digests
/// otherwise finds every kept page and record changed once, and makes them again.
public struct DigestBuilder: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func add(_ number: UInt64) {
        mix(number)
    }

    public mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add(bytes: $0) }
    }

    /// The bytes eight at a time (little-endian; the last word filled out with zeros), then their count.
    private mutating func add(bytes: UnsafeRawBufferPointer) {
        let tail = bytes.forEachWord { mix($0) }
        if bytes.count % 8 != 0 { mix(tail) }
        mix(UInt64(bytes.count))
    }

    private mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 29
    }

    public var hex: String { ContentHash.hex(value) }

    /// A digest of a set of texts that does not depend on their order (a sum of each one's), so
    /// it can be made in parts and added up.
    public static func unordered<Texts: Sequence>(_ texts: Texts) -> UInt64 where Texts.Element == String {
        var sum: UInt64 = 0
        for text in texts { sum &+= unorderedPart(text) }
        return sum
    }

    /// One text's part of `unordered`: the digests of texts given some other way add up to it.
    public static func unorderedPart(_ text: String) -> UInt64 {
        var digest = DigestBuilder()
        digest.add(text)
        return digest.value
    }
}

extension UnsafeRawBufferPointer {
    /// Calls `body` with each whole eight bytes as a little-endian word, in order, and returns the
    /// bytes after the last whole word as one, filled out with zeros (0 when there are none).
    @inline(__always)
    func forEachWord(_ body: (UInt64) -> Void) -> UInt64 {
        var offset = 0
        while offset + 8 <= count {
            body(UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        let left = count - offset
        guard left > 0 else { return 0 }
        // The last bytes in one load: the eight that end the buffer, shifted down past those
        // already taken; a buffer shorter than eight copied into a word of zeros. (A byte at a
        // time, the tail was a fifth of digesting 328,000 texts of a caption edit's build.)
        if count >= 8 {
            return UInt64(littleEndian: loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) >> (UInt64(8 - left) * 8)
        }
        var tail: UInt64 = 0
        withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: self) }
        return UInt64(littleEndian: tail)
    }
}
