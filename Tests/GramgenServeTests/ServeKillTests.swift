import Foundation
import Testing
@testable import GramgenBuild
#if canImport(Glibc)
import Glibc
#endif

/// The preview's own folder (`.gramgen/serve`) is updated in place, file by file, each file
/// swapped with its spare or replaced by a rename. What is guaranteed when `gramgen serve` is killed (SIGKILL) in the middle
/// of a rebuild: every file in the folder is whole (old or new), and the next start makes the
/// folder exactly what a preview of the site from scratch holds.
@Suite(.serialized)
struct ServeKillTests {
    typealias Tree = [String: Data]
    static let page = "/alice/p/2024-06-01-market/"

    @Test("serve killed during an in-place rebuild: the next start leaves the folder exact")
    func killedRebuilds() throws {
        let port = RawHTTP.freePort()
        let reference = try ServeEndToEndTests.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: reference) }
        try Self.edit(reference)
        let expected = try Self.serveOnce(reference, port: port, until: "Dinner by the river.")
        #expect(expected.count > 20)

        var outcomes: [String] = []
        // The watcher waits 150 ms after a change; the rebuild follows: most kills land inside it.
        for delay in [0, 100, 150, 165, 180, 195, 210, 225, 240, 260, 280, 300, 330, 360, 400, 600] {
            let site = try ServeEndToEndTests.copyOfFixture()
            defer { try? FileManager.default.removeItem(at: site) }
            let log = site.appendingPathComponent("serve.log")
            let process = try ServeEndToEndTests.launch(["serve", "--site", site.path, "--port", String(port)], log: log)
            try #require(Self.wait(port: port, for: "Lunch.", while: process), "first build: \(Self.text(log))")
            try Self.edit(site)
            usleep(useconds_t(delay * 1000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            outcomes.append("killed \(delay) ms after the edit")
            let tree = try Self.serveOnce(site, port: port, until: "Dinner by the river.")
            #expect(tree == expected, "killed \(delay) ms after the edit: \(Self.difference(tree, expected))")
        }
        print(outcomes.joined(separator: "\n"))
    }

    @Test("a FIFO dropped into the site under serve is an error; later rebuilds run and Ctrl-C ends it")
    func fifoUnderServe() throws {
        let site = try ServeEndToEndTests.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: site) }
        let port = RawHTTP.freePort()
        let log = site.appendingPathComponent("serve.log")
        let process = try ServeEndToEndTests.launch(["serve", "--site", site.path, "--port", String(port)], log: log)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try #require(Self.wait(port: port, for: "Lunch.", while: process), "first build: \(Self.text(log))")

        let fifo = site.appendingPathComponent("content/users/alice/posts/2024-06-01-market/9.jpg")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let started = Date()
        while !Self.text(log).contains("named pipe (FIFO)") && Date().timeIntervalSince(started) < 30 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(Self.text(log).contains("9.jpg: error: the file is a named pipe (FIFO), not a regular file"), "\(Self.text(log))")
        #expect(RawHTTP.get(port: port, path: Self.page)?.body.contains("Lunch.") == true, "the last good site is still served")

        try FileManager.default.removeItem(at: fifo)
        try Self.edit(site)
        #expect(Self.wait(port: port, for: "Dinner by the river.", while: process), "no rebuild after the FIFO went: \(Self.text(log))")
        kill(process.processIdentifier, SIGINT)
        #expect(ServeEndToEndTests.waitForExit(process, seconds: 10), "still running after Ctrl-C")
        #expect(process.terminationStatus == 0)
    }

    static func edit(_ site: URL) throws {
        let post = site.appendingPathComponent("content/users/alice/posts/2024-06-01-market/post.md")
        let text = try String(contentsOf: post, encoding: .utf8)
        try text.replacingOccurrences(of: "Lunch.", with: "Dinner by the river. #edited").write(to: post, atomically: true, encoding: .utf8)
    }

    /// Starts serve, waits until the page shows `needle`, stops it with Ctrl-C; the folder's files.
    static func serveOnce(_ site: URL, port: Int, until needle: String) throws -> Tree {
        let log = site.appendingPathComponent("serve-\(UUID().uuidString).log")
        let process = try ServeEndToEndTests.launch(["serve", "--site", site.path, "--port", String(port)], log: log)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try #require(wait(port: port, for: needle, while: process), "never served \(needle): \(text(log))")
        process.interrupt()
        #expect(ServeEndToEndTests.waitForExit(process, seconds: 10))
        return try tree(site.appendingPathComponent(".gramgen/serve"))
    }

    static func wait(port: Int, for needle: String, while process: Process) -> Bool {
        let started = Date()
        while Date().timeIntervalSince(started) < 120 && process.isRunning {
            if let reply = RawHTTP.get(port: port, path: page), reply.status == 200, reply.body.contains(needle) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// The folder's files, without the spares of rewritten files (`Publisher.spare(of:)`, hidden
    /// and never served); each spare must sit beside its file.
    static func tree(_ root: URL) throws -> Tree {
        var files: Tree = [:], spares: [String] = []
        let base = root.standardizedFileURL.path
        for case let path as String in FileManager.default.enumerator(atPath: base) ?? NSEnumerator() {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                if Publisher.isSpare(path) {
                    spares.append(path)
                    continue
                }
                files[path] = try Data(contentsOf: URL(fileURLWithPath: base + "/" + path))
            }
        }
        let sparesOfFiles = Set(files.keys.map { Publisher.spare(of: $0) })
        for spare in spares { #expect(sparesOfFiles.contains(spare), "a spare without its file: \(spare)") }
        return files
    }

    static func difference(_ a: Tree, _ b: Tree) -> String {
        let keys = Set(a.keys).symmetricDifference(b.keys).sorted()
        let changed = a.keys.filter { b[$0] != nil && a[$0] != b[$0] }.sorted()
        return "only in one: \(keys.prefix(5)); different: \(changed.prefix(5))"
    }

    static func text(_ log: URL) -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}
