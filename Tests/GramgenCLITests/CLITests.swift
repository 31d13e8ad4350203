import Foundation
import Testing

/// Runs the real `gramgen` binary: help texts (snapshots), exit codes and messages.
/// Re-record the help snapshots with RECORD_GOLDEN=1.
struct CLITests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../GramgenBuildTests/Fixtures").standardizedFileURL

    /// The binary sits beside the test bundle in the build products folder.
    static var binary: URL {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("gramgen").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("gramgen")
    }

    /// Runs gramgen with `arguments`; `launcher` (a command and its arguments) runs it instead.
    static func run(_ arguments: [String], environment extra: [String: String] = [:],
                    launcher: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "100"
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test("help texts explain every option", arguments: [["--help"], ["build", "--help"], ["serve", "--help"], ["init", "--help"],
                                                        ["new", "user", "--help"], ["new", "post", "--help"],
                                                        ["import", "--help"], ["import", "instagram", "--help"]])
    func help(_ arguments: [String]) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 0)
        let name = arguments.joined(separator: "_").replacingOccurrences(of: "-", with: "") + ".txt"
        let url = Self.snapshots.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
            try result.stdout.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(result.stdout == (try String(contentsOf: url, encoding: .utf8)))
    }

    @Test("build --help names every option of the spec's build line")
    func buildOptions() throws {
        let help = try Self.run(["build", "--help"]).stdout
        for option in ["--site", "--output", "--base-url", "--drafts", "--strict", "--jobs", "--quiet", "--verbose"] {
            #expect(help.contains(option), "\(option) missing")
        }
    }

    @Test("bad usage exits 2")
    func badUsage() throws {
        #expect(try Self.run(["build", "--no-such-option"]).status == 2)
        #expect(try Self.run(["build", "--jobs", "0"]).status == 2)
        #expect(try Self.run(["build", "--quiet", "--verbose"]).status == 2)
    }

    /// A fixture site's content in a temporary folder, to build: a build in the fixture itself
    /// leaves its cache there, which other tests copying the fixture at that moment met
    /// half-written.
    static func copyOfFixture(_ name: String) throws -> URL {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("cli-site-\(UUID())")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name).appendingPathComponent("content"),
                                         to: site.appendingPathComponent("content"))
        return site
    }

    @Test("a site with errors exits 1 and lists them on stderr")
    func siteErrors() throws {
        let site = try Self.copyOfFixture("invalid/following-unknown-user")
        defer { try? FileManager.default.removeItem(at: site) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID())")
        let result = try Self.run(["build", "--site", site.path, "--output", output.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("content/users/ann/profile.md:3:18: error: 'anne' in 'following' is not a user of this site — did you mean 'ann'?"))
        #expect(result.stderr.contains("Build failed with 2 errors"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("a good site exits 0 and says what it built")
    func success() throws {
        let site = try Self.copyOfFixture("sites/basic")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID())")
        defer { try? FileManager.default.removeItem(at: output); try? FileManager.default.removeItem(at: site) }
        let result = try Self.run(["build", "--site", site.path, "--output", output.path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("Built 37 pages"), "home ×2, 2 profiles × 10 pages, 3 posts and their likers, tags ×5 (a bio-only tag has none), explore, people, search, 404")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path))
    }

    /// gramgen does not link libvips: it opens it when the first photo is processed (VipsCalls.h).
    /// A library that cannot be opened (here a file in its place, found first through
    /// LD_LIBRARY_PATH) is reported on the photo that needed it; a build that processes no photo
    /// never opens it.
    @Test("libvips is opened only when a photo is processed, and a missing one is reported")
    func libvipsOpenedWhenNeeded() throws {
        let site = try Self.copyOfFixture("sites/basic")
        let output = site.appendingPathComponent("public")
        let fake = FileManager.default.temporaryDirectory.appendingPathComponent("cli-novips-\(UUID())")
        defer { try? FileManager.default.removeItem(at: site); try? FileManager.default.removeItem(at: fake) }
        try FileManager.default.createDirectory(at: fake, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: fake.appendingPathComponent("libvips.so.42"))
        let withoutVips = ["LD_LIBRARY_PATH": fake.path]
        let build = ["build", "--site", site.path, "--output", output.path]

        let failed = try Self.run(build, environment: withoutVips)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("content/users/alice/avatar.jpg: error: libvips cannot be opened: \(fake.path)/libvips.so.42: "))
        #expect(failed.stderr.contains("install libvips (apt-get install libvips42)"))
        #expect(!FileManager.default.fileExists(atPath: output.path))

        #expect(try Self.run(build).status == 0)
        let post = site.appendingPathComponent("content/users/alice/posts/2024-06-01-market/post.md")
        try Data((try String(contentsOf: post, encoding: .utf8) + "\nA line added without libvips\n").utf8).write(to: post)
        let edited = try Self.run(build, environment: withoutVips)
        #expect(edited.status == 0, "\(edited.stderr)")
        let page = try String(contentsOf: output.appendingPathComponent("alice/p/2024-06-01-market/index.html"), encoding: .utf8)
        #expect(page.contains("A line added without libvips"))
    }

    /// gramgen allocates through jemalloc with the settings compiled into it (Allocator.c), in
    /// the binary itself, not only where a test links it: jemalloc lists the settings it runs with
    /// when asked to print its statistics at exit.
    @Test("the process runs on jemalloc with gramgen's settings")
    func allocator() throws {
        let result = try Self.run(["--version"], environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("opt.narenas: 2\n"), "\(result.stderr.prefix(400))")
        #expect(result.stderr.contains("opt.dirty_decay_ms: 1000"))
        #expect(result.stderr.contains("opt.muzzy_decay_ms: 0"))
        // Not asked for in huge pages (a build after some seconds of quiet 1.33-1.37x as long with them).
        #expect(result.stderr.contains("opt.thp: \"default\""))
        #expect(result.stderr.contains("opt.metadata_thp: \"disabled\""))
    }

    /// Where the process may use fewer CPUs than the machine has (taskset, a container's cpuset),
    /// jemalloc's per-CPU arenas would be turned off with a warning on stderr at every start:
    /// gramgen's settings do not use them, so it starts silently there too.
    @Test("the allocator says nothing when the process is bound to one CPU")
    func allocatorOnOneCPU() throws {
        let taskset = "/usr/bin/taskset"
        try #require(FileManager.default.isExecutableFile(atPath: taskset), "util-linux's taskset")
        let result = try Self.run(["--version"], launcher: [taskset, "-c", "0"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
    }

    @Test("the output may not be the site or its content")
    func outputGuard() throws {
        let site = Self.fixtures.appendingPathComponent("sites/basic")
        let result = try Self.run(["build", "--site", site.path, "--output", site.appendingPathComponent("content").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--output: error: the output folder"))
    }
}
