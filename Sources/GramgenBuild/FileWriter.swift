import CFileSwap
import Foundation

/// Plain POSIX file writing: no temporary copies, no fsync (see docs/safety.md), folders made
/// once. Thread-safe. Only for folders gramgen made: what is in the way of a file or folder it
/// makes (a file where a folder goes, a link) is removed, never followed. Below `root`, every
/// folder on a file's way is made sure of, from the top down, before anything goes into it: a
/// link put in place of a folder higher up (`public/ann/p -> ~/Documents`) is removed as well,
/// not written or deleted through.
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
    /// The folder written in (the output being built, or the output itself in place), which the
    /// build made or checked: it and the folders above it are taken as they are.
    let root: String

    init(replacing: Bool, root: String) {
        self.replacing = replacing
        self.root = root
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

    /// Removes the file (or, with `folder`, the empty folder) at `relative` below the open folder
    /// `root`, never through a link: each folder on the way is opened in its parent only if it is
    /// a folder (a link put in its place leaves the file where the link leads alone). `relative`
    /// is an output path (no `..`, not absolute). False when nothing was removed.
    @discardableResult
    static func remove(_ relative: String, in root: Int32, folder: Bool = false) -> Bool {
        var parts = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard let last = parts.popLast() else { return false }
        var fd = root
        defer { if fd != root { close(fd) } }
        for part in parts {
            let next = openat(fd, String(part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return false }
            if fd != root { close(fd) }
            fd = next
        }
        return unlinkat(fd, String(last), folder ? AT_REMOVEDIR : 0) == 0
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
        guard !known, folder.hasPrefix(root + "/") else { return }
        // Its parent first: a folder is looked at by its whole path, which must hold no link.
        try makeFolder(containing: folder)
        if mkdir(folder, 0o755) != 0 {
            guard errno == EEXIST else { throw POSIXError.current(folder) }
            try clearWay(for: folder)
        }
        lock.lock()
        if folders.count >= Self.knownFolderLimit { folders.removeAll(keepingCapacity: true) }
        folders.insert(folder)
        lock.unlock()
    }
}
