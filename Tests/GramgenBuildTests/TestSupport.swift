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

    /// Removes test folders, and the spare folder a build keeps beside an output (`Spare`).
    static func remove(_ urls: URL...) {
        for url in urls {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).spare"))
        }
    }

    /// Builds a site quietly into `output`. Without `cache`, the image cache is a temporary folder
    /// removed after the build, so tests leave no caches behind. (Builds do not share one: each
    /// build prunes its cache to what it used, which would pull files from under a build of another
    /// site running at the same time.)
    /// `memory` is what a `gramgen serve` process keeps between its builds.
    static func build(site: URL, output: URL, cache: URL? = nil, strict: Bool = false, memory: BuildMemory? = nil,
                      configure: (inout BuildOptions) -> Void = { _ in }) throws -> BuildReport {
        var options = BuildOptions(siteRoot: site, output: output)
        let temporaryCache = cache == nil ? try temporaryFolder("gramgen-cache") : nil
        defer { if let temporaryCache { try? FileManager.default.removeItem(at: temporaryCache) } }
        options.cacheDirectory = cache ?? temporaryCache!
        options.verbosity = .quiet
        options.strict = strict
        configure(&options)
        let report = BuildPipeline(options: options, console: Console(verbosity: .quiet, isTerminal: false), memory: memory).run()
        memory?.settle()  // as `gramgen serve` does after each build
        return report
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

/// Real media made on the spot with the same FFmpeg the build uses (and exiftool to read it back).
enum MediaTools {
    /// Runs a program to the end; its standard output, or an error with its standard error.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + program)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey:
                "\(program) \(arguments.joined(separator: " ")) failed: \(String(decoding: problem, as: UTF8.self))"])
        }
        return data
    }

    /// `ffmpeg -y <arguments>`, quiet.
    static func ffmpeg(_ arguments: [String]) throws {
        try run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments)
    }

    /// A test clip: `size` (e.g. "640x360"), `seconds` long, with a tone when `audio`.
    static func clip(_ url: URL, size: String, seconds: Double, audio: Bool, inputs: [String] = [], extra: [String] = []) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var arguments = ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=\(seconds)"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)"] }
        arguments += inputs + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        if audio { arguments += ["-c:a", "aac", "-b:a", "64k"] }
        try ffmpeg(arguments + extra + [url.path])
    }

    /// ffprobe's JSON of a file's streams and format, tags and side data included.
    static func probe(_ url: URL) throws -> [String: Any] {
        let data = try run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", url.path])
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
