import Foundation
import Testing

/// "Nothing lost": the real `gramgen build` is killed with SIGKILL at many moments (from process
/// start to the publish step) over an output that holds a previous build. After each kill the
/// output must be exactly the previous build or exactly the new one, never a mix, never missing.
/// Then a normal build succeeds and leaves no `.public.building-*` behind (only the spare).
@Suite(.serialized)
struct KillTests {
    typealias Tree = [String: Data]
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("GramgenBuildTests/Fixtures")

    @Test("SIGKILL at any moment leaves the previous output whole")
    func killedBuilds() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site"), output = work.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("sites/basic"), to: site)

        // The previous build, then a change, and the build it leads to (made elsewhere, for reference).
        try expectBuild(site: site, output: output)
        let previous = try Self.tree(output)
        let post = site.appendingPathComponent("content/users/alice/posts/2024-06-01-market/post.md")
        try (String(contentsOf: post, encoding: .utf8) + "\nEdited after the first build. #edited\n")
            .write(to: post, atomically: true, encoding: .utf8)
        let reference = work.appendingPathComponent("reference")
        let started = Date()
        try expectBuild(site: site, output: reference, freshCache: true)
        let fullBuild = Date().timeIntervalSince(started)
        let next = try Self.tree(reference)
        #expect(next != previous)

        // Fixed delays, moments spread over a whole build, and "while images are processed".
        var moments: [Moment] = [5, 20, 50, 100, 200].map { .after($0) }
        // (More early moments than the swap needs: a killed build may run faster than the reference did.)
        moments += [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.82, 0.84, 0.86, 0.88, 0.9, 0.92, 0.95, 0.98, 1.0].map { .after(Int(fullBuild * 1000 * $0)) }
        moments.append(.whenImagesAreProcessed)
        var outcomes: [String] = []
        for moment in moments {
            let kept = try killedBuild(site: site, output: output, at: moment)
            let tree = try Self.tree(output)
            let state = tree == previous ? "previous" : tree == next ? "new" : "MIXED"
            outcomes.append("\(moment): \(kept ? "killed" : "finished"), output \(state)")
            #expect(state != "MIXED", "output changed by a build killed \(moment)")
            if state == "new" {  // the build got through the swap: put the previous output back for the next kill
                try FileManager.default.removeItem(at: output)
                try Self.write(previous, to: output)
            }
        }
        print("KillTests: full build \(String(format: "%.2f", fullBuild)) s\n  " + outcomes.joined(separator: "\n  "))
        #expect(outcomes.filter { $0.contains("killed") }.count >= 10)

        // A normal build now succeeds, gives the new site, and cleans up what the killed ones left.
        try expectBuild(site: site, output: output, freshCache: true)
        #expect(try Self.tree(output) == next)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".public.") && $0 != ".public.spare" }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("a leftover of a killed build is removed by the next build, one of a running build is kept")
    func leftoversOfDeadBuilds() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-left-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site"), output = work.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("invalid/following-unknown-user"), to: site)
        // pid 2^22 + 1 is above Linux's pid_max limit, so no process has it; our own parent runs.
        let dead = work.appendingPathComponent(".public.building-4194305")
        let alive = work.appendingPathComponent(".public.building-\(getppid())")
        // A folder of someone else's that happens to have a leftover's name: no marker, not empty.
        let stranger = work.appendingPathComponent(".public.building-4194306")
        for folder in [dead, alive, stranger] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("media"), withIntermediateDirectories: true)
        }
        for folder in [dead, alive] {
            try Data("gramgen".utf8).write(to: folder.appendingPathComponent(".gramgen-output"))
        }
        _ = try CLITests.run(["build", "--site", site.path, "--output", output.path, "--quiet"])  // fails: the site has errors
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: alive.path))
        #expect(FileManager.default.fileExists(atPath: stranger.appendingPathComponent("media").path))
    }

    enum Moment: CustomStringConvertible {
        case after(Int)
        case whenImagesAreProcessed

        var description: String {
            switch self {
            case .after(let ms): "after \(ms) ms"
            case .whenImagesAreProcessed: "while images are processed"
            }
        }
    }

    /// Starts a build with an empty image cache (so it has real work to do) and kills it at `moment`.
    /// Returns whether it was still running when killed.
    private func killedBuild(site: URL, output: URL, at moment: Moment) throws -> Bool {
        try? FileManager.default.removeItem(at: site.appendingPathComponent(".gramgen"))
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["build", "--site", site.path, "--output", output.path, "--jobs", "2"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        switch moment {
        case .after(let ms):
            usleep(useconds_t(ms * 1000))
        case .whenImagesAreProcessed:
            var seen = Data()
            while process.isRunning, !String(decoding: seen, as: UTF8.self).contains("Processing images") {
                let chunk = stderr.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen += chunk
            }
        }
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return wasRunning && process.terminationReason == .uncaughtSignal
    }

    private func expectBuild(site: URL, output: URL, freshCache: Bool = false) throws {
        if freshCache { try? FileManager.default.removeItem(at: site.appendingPathComponent(".gramgen")) }
        let result = try CLITests.run(["build", "--site", site.path, "--output", output.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Every file below `root` (path → bytes), and every folder as an empty entry.
    static func tree(_ root: URL) throws -> Tree {
        var tree: Tree = [:]
        guard FileManager.default.fileExists(atPath: root.path) else { return ["<missing>": Data()] }
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return ["<missing>": Data()] }
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(path).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
            tree[isDirectory.boolValue ? path + "/" : path] = isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return tree
    }

    static func write(_ tree: Tree, to root: URL) throws {
        for (path, data) in tree.sorted(by: { $0.key < $1.key }) {
            let url = root.appendingPathComponent(path)
            if path.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } else {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            }
        }
    }
}
