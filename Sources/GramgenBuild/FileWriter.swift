import CFileSwap
import Foundation

/// Plain POSIX file writing: no temporary copies, no fsync (see docs/safety.md), folders made
/// once. Thread-safe. Only for folders gramgen made: what is in the way of a file or folder it
/// makes (a file where a folder goes, a link) is removed, never followed. Below `root`, every
/// folder on a file's way is made sure of, from the top down, before anything goes into it: a
/// link put in place of a folder higher up (`public/ann/p -> ~/Documents`) is removed as well,
/// not written or deleted through.
///
/// Below `root`, every file and folder is made through the root's open descriptor, by its path
/// from there (`openat`, `mkdirat`, …): the kernel looks up the names below the root only, not
/// the whole way from `/` each time (a pages-only build of 10,000 posts makes 28,000 files, 27,000
/// folders and 33,500 media links; their look-ups were a tenth of its CPU), and the root cannot
/// be swapped for a link while the build writes in it.
final class FileWriter: @unchecked Sendable {
    private let lock = NSLock()
    /// Folders known to be there, to skip their `mkdir`; bounded (a big site has hundreds of
    /// thousands): when full it starts again, and a folder made before is then found by one
    /// `mkdir` that says it exists.
    private var folders = Set<String>()
    static let knownFolderLimit = 4096
    /// The folder may already hold files, some of them other names of the published site's files
    /// (a spare folder's hard links): a file is then written into only when it is a regular file
    /// of one name (`overwrite`), else removed and made anew.
    let replacing: Bool
    /// The folder written in (the output being built, or the output itself in place), which the
    /// build made or checked: it and the folders above it are taken as they are.
    let root: String
    /// `root`, open (when it could not be opened, every path is used whole).
    private let rootFolder: OpenFolder

    init(replacing: Bool, root: OpenFolder) {
        self.replacing = replacing
        self.root = root.path
        rootFolder = root
    }

