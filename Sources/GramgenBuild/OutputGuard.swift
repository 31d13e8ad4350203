import Foundation
import GramgenCore

/// What must hold before a build reads or writes anything:
///  - the input folders (`content/`, `templates/`, `static/`) are not links out of the site, so a
///    `templates/` linked to `~/.ssh` is never published;
///  - the folders gramgen writes and deletes in (`.gramgen/` and everything in it) are real
///    folders, not links: a `.gramgen/cache/media` linked anywhere would have its files pruned;
///  - the output is not the site itself, its inputs or its cache, nor a folder inside the inputs
///    (the next build would read its own output); it is not a link (it is replaced whole, and the
///    link with it); and it is new, empty or a folder gramgen made (`OutputMarker`), so an
///    existing folder such as `~/Documents` is never swapped out and deleted.
enum OutputGuard {
    /// The folders gramgen writes and deletes in, relative to the site root.
    static let ownFolders = [".gramgen", ".gramgen/cache", ".gramgen/cache/media", ".gramgen/cache/builds", ".gramgen/cache/posts",
                             ".gramgen/serve"]
    /// The folders gramgen reads, relative to the site root.
    static let inputFolders = ["content", "templates", "static"]

    static func problems(options: BuildOptions, manifestURL: URL) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for folder in inputFolders {
            if let link = FileContainment.linkOutside(folder, root: options.siteRoot) {
                problems.append(.error(SourceLocation(link), "this is a link to a folder outside the site",
                                       hint: "move the folder into the site instead of linking to it"))
            }
        }
        for folder in ownFolders {
            let path = options.siteRoot.appendingPathComponent(folder).path
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFLNK:
                problems.append(.error(SourceLocation(folder), "this is a symbolic link, but gramgen writes and deletes files here",
                                       hint: "remove the link; gramgen makes the folder again"))
            default:
                problems.append(.error(SourceLocation(folder), "this is a file, but gramgen keeps its cache in a folder of this name",
                                       hint: "move the file away; gramgen makes the folder"))
            }
            break
        }
        if let problem = outputProblem(options: options, manifestURL: manifestURL) { problems.append(problem) }
        return problems
    }

    private static func outputProblem(options: BuildOptions, manifestURL: URL) -> Diagnostic? {
        let output = options.output
        let out = real(output)
        let root = real(options.siteRoot)
        let inputs = inputFolders.map { root + "/" + $0 }
        let protected = [root] + inputs + [real(options.cacheDirectory)]
        for path in protected where path == out || path.hasPrefix(out == "/" ? "/" : out + "/") {
            return .error(SourceLocation("--output"), "the output folder \(output.path) would replace \(path)",
                          hint: "choose a separate folder, e.g. --output \(root)/public")
        }
        for path in inputs where out.hasPrefix(path + "/") {
            return .error(SourceLocation("--output"), "the output folder \(output.path) is inside \(path)",
                          hint: "choose a folder outside it, e.g. --output \(root)/public")
        }
        if FileContainment.isLink(output.path) {
            let target = output.resolvingSymlinksInPath().path
            return .error(SourceLocation(output.path), "the output folder is a symbolic link to \(target); every build replaces the output folder whole, and would replace the link",
                          hint: "give the link's target as the output instead (--output \(target)), or remove the link")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output.path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else {
            return .error(SourceLocation(output.path), "the output path is a file, not a folder",
                          hint: "choose another --output, or move the file away")
        }
        // The preview's private folder (in `.gramgen/`) is gramgen's own and updated in place. An
        // output without the marker (an older gramgen's) only when it is the very folder the last
        // build's record names: one put in its place (the output deleted, someone's own folder
        // moved there) would be swapped out as the spare, and what is in it published later.
        if options.publishInPlace || OutputMarker.isPresent(in: output)
            || UpToDateCheck(options: options).recordedOutput.map({ $0 == UpToDateCheck.folderStamp(output) }) == true { return nil }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        guard entries.isEmpty else {
            return .error(SourceLocation(output.path), "the output folder exists, is not empty and was not made by gramgen; every build replaces the output folder whole, which would delete its files",
                          hint: "choose a new or empty folder as --output, or move this folder's files away first")
        }
        return nil
    }

    /// The absolute path with links resolved, also for a path whose last parts do not exist yet.
    private static func real(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            missing.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        var path = existing.resolvingSymlinksInPath().standardizedFileURL.path
        for part in missing { path = (path == "/" ? "" : path) + "/" + part }
        return path
    }
}

/// The file that says "gramgen made this folder": written into every output (and every staging
/// folder, before anything else), it is what lets a build replace or clean up a folder. Its
/// bytes never change, so builds stay byte-identical.
enum OutputMarker {
    static let name = ".gramgen-output"
    static let text = "This folder is written by gramgen build. Every build replaces it whole: keep no other files here.\n"

    static func isPresent(in folder: URL) -> Bool {
        var info = stat()
        return lstat(folder.appendingPathComponent(name).path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Writes the marker anew: whatever is in its place (a link, a pipe) is removed, never
    /// written through or waited on.
    static func write(into folder: URL) throws {
        let path = folder.appendingPathComponent(name).path
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError.current(path) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Foundation.write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError.current(path) }
    }
}
