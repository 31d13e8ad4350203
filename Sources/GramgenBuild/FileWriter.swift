import CFileSwap
import Foundation

/// Plain POSIX file writing: no temporary copies, no fsync (see docs/safety.md), folders made
/// once. Thread-safe. Only for folders gramgen made: what is in the way of a file or folder it
/// makes (a file where a folder goes, a link) is removed, never followed.
final class FileWriter: @unchecked Sendable {
    private let lock = NSLock()
    /// Folders known to be there, to skip their `mkdir`; bounded (a big site has hundreds of
    /// thousands): when full it starts again, and a folder made before is then found by one
    /// `mkdir` that says it exists.
    private var folders = Set<String>()
    static let knownFolderLimit = 4096
    /// The folder may already hold files, some of them other names of the published site's files
    /// (a spare folder's hard links): a file is then never written into, only removed and made anew.
    let replacing: Bool

    init(replacing: Bool) {
        self.replacing = replacing
    }

    /// Writes `bytes` to a new file at `path` and returns its identity.
    func write(_ bytes: [UInt8], to path: String) throws -> FileIdentity {
        try makeFolder(containing: path)
        clear(path)
        let fd = open(path, O_WRONLY | O_CREAT | (replacing ? O_EXCL : O_TRUNC) | O_CLOEXEC | O_NOFOLLOW, 0o644)
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
        guard (try? makeFolder(containing: path)) != nil else { return false }
        clear(path)
        return Foundation.link(source, path) == 0
    }

    /// Copies the file at `source` to `path`.
    func copy(_ source: String, to path: String) throws {
        try makeFolder(containing: path)
        clear(path)
        try FileManager.default.copyItem(atPath: source, toPath: path)
    }

    /// Makes sure `folder`, which exists, is a folder: something else there (a file, a link to
    /// anywhere) is removed and the folder made. Safe when two threads do it at once.
    private func clearWay(for folder: String) throws {
        var info = stat()
        if lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        unlink(folder)
        if mkdir(folder, 0o755) != 0 {
            guard errno == EEXIST, lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw POSIXError.current(folder)
            }
        }
    }

    /// When replacing: removes what is at `path` (a file, a link, a folder of an earlier build).
    private func clear(_ path: String) {
        guard replacing, unlink(path) != 0, errno == EISDIR || errno == EPERM else { return }
        try? FileManager.default.removeItem(atPath: path)
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
            case EEXIST:
                try clearWay(for: folder)
            case ENOENT, ENOTDIR:  // a parent is missing, or is not a folder
                try makeFolder(containing: folder)
                if mkdir(folder, 0o755) != 0 {
                    guard errno == EEXIST else { throw POSIXError.current(folder) }
                    try clearWay(for: folder)
                }
            default: throw POSIXError.current(folder)
            }
        }
        lock.lock()
        if folders.count >= Self.knownFolderLimit { folders.removeAll(keepingCapacity: true) }
        folders.insert(folder)
        lock.unlock()
    }
}
