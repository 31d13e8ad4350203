import Foundation
import GramgenCore

/// The output folder is replaced whole by every build, so it must never be the site itself, its
/// content, templates, static files or image cache, nor a folder that contains them. Nor may it
/// lie inside content/, templates/ or static/: the next build would read its own output as input
/// (and `gramgen serve` would rebuild for ever).
enum OutputGuard {
    static func problem(output: URL, siteRoot: URL, cache: URL? = nil) -> Diagnostic? {
        let out = real(output)
        let root = real(siteRoot)
        let inputs = ["content", "templates", "static"].map { root + "/" + $0 }
        let protected = [root] + inputs + (cache.map { [real($0)] } ?? [])
        for path in protected where path == out || path.hasPrefix(out == "/" ? "/" : out + "/") {
            return .error(SourceLocation("--output"), "the output folder \(output.path) would replace \(path)",
                          hint: "choose a separate folder, e.g. --output \(root)/public")
        }
        for path in inputs where out.hasPrefix(path + "/") {
            return .error(SourceLocation("--output"), "the output folder \(output.path) is inside \(path)",
                          hint: "choose a folder outside it, e.g. --output \(root)/public")
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
