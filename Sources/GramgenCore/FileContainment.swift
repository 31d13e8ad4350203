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
}
