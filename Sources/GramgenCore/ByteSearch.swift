import Foundation

extension StringProtocol {
    /// Whether the text's UTF-8 holds `byte`: `memchr` over a native string's bytes in place. A
    /// generic `utf8.contains` goes a byte at a time through `String.UTF8View`, and a build asks
    /// it of every path of the site (2% of a caption edit's CPU at 10,000 posts).
    @inlinable
    public func hasByte(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count > 0 && memchr(bytes.baseAddress!, Int32(byte), bytes.count) != nil
        } ?? utf8.contains(byte)
    }
}

extension String {
    /// `body` on the text's UTF-8 bytes: a native string's read in place (no copy, and no count
    /// shared by the threads reading the same string touched), a bridged one's made contiguous first.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = self
        return try text.withUTF8(body)
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The index of the first `byte` at `start` or after, found with `memchr` (`firstIndex(of:)`
    /// looks a byte at a time: a record's thousands of lines and paths are cut so).
    @inlinable
    public func index(of byte: UInt8, from start: Int = 0) -> Int? {
        guard let base = baseAddress, start < count, let found = memchr(base + start, Int32(byte), count - start) else { return nil }
        return base.distance(to: UnsafePointer(found.assumingMemoryBound(to: UInt8.self)))
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether these bytes are `other`'s, compared with `memcmp` (`elementsEqual` goes a byte at
    /// a time through a generic iterator: 850 instructions for a post folder's path).
    @inlinable
    public func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        count == other.count && (count == 0 || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }

    /// Whether these bytes are `text`'s.
    @inlinable
    public func hasSameBytes(as text: StaticString) -> Bool {
        text.withUTF8Buffer { hasSameBytes(as: $0) }
    }
}
