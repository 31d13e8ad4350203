import Foundation

/// Whether a file, after following every symbolic link, still lies inside a folder. A site's
/// files may be links, but a link out of `content/` or `templates/` (to `~/.ssh/id_rsa`, say)
/// would publish whatever it points at, so such links are refused, not followed.
public enum FileContainment {
    public static func isInside(_ url: URL, _ folder: URL) -> Bool {
        let real = url.resolvingSymlinksInPath().standardizedFileURL.path
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        return real.hasPrefix(root == "/" ? "/" : root + "/")
    }

    /// The first symbolic link on the way from `root` to `relativePath` (the path itself
    /// included) that leads out of `root`, as a path relative to `root`; nil when every part of
    /// the path that exists stays inside. Folders count as much as files: a `templates/` that
    /// links to `~/.ssh` would publish its files, and a `.gramgen/cache` that links elsewhere
    /// would have gramgen delete files there.
    public static func linkOutside(_ relativePath: String, root: URL) -> String? {
        let realRoot = root.resolvingSymlinksInPath().standardizedFileURL.path
        var current = root.standardizedFileURL.path
        var relative: [String] = []
        for part in relativePath.split(separator: "/").map(String.init) {
            current += "/" + part
            relative.append(part)
            var info = stat()
            guard lstat(current, &info) == 0 else { return nil }
            guard info.st_mode & S_IFMT == S_IFLNK else { continue }
            let resolved = URL(fileURLWithPath: current).resolvingSymlinksInPath().standardizedFileURL.path
            if resolved != realRoot, !resolved.hasPrefix(realRoot == "/" ? "/" : realRoot + "/") {
                return relative.joined(separator: "/")
            }
        }
        return nil
    }

    /// Whether the open file or folder `fd` (opened, perhaps through links, at `path`) lies inside `root`: asked of
    /// the folder that was opened, by where the kernel says it is, so a link or a folder above it
    /// changed since it was listed cannot lead the walk out. Not inside when that cannot be told.
    public static func isInside(descriptor fd: Int32, path: String, _ root: String) -> Bool {
        var bytes = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = readlink("/proc/self/fd/\(fd)", &bytes, bytes.count)
        if count > 0, count < bytes.count {
            return isInside(bytes[..<count], root)
        }
        // Without /proc: the path resolved, and the open folder must be the one found there.
        guard count < 0, errno == ENOENT, let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        var info = stat(), opened = stat()
        guard stat(resolved, &info) == 0, fstat(fd, &opened) == 0, info.st_dev == opened.st_dev, info.st_ino == opened.st_ino else {
            return false
        }
        return isInside(UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) }[...], root)
    }

    private static func isInside(_ real: ArraySlice<UInt8>, _ root: String) -> Bool {
        let root = Array(root.utf8)
        guard root != [UInt8(ascii: "/")] else { return real.first == UInt8(ascii: "/") }
        return real.starts(with: root) && (real.count == root.count || real[real.startIndex + root.count] == UInt8(ascii: "/"))
    }


    /// Whether the entry itself (not what it points to) is a symbolic link.
    public static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}
