import Foundation

/// A compact binary record for what a build keeps between runs (`PostMemo`'s file): numbers as
/// variable-length integers, text as its length and UTF-8 bytes. Written and read field by field,
/// in the same order, without Foundation's coders: ten thousand posts are read back in a few
/// tens of milliseconds, where parsing them again takes a few hundred.
public struct ByteWriter {
    /// Visible to the inlinable writes, as `ByteReader`'s bytes are to its reads.
    @usableFromInline var buffer: [UInt8] = []
    public var bytes: [UInt8] { buffer }

    public init() {}

    /// Zig-zag, seven bits a byte: small numbers of either sign take one byte.
    @inlinable
    public mutating func int(_ value: Int64) {
        var rest = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while rest >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        buffer.append(UInt8(rest))
    }

    @inlinable
    public mutating func int(_ value: Int) { int(Int64(value)) }

    /// Eight bytes, little-endian (a digest or a double's bits, which rarely fit fewer).
    @inlinable
    public mutating func word(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    }

    @inlinable
    public mutating func double(_ value: Double) { word(value.bitPattern) }

    @inlinable
    public mutating func bool(_ value: Bool) { buffer.append(value ? 1 : 0) }

    @inlinable
    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(bytes: $0) }
    }

    /// A text given as its UTF-8 bytes (read back by `string` or `withStringBytes`).
    @inlinable
    public mutating func string(bytes utf8: UnsafeBufferPointer<UInt8>) {
        int(utf8.count)
        buffer.append(contentsOf: utf8)
    }

    /// Bytes as they are (what `ByteReader.bytes` reads back, its length written before them).
    public mutating func append(_ raw: ArraySlice<UInt8>) {
        buffer.append(contentsOf: raw)
    }

    @inlinable
    public mutating func strings(_ list: [String]) {
        int(list.count)
        for text in list { string(text) }
    }

    /// Once it holds `atLeast` bytes, writes what it holds to `file` and goes on in the same
    /// memory: a big record is written as it is made, never held whole (made whole, a 5 MB record
    /// grew through copies whose fresh pages the kernel zeroed, a tenth of its writing).
    public mutating func flush(into file: AtomicFile.Writer, atLeast: Int = 1 << 20) {
        guard buffer.count >= atLeast else { return }
        file.append(bytes)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Absent (0), or present (1) and then the value. Inlinable, as `ByteReader`'s generic reads are.
    @inlinable
    public mutating func optional<T>(_ value: T?, _ write: (inout ByteWriter, T) -> Void) {
        guard let value else { return bool(false) }
        bool(true)
        write(&self, value)
    }

    @inlinable
    public mutating func list<T>(_ values: [T], _ write: (inout ByteWriter, T) -> Void) {
        int(values.count)
        for value in values { write(&self, value) }
    }
}

/// Reads what `ByteWriter` wrote, in the same order. Every read is checked against the bytes
/// left: a file cut short or damaged throws `Malformed` (the caller then discards it), never
/// reads past its end, and a count can never ask for more items than there are bytes.
public struct ByteReader {
    public struct Malformed: Error {
        public init() {}
    }

