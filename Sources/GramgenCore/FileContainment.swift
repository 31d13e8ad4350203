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

    /// Whether the entry itself (not what it points to) is a symbolic link.
    public static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}
