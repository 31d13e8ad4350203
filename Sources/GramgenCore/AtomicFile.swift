import Foundation

/// A file replaced whole: written under a temporary name in the same folder, then renamed into
/// place, so the path holds either the old file or the complete new one. The bytes are written
/// from where they are, not copied first (a big site's records are tens of megabytes, written
/// at a build's peak of memory).
public enum AtomicFile {
    /// Writes `bytes` to `path`.
    public static func write(_ bytes: some ContiguousBytes, to path: String) throws {
        let file = try Writer(path)
        file.append(bytes)
        try file.commit()
    }

    /// A file written in pieces, each as it comes (no buffer of the whole file), under the
    /// temporary name `.<name>.<pid>.<n>.tmp` beside `path` (`MediaCache` knows the shape, to
    /// prune what a killed build left); `commit` puts it in place, and a writer dropped without
    /// it leaves nothing.
    public final class Writer {
        private let path: String
        private let temporary: String
        private var fd: Int32
        private var failure: Int32 = 0

        public init(_ path: String) throws {
            self.path = path
            let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
            temporary = String(path[..<slash]) + ".\(path[slash...]).\(getpid()).\(AtomicFile.uniqueNumber()).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw AtomicFile.error(path) }
        }

        deinit {
            if fd >= 0 {
                close(fd)
                unlink(temporary)
            }
        }

        public func append(_ bytes: some ContiguousBytes) {
            guard failure == 0 else { return }
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let count = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    offset += count
                }
            }
        }

        public func commit() throws {
            if close(fd) != 0, failure == 0 { failure = errno }
            fd = -1
            if failure == 0, rename(temporary, path) != 0 { failure = errno }
            if failure != 0 {
                unlink(temporary)
                throw AtomicFile.error(path, failure)
            }
        }
    }

    /// Writes `text`'s UTF-8 bytes as they are stored.
    public static func write(text: String, to path: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0), to: path) }
    }

    /// The error of a failed write of `path`, from `code` (`errno` by default).
    public static func error(_ path: String, _ code: Int32 = errno) -> Error {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: path,
            NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
            NSLocalizedDescriptionKey: "cannot write \(path): \(String(cString: strerror(code)))",
        ])
    }

    /// A number no earlier call in this process returned: distinct temporary names.
    public static func uniqueNumber() -> Int {
        counter.next()
    }

    private static let counter = Counter()

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func next() -> Int {
            lock.withLock {
                value += 1
                return value
            }
        }
    }
}