    // Visible to the inlinable reads: each caller's module decodes its records in line, without
    // a call per number or text.
    @usableFromInline let bytes: [UInt8]
    @usableFromInline var position: Int
    public var offset: Int { position }

    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        position = offset
    }

    public var isAtEnd: Bool { position >= bytes.count }
    /// The bytes not read yet.
    public var remaining: Int { max(0, bytes.count - position) }

    @inlinable
    public mutating func int() throws -> Int64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift < 64 else { throw Malformed() }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    @inlinable
    public mutating func int() throws -> Int {
        let value: Int64 = try int()
        return Int(value)
    }

    /// A count of items that each take at least one byte: never more than the bytes left.
    @inlinable
    public mutating func count() throws -> Int {
        let value: Int = try int()
        guard value >= 0, value <= bytes.count - position else { throw Malformed() }
        return value
    }

    @inlinable
    public mutating func word() throws -> UInt64 {
        guard bytes.count - position >= 8 else { throw Malformed() }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
        position += 8
        return value
    }

    @inlinable
    public mutating func double() throws -> Double { Double(bitPattern: try word()) }

    @inlinable
    public mutating func bool() throws -> Bool {
        guard position < bytes.count, bytes[position] <= 1 else { throw Malformed() }
        position += 1
        return bytes[position - 1] == 1
    }

    /// Decoded from the buffer in place: through an `ArraySlice` of the array, each text of a
    /// record cost a retain and release of its storage and a slower path (a fifth more time).
    @inlinable
    public mutating func string() throws -> String {
        let length = try count()
        let start = position
        position += length
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + length)]), as: UTF8.self)
        }
    }

    /// The next text's bytes, in place (for a caller that keeps texts as bytes), when they are
    /// UTF-8: else `Malformed`.
    @inlinable
    public mutating func withStringBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        let length = try count()
        let start = position
        position += length
        return try bytes.withUnsafeBufferPointer {
            let text = UnsafeBufferPointer(rebasing: $0[start..<(start + length)])
            guard text.allSatisfy({ $0 < 0x80 }) || String(validating: text, as: UTF8.self) != nil else { throw Malformed() }
            return try body(text)
        }
    }

    /// The case of `Value` whose raw text the next text is (`Malformed` for none), matched on the
    /// bytes in place: made a string and looked up as one, each of the four formats of 10,000
    /// kept images' files took a tenth of reading the image.
    @inlinable
    public mutating func rawCase<Value: CaseIterable & RawRepresentable>(_: Value.Type) throws -> Value where Value.RawValue == String {
        try withStringBytes { bytes in
            for value in Value.allCases {
                var raw = value.rawValue
                if raw.withUTF8({ $0.hasSameBytes(as: bytes) }) {
                    return value
                }
            }
            throw Malformed()
        }
    }

    /// The count and digest of all the bytes it reads (`BytesDigest`): what to know them again by.
    public var fingerprint: (count: Int, digest: UInt64) {
        (bytes.count, bytes.withUnsafeBytes { BytesDigest.value($0) })
    }

    /// The next `count` bytes as they are.
    public mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - position else { throw Malformed() }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    @inlinable
    public mutating func strings() throws -> [String] {
        try list { try $0.string() }
    }

    // Inlinable, so each caller's module specializes them for its item type: as generic code
    // they looked up type metadata for every item (a tenth of reading 10,000 kept posts).
    @inlinable
    public mutating func optional<T>(_ read: (inout ByteReader) throws -> T) throws -> T? {
        try bool() ? try read(&self) : nil
    }

    @inlinable
    public mutating func list<T>(_ read: (inout ByteReader) throws -> T) throws -> [T] {
        let count = try count()
        var values: [T] = []
        // A count is at most the bytes left, but an item takes more room in memory than its
        // first byte: reserved only up to a bound, grown as items are really read.
        values.reserveCapacity(min(count, 4096))
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }
}

/// A file a build keeps for the next one in its cache folder: read only when it is a regular file
/// (not a link, never a read that blocks) within `limit` bytes and begins with the expected magic
/// and salt; written whole and renamed into place, so never through a link and never seen cut
/// short.
public enum KeptFile {
    /// A writer that has written the header `reader` expects.
    public static func writer(magic: String, salt: String) -> ByteWriter {
        var writer = ByteWriter()
        writer.string(magic)
        writer.string(salt)
        return writer
    }

    /// A reader past the header, or nil when the file is missing, not a plain file, too large, or
    /// of another kind or salt.
    public static func reader(atPath path: String, limit: Int, magic: String, salt: String) -> ByteReader? {
        guard let bytes = bytes(atPath: path, limit: limit) else { return nil }
        var reader = ByteReader(bytes)
        guard (try? reader.string()) == magic, (try? reader.string()) == salt else { return nil }
        return reader
    }

    /// The file's bytes, when it is a regular file (not a link, never a read that blocks) within
    /// `limit` bytes.
    public static func bytes(atPath path: String, limit: Int) -> [UInt8]? {
        guard !FileContainment.isLink(path), case .success(let bytes) = InputFile.readBytes(atPath: path, limit: limit) else { return nil }
        return bytes
    }

    /// Whether the file was written (its folder made first).
    @discardableResult
    public static func write(_ writer: ByteWriter, toPath path: String) -> Bool {
        makeFolder(of: path)
        return (try? AtomicFile.write(writer.bytes, to: path)) != nil
    }

    private static func makeFolder(of path: String) {
        try? FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    }

    /// Writes a big record as it is made: `body` writes after the header and calls
    /// `ByteWriter.flush(into:)` with the file as it goes. Whether the file was written.
    @discardableResult
    public static func write(toPath path: String, magic: String, salt: String,
                             _ body: (inout ByteWriter, AtomicFile.Writer) -> Void) -> Bool {
        makeFolder(of: path)
        guard let file = try? AtomicFile.Writer(path) else { return false }
        var writer = Self.writer(magic: magic, salt: salt)
        body(&writer, file)
        file.append(writer.bytes)
        return (try? file.commit()) != nil
    }
}
