import Foundation
import GramgenCore

/// The files of `static/` that are published, found and checked before anything is written, the
/// same way for `gramgen build` and `gramgen serve`. A link to a file inside the site is published
/// as that file; a link that leads out of the site, a link to a folder, a FIFO, socket or device,
/// and a name that is not UTF-8 are errors naming the entry, never silently skipped or followed.
struct StaticFiles {
    struct File: Sendable {
        /// The path below `static/`, which is also its path in the output.
        var relative: String
        /// Where to copy it from (links resolved).
        var source: String
    }

    private(set) var files: [File] = []

    init(siteRoot: URL, diagnostics: inout Diagnostics) {
        let folder = siteRoot.appendingPathComponent("static").path
        var info = stat()
        guard lstat(folder, &info) == 0 else { return }
        let root = siteRoot.resolvingSymlinksInPath().path
        walk(folder, relative: "", root: root, depth: 0, diagnostics: &diagnostics)
        files.sort { $0.relative < $1.relative }
    }

    private mutating func walk(_ folder: String, relative: String, root: String, depth: Int, diagnostics: inout Diagnostics) {
        let shown = "static/" + relative
        guard depth < 32 else {
            diagnostics.error(SourceLocation(shown), "static/ is nested more than 32 folders deep here", hint: "flatten the folders")
            return
        }
        guard let dir = opendir(folder) else {
            diagnostics.error(SourceLocation(shown), "cannot read the folder: \(String(cString: strerror(errno)))",
                              hint: "check its permissions (chmod u+rx)")
            return
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                let visible = String(decoding: bytes, as: UTF8.self)
                diagnostics.error(SourceLocation(shown + visible), "the file name is not valid UTF-8",
                                  hint: "rename the file; web addresses need UTF-8 names")
                continue
            }
            if name != "." && name != ".." { names.append(name) }
        }
        for name in names.sorted() {
            let path = folder + "/" + name, inside = relative + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            var source = path
            if info.st_mode & S_IFMT == S_IFLNK {
                guard let resolved = realpath(path, nil) else {
                    diagnostics.error(SourceLocation("static/" + inside), "the link leads nowhere", hint: "remove the link or fix its target")
                    continue
                }
                source = String(cString: resolved)
                free(resolved)
                guard source.hasPrefix(root == "/" ? "/" : root + "/") else {
                    diagnostics.error(SourceLocation("static/" + inside), "this is a link to a file outside the site",
                                      hint: "copy the file into static/ instead of linking to it")
                    continue
                }
                guard stat(source, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
                    diagnostics.error(SourceLocation("static/" + inside), "this is a link to a folder, which static/ does not follow",
                                      hint: "copy the folder into static/ instead of linking to it")
                    continue
                }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                walk(path, relative: inside + "/", root: root, depth: depth + 1, diagnostics: &diagnostics)
            case S_IFREG:
                guard access(source, R_OK) == 0 else {
                    let failure = InputFile.Failure.unreadable(String(cString: strerror(errno)))
                    diagnostics.error(SourceLocation("static/" + inside), failure.message, hint: failure.hint)
                    continue
                }
                files.append(File(relative: inside, source: source))
            default:
                if case .failure(let failure) = InputFile.check(atPath: source) {
                    diagnostics.error(SourceLocation("static/" + inside), failure.message, hint: failure.hint)
                }
            }
        }
    }
}
