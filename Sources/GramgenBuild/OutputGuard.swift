import Foundation
import GramgenCore

/// The output folder is replaced whole by every build, so it must never be the site itself,
/// its content, or a folder that contains them.
enum OutputGuard {
    static func problem(output: URL, siteRoot: URL) -> Diagnostic? {
        let out = output.resolvingSymlinksInPath().standardizedFileURL.path
        let root = siteRoot.resolvingSymlinksInPath().standardizedFileURL.path
        let protected = [root] + ["content", "templates", "static"].map { root + "/" + $0 }
        for path in protected where path == out || path.hasPrefix(out == "/" ? "/" : out + "/") {
            return .error(SourceLocation("--output"), "the output folder \(output.path) would replace \(path)",
                          hint: "choose a separate folder, e.g. --output \(root)/public")
        }
        return nil
    }
}
