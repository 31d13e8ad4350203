import Foundation

/// Lists a folder tree with readdir and one stat per entry — the up-to-date check walks tens of
/// thousands of files on every build, and Foundation's enumerator costs several times more.
enum FolderWalk {
    struct Entry {
        var path: String
        var size: Int64
        var modified: Int64
        var isRegular: Bool
        /// The entry itself is a link (followed or not).
        var isLink = false
        /// Change time (ns) and inode, of the link's target when it was followed.
        var changed: Int64 = 0
        var inode: UInt64 = 0
        /// A folder the walk could not open for want of permission (`path` is the folder's).
        var unreadable = false

        /// Size, times and inode: what says a file is the same one as before.
        var stamp: [Int64] { [size, modified, changed, Int64(bitPattern: inode)] }
    }

    /// A name that is not UTF-8 is listed with U+FFFD in its place (two such names can read alike);
    /// a real U+FFFD reads so too, and is treated the same.
    static func isMisread(_ path: String) -> Bool {
        path.utf8.contains(0xEF) && path.unicodeScalars.contains("\u{FFFD}")
    }

    /// Every non-folder entry below `root` (relative paths, unsorted); nil when `root` is not a folder.
    /// With `follow`, links are followed (to files and folders) like the build reads them; a folder
    /// reached twice (a link loop) is listed once, and the walk stops 64 folders deep.
    ///
    /// With `threads` above 1 the top of the tree is listed first, then its subfolders are walked
    /// on that many threads, each from what the top listing saw (so the result does not depend on
    /// which thread took which folder; a folder linked from two of them is listed under both).
    ///
    /// A followed link to a folder is only walked when the folder lies inside `within` (a resolved
    /// path): a link to `/` in `content/` must not make the walk read the whole file system.
    static func entries(_ root: String, follow: Bool, within: String? = nil, threads: Int = 1) -> [Entry]? {
        var info = stat()
        guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        var result: [Entry] = []
        var seen: Set<[UInt64]> = [[UInt64(info.st_dev), UInt64(info.st_ino)]]
        var now: [Folder]? = nil
        guard threads > 1 else {
            walk(Folder(path: root, prefix: "", depth: 0), follow: follow, within: within, seen: &seen, into: &result, deferring: &now)
            return result
        }
        // Breadth first until there are folders enough to share out.
        var pending = [Folder(path: root, prefix: "", depth: 0)]
        while let first = pending.first, pending.count < threads * 8, first.depth < 3 {
            pending.removeFirst()
            var deferred: [Folder]? = []
            walk(first, follow: follow, within: within, seen: &seen, into: &result, deferring: &deferred)
            pending += deferred ?? []
        }
        let lock = NSLock()
        var next = 0
        var listings = [[Entry]](repeating: [], count: pending.count)
        let start = seen
        DispatchQueue.concurrentPerform(iterations: min(threads, max(1, pending.count))) { _ in
            while true {
                let index: Int = lock.withLock {
                    defer { next += 1 }
                    return next
                }
                guard index < pending.count else { return }
                let folder = pending[index]
                var seen = start, listing: [Entry] = [], now: [Folder]? = nil
                walk(folder, follow: follow, within: within, seen: &seen, into: &listing, deferring: &now)
                lock.withLock { listings[index] = listing }
            }
        }
        for listing in listings { result += listing }
        return result
    }

    private struct Folder {
        var path: String
        var prefix: String
        var depth: Int
    }

    /// Lists `folder`; its subfolders are walked at once, or appended to `subfolders` when given.
    private static func walk(_ folder: Folder, follow: Bool, within: String?, seen: inout Set<[UInt64]>, into result: inout [Entry],
                             deferring subfolders: inout [Folder]?) {
        guard folder.depth < 64 else { return }
        guard let dir = opendir(folder.path) else {
            if errno == EACCES {
                result.append(Entry(path: String(folder.prefix.dropLast()), size: -1, modified: -1, isRegular: false, unreadable: true))
            }
            return
        }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            // Relative to the open folder: the kernel does not walk the whole path again. By the
            // name's own bytes: one that is not UTF-8 reads with U+FFFD in it, and is listed so.
            let found = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    fstatat(dirfd(dir), $0, &info, follow ? 0 : AT_SYMLINK_NOFOLLOW) == 0
                }
            }
            guard found else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR, isMisread(name) {
                // Not opened (its name as read is not its name): listed, so it is seen.
                result.append(Entry(path: folder.prefix + name, size: -1, modified: -1, isRegular: false))
            } else if kind == S_IFDIR {
                // A real folder (the listing says so: no lstat) is inside; a link is resolved.
                if follow, let within, entry.pointee.d_type != UInt8(DT_DIR), !isInside(folder.path + "/" + name, within) { continue }
                guard seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
                let sub = Folder(path: folder.path + "/" + name, prefix: folder.prefix + name + "/", depth: folder.depth + 1)
                if subfolders != nil {
                    subfolders!.append(sub)
                } else {
                    walk(sub, follow: follow, within: within, seen: &seen, into: &result, deferring: &subfolders)
                }
            } else {
                result.append(Entry(path: folder.prefix + name, size: Int64(info.st_size),
                                    modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                                    isRegular: kind == S_IFREG, isLink: entry.pointee.d_type == UInt8(DT_LNK),
                                    changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
                                    inode: UInt64(info.st_ino)))
            }
        }
    }

    /// Whether a folder reached through links resolves inside `root`; asked only for links.
    private static func isInside(_ path: String, _ root: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return true }
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        let real = String(cString: resolved)
        return real == root || real.hasPrefix(root == "/" ? "/" : root + "/")
    }
}
