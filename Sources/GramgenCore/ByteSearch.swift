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