    /// `path` as the system calls below take it: from the root's descriptor when it is below the
    /// root (`at` the descriptor, `name` the rest of the path), else whole.
    private func located<Result>(_ path: String, _ call: (_ at: Int32, _ name: UnsafePointer<CChar>) -> Result) -> Result {
        let below = rootFolder.descriptor >= 0 && path.utf8.count > root.utf8.count + 1 && path.hasPrefix(root)
            && path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: root.utf8.count)] == UInt8(ascii: "/")
        guard below else { return call(AT_FDCWD, path) }
        return path.withCString { call(rootFolder.descriptor, $0 + root.utf8.count + 1) }
    }

    /// Writes `bytes` to the file at `path` and returns its identity: over the spare's own file
    /// there when it has one (`overwrite`), else to a new file. `mayOverwrite` false says the
    /// caller knows there is none (no file there, or the published one), which spares the look.
    func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String, mayOverwrite: Bool = true) throws -> FileIdentity {
        try makeFolder(containing: path)
        if replacing, mayOverwrite, let identity = overwrite(bytes, at: path) { return identity }
        clear(path)
        let flags = O_WRONLY | O_CREAT | (replacing ? O_EXCL : O_TRUNC) | O_CLOEXEC | O_NOFOLLOW
        let fd = located(path) { openat($0, $1, flags, 0o644) }
        guard fd >= 0 else { throw POSIXError.current(path) }
        defer { close(fd) }
        guard Self.writeAll(bytes, to: fd) else { throw POSIXError.current(path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw POSIXError.current(path) }
        return FileIdentity(info)
    }

    /// When replacing: writes `bytes` over the file at `path` if it is a regular file with no
    /// other name (one link: not the published site's file, nor the cache's, nor anyone's), so
    /// that nothing but this folder sees it change; nil, with nothing written, for anything else
    /// (a link, a FIFO, a device, a folder, a file of two names, none). A page that changes at
    /// every build (a new post moves the 824 newest-first pages of 10,000 posts by one) is the
    /// spare's own file, written by the build before last: writing over it keeps its inode and
    /// blocks, where removing it and making another had ext4 free the inode (and its blocks, with
    /// a discard) and look through the group's recently freed inodes for a new one (a sixth of a
    /// new post's build). Looked at before it is opened (so nothing but a regular file is ever
    /// opened, and without blocking) and again once open (the same file, still of one name).
    /// A write that fails leaves the file cut short, and nil: the caller makes it anew. The
    /// file's new time and size tell any record of its old bytes that it changed.
    private func overwrite(_ bytes: UnsafeBufferPointer<UInt8>, at path: String) -> FileIdentity? {
        guard bytes.count > 0 else { return nil }  // a write sets the file's time; none would not
        var before = stat()
        guard located(path, { fstatat($0, $1, &before, AT_SYMLINK_NOFOLLOW) }) == 0,
              before.st_mode & S_IFMT == S_IFREG, before.st_nlink == 1 else { return nil }
        let fd = located(path) { openat($0, $1, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_dev == before.st_dev, info.st_ino == before.st_ino,
              info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1 else { return nil }
        guard Self.writeAll(bytes, to: fd) else { return nil }
        if Int(info.st_size) > bytes.count, ftruncate(fd, off_t(bytes.count)) != 0 { return nil }
        guard fstat(fd, &info) == 0, Int(info.st_size) == bytes.count else { return nil }
        return FileIdentity(info)
    }

    /// Writes all of `bytes` into the open file `fd` from its start; false (with `errno`) when the
    /// system refuses.
    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = pwrite(fd, bytes.baseAddress! + offset, bytes.count - offset, off_t(offset))
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Hard-links `source` at `path` (a new name for the same file); false when that is not possible.
    func link(_ source: String, to path: String) -> Bool {
        link(source, in: AT_FDCWD, to: path)
    }

    /// Hard-links the file `name` of the open folder `folder` at `path`.
    func link(_ name: String, in folder: OpenFolder, to path: String) -> Bool {
        guard folder.descriptor >= 0 else { return link(folder.path(of: name), to: path) }
        return link(name, in: folder.descriptor, to: path)
    }

    /// Hard-links the file `name` of the open folder `source` as `name` in the open folder
    /// `folder`, one this writer made (the output's media folder, opened without following a link):
    /// no path is made or looked up. Made by their whole paths (a path joined, its folder found and
    /// made sure of, then looked up from the root), the 33,500 media links of a pages-only build of
    /// 10,000 posts took 4% of its instructions.
    func link(_ name: String, in source: OpenFolder, into folder: OpenFolder) -> Bool {
        guard source.descriptor >= 0, folder.descriptor >= 0 else { return link(name, in: source, to: folder.path(of: name)) }
        if replacing, unlinkat(folder.descriptor, name, 0) != 0, errno == EISDIR || errno == EPERM {
            try? FileManager.default.removeItem(atPath: folder.path(of: name))
        }
        return linkat(source.descriptor, name, folder.descriptor, name, 0) == 0
    }

    private func link(_ source: String, in folder: Int32, to path: String) -> Bool {
        guard (try? makeFolder(containing: path)) != nil else { return false }
        clear(path)
        // A link at `source` is linked itself, never followed (no AT_SYMLINK_FOLLOW).
        return located(path) { linkat(folder, source, $0, $1, 0) } == 0
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
        let isFolder = { self.located(folder) { fstatat($0, $1, &info, AT_SYMLINK_NOFOLLOW) } == 0 && info.st_mode & S_IFMT == S_IFDIR }
        if isFolder() { return }
        _ = located(folder) { unlinkat($0, $1, 0) }
        if located(folder, { mkdirat($0, $1, 0o755) }) != 0 {
            guard errno == EEXIST, isFolder() else {
                throw POSIXError.current(folder)
            }
        }
    }

    /// When replacing: removes what is at `path` (a file, a link, a folder of an earlier build).
    private func clear(_ path: String) {
        guard replacing, located(path, { unlinkat($0, $1, 0) }) != 0, errno == EISDIR || errno == EPERM else { return }
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
        // The last slash found in the bytes in place (`lastIndex(of:)` on the UTF-8 view stepped
        // back a byte at a time through the view: 450 instructions a page).
        var path = path
        guard let slash = path.withUTF8({ bytes in bytes.lastIndex(of: UInt8(ascii: "/")) }) else { return }
        try makeFolder(String(decoding: path.utf8.prefix(slash), as: UTF8.self))
    }

    func makeFolder(_ folder: String) throws {
        lock.lock()
        let known = folders.contains(folder)
        lock.unlock()
        guard !known, folder.hasPrefix(root + "/") else { return }
        // Its parent first: a folder is looked at by its whole path, which must hold no link.
        try makeFolder(containing: folder)
        if located(folder, { mkdirat($0, $1, 0o755) }) != 0 {
            guard errno == EEXIST else { throw POSIXError.current(folder) }
            try clearWay(for: folder)
        }
        lock.lock()
        if folders.count >= Self.knownFolderLimit { folders.removeAll(keepingCapacity: true) }
        folders.insert(folder)
        lock.unlock()
    }
}
