import Foundation

/// Lists a folder tree with readdir and one stat per entry — the up-to-date check walks tens of
/// thousands of files on every build, and Foundation's enumerator costs several times more.
enum FolderWalk {
    struct Entry {
        var path: String
        var size: Int64
        var modified: Int64
        var isRegular: Bool
    }

    /// Every non-folder entry below `root` (relative paths, unsorted); nil when `root` is not a folder.
    /// With `follow`, links are followed (to files and folders) like the build reads them; a folder
    /// reached twice (a link loop) is listed once, and the walk stops 64 folders deep.
    static func entries(_ root: String, follow: Bool) -> [Entry]? {
        var info = stat()
        guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        var result: [Entry] = []
        var seen: Set<[UInt64]> = [[UInt64(info.st_dev), UInt64(info.st_ino)]]
        walk(root, prefix: "", follow: follow, depth: 0, seen: &seen, into: &result)
        return result
    }

    private static func walk(_ folder: String, prefix: String, follow: Bool, depth: Int, seen: inout Set<[UInt64]>,
                             into result: inout [Entry]) {
        guard depth < 64, let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            // Relative to the open folder: the kernel does not walk the whole path again.
            guard fstatat(dirfd(dir), name, &info, follow ? 0 : AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                guard seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
                walk(folder + "/" + name, prefix: prefix + name + "/", follow: follow, depth: depth + 1, seen: &seen, into: &result)
            } else {
                result.append(Entry(path: prefix + name, size: Int64(info.st_size),
                                    modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                                    isRegular: kind == S_IFREG))
            }
        }
    }
}
