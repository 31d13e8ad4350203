import CFileSwap
import Foundation

/// Plain POSIX file writing: no temporary copies, no fsync (see docs/safety.md), folders made
/// once. Thread-safe.
final class FileWriter: @unchecked Sendable {
    private let lock = NSLock()
    private var folders = Set<String>()

    /// Writes `bytes` to a new file at `path` and returns its identity.
    func write(_ bytes: [UInt8], to path: String) throws -> FileIdentity {
        try makeFolder(containing: path)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw POSIXError.current(path) }
        defer { close(fd) }
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError.current(path)
                }
                offset += written
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw POSIXError.current(path) }
        return FileIdentity(info)
    }

    /// Hard-links `source` at `path` (a new name for the same file); false when that is not possible.
    func link(_ source: String, to path: String) -> Bool {
        (try? makeFolder(containing: path)) != nil && Foundation.link(source, path) == 0
    }

    /// Asks the file system to spread the folders made in `folder` over the disk (see
    /// `gg_mark_top_folder`); where it cannot, nothing changes. On ext4 without a journal, making
    /// thousands of files right after thousands were deleted (a rebuild into an emptied output)
    /// otherwise makes the kernel step over every recently freed inode of one group for each new
    /// file; with the folders spread, each group holds a few hundred of them.
    static func spread(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = gg_mark_top_folder(fd)
        close(fd)
    }

    func makeFolder(containing path: String) throws {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return }
        try makeFolder(String(path[..<slash]))
    }

    func makeFolder(_ folder: String) throws {
        lock.lock()
        let known = folders.contains(folder)
        lock.unlock()
        if known || folder.isEmpty { return }
        if mkdir(folder, 0o755) != 0 {
            switch errno {
            case EEXIST: break
            case ENOENT:
                try makeFolder(containing: folder)
                if mkdir(folder, 0o755) != 0 && errno != EEXIST { throw POSIXError.current(folder) }
            default: throw POSIXError.current(folder)
            }
        }
        lock.lock()
        folders.insert(folder)
        lock.unlock()
    }
}
