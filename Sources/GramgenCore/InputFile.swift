import Foundation

/// The one way gramgen reads a user's file: only a regular file, never more than a limit, and
/// never by a read that can block. A FIFO, a socket or a device named like a photo or a caption
/// would otherwise stall a build (or `gramgen serve`) for ever, or read without end.
///
/// The type is checked twice: with `stat` before opening (so a device is never opened at all) and
/// with `fstat` on the opened descriptor, which is opened `O_NONBLOCK` so that a FIFO swapped in
/// between the two checks still cannot block the open.
public enum InputFile {
    /// Why a file cannot be read, worded for a diagnostic.
    public enum Failure: Error, Equatable, Sendable {
        case missing
        /// A FIFO, socket or device ("a named pipe (FIFO)").
        case special(String)
        case folder
        case tooLarge(limit: Int)
        /// The system refused (permissions, I/O error): its own words.
        case unreadable(String)

        public var message: String {
            switch self {
            case .missing: "the file is missing"
            case .special(let kind): "the file is \(kind), not a regular file"
            case .folder: "this is a folder, not a file"
            case .tooLarge(let limit): "the file is larger than \(InputFile.sizeText(limit))"
            case .unreadable(let reason): "cannot read the file: \(reason)"
            }
        }

        public var hint: String {
            switch self {
            case .missing: "create it, or remove the reference to it"
            case .special: "replace it with a regular file (gramgen never reads pipes, sockets or devices)"
            case .folder: "remove the folder or rename it"
            case .tooLarge: "make the file smaller"
            case .unreadable: "check the file's permissions (chmod u+r) and that the disk is readable"
            }
        }
    }

    /// The largest photo or video file gramgen reads or copies (site, `new post`, import, and a
    /// static file the preview compares in memory); the pixel limit bounds what a photo decodes to.
    public static let maxMediaBytes = 256 * 1024 * 1024
    /// A text file (a caption, a profile, `site.yml`) larger than this is refused, so a stray
    /// binary cannot stall the build.
    public static let maxTextBytes = 2 * 1024 * 1024
    /// The largest video file gramgen reads: about 4 minutes of 4K from a phone. Videos are only
    /// ever streamed (hashed, then read by FFmpeg), never held in memory; their length and pixel
    /// count are bounded by `max_video_seconds` and `max_video_megapixels`.
    public static let maxVideoBytes = 2 * 1024 * 1024 * 1024

    /// What a path is, following links: missing, a folder, a regular file of some size, or special.
    public static func check(atPath path: String) -> Result<Int, Failure> {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .failure(.missing) : .failure(.unreadable(String(cString: strerror(errno))))
        }
        return kind(of: info)
    }

    /// The file's bytes, at most `limit` of them (a larger file is an error, found before reading).
    public static func read(atPath path: String, limit: Int) -> Result<Data, Failure> {
        reading(atPath: path, limit: limit) { fd, size in
            var data = Data(count: size)
            let filled = data.withUnsafeMutableBytes { fill($0, from: fd) }
            data.count = filled ?? 0
            return filled.map { _ in data }
        }
    }

    /// `read`, as an array of bytes (what `ByteReader` reads: no copy of a large record is made).
    public static func readBytes(atPath path: String, limit: Int) -> Result<[UInt8], Failure> {
        reading(atPath: path, limit: limit) { fd, size in
            var filled: Int?
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                filled = fill(UnsafeMutableRawBufferPointer(buffer), from: fd)
                count = filled ?? 0
            }
            return filled.map { _ in bytes }
        }
    }

    /// Opens a regular file of at most `limit` bytes without blocking and hands `body` its
    /// descriptor and size; `body` returns nil when a read failed (`errno` then says why).
    private static func reading<Value>(atPath path: String, limit: Int, _ body: (Int32, Int) -> Value?) -> Result<Value, Failure> {
        if case .failure(let failure) = check(atPath: path) { return .failure(failure) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            return errno == ENOENT ? .failure(.missing) : .failure(.unreadable(String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        let size: Int
        switch kind(of: info) {
        case .failure(let failure): return .failure(failure)
        case .success(let bytes): size = bytes
        }
        guard size <= limit else { return .failure(.tooLarge(limit: limit)) }
        guard let value = body(fd, size) else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        return .success(value)
    }

    /// Reads into `buffer` until it is full or the file ends: how many bytes, or nil on an error.
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer, from fd: Int32) -> Int? {
        var filled = 0
        while filled < buffer.count {
            let count = Foundation.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// A regular file's size, or why it is not one.
    private static func kind(of info: stat) -> Result<Int, Failure> {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .success(Int(info.st_size))
        case S_IFDIR: return .failure(.folder)
        case S_IFIFO: return .failure(.special("a named pipe (FIFO)"))
        case S_IFSOCK: return .failure(.special("a socket"))
        case S_IFCHR: return .failure(.special("a character device"))
        case S_IFBLK: return .failure(.special("a block device"))
        default: return .failure(.special("not a regular file"))
        }
    }

    /// `2 MB`, `200 MB`: the limits as people read them.
    public static func sizeText(_ bytes: Int) -> String {
        bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MB" : "\(bytes / 1024) KB"
    }
}
