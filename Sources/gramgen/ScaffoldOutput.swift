import ArgumentParser
import Foundation
import GramgenScaffold

/// How `init` and `new` report: one `created PATH` line per file, and `error: …` with exit 1.
enum ScaffoldOutput {
    static func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ScaffoldError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    static func list(_ created: [URL], cwd: URL) {
        for url in created {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            print("created \(relative(url, to: cwd))\(isFolder.boolValue ? "/" : "")")
        }
    }

    static func relative(_ url: URL, to base: URL) -> String {
        let path = url.standardizedFileURL.path, basePath = base.standardizedFileURL.path
        if path == basePath { return "." }
        if path.hasPrefix(basePath + "/") { return String(path.dropFirst(basePath.count + 1)) }
        return path
    }
}
