import Foundation
@testable import GramgenBuild

/// Paths and helpers shared by the build tests.
enum TestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder(_ name: String = "gramgen-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Builds a site quietly into `output`, with its cache in a temporary folder.
    static func build(site: URL, output: URL, cache: URL? = nil, strict: Bool = false,
                      configure: (inout BuildOptions) -> Void = { _ in }) throws -> BuildReport {
        var options = BuildOptions(siteRoot: site, output: output)
        options.cacheDirectory = try cache ?? temporaryFolder("gramgen-cache")
        options.verbosity = .quiet
        options.strict = strict
        configure(&options)
        return BuildPipeline(options: options, console: Console(verbosity: .quiet, isTerminal: false)).run()
    }

    /// Every regular file below `root`, as relative paths, sorted.
    static func files(in root: URL) -> [String] {
        let base = root.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }
}
