import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `gramgen serve` binary on a free port: edit a caption on disk, and the browser's event
/// stream hears `reload` and the new text is served, within 2 s; Ctrl-C ends it cleanly.
@Suite(.serialized)
struct ServeEndToEndTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../GramgenBuildTests/Fixtures/sites/basic").standardizedFileURL

    /// The binary sits beside the test bundle in the build products folder.
    static var binary: URL {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("gramgen").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("gramgen")
    }

    static func copyOfFixture() throws -> URL {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-e2e-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixture, to: site)
        return site
    }

    static func launch(_ arguments: [String], log: URL) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    static func waitForExit(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !process.isRunning
    }

    @Test("edit a caption: the new text is served and open pages reload within 2 s; Ctrl-C exits 0")
    func editReloads() throws {
        let site = try Self.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: site) }
        let port = RawHTTP.freePort()
        let log = site.appendingPathComponent("serve.log")
        let process = try Self.launch(["serve", "--site", site.path, "--port", String(port)], log: log)
        defer { if process.isRunning { process.terminate() } }
        func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        // The first build processes every image: allow for a slow debug build.
        let page = "/alice/p/2024-06-01-market/"
        var first: RawHTTP.Reply?
        let started = Date()
        while first?.status != 200 && Date().timeIntervalSince(started) < 120 && process.isRunning {
            Thread.sleep(forTimeInterval: 0.2)
            first = RawHTTP.get(port: port, path: page)
        }
        let reply = try #require(first, "server never answered: \(logText())")
        #expect(reply.status == 200)
        #expect(reply.body.contains("Lunch."))
        #expect(reply.body.contains("<script src=\"/_gramgen/live.js\"></script>"))
        // Built for the preview address, not site.yml's https://example.com/photos/.
        #expect(reply.body.contains("http://127.0.0.1:\(port)/"))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("public").path), "public/ is left alone")

        let events = try #require(EventStreamReader(port: port))
        defer { events.close() }
        #expect(events.waitFor(": connected", seconds: 5))

        let post = site.appendingPathComponent("content/users/alice/posts/2024-06-01-market/post.md")
        let original = try String(contentsOf: post, encoding: .utf8)
        try original.replacingOccurrences(of: "Lunch.", with: "Dinner by the river.").write(to: post, atomically: false, encoding: .utf8)
        let edited = Date()
        #expect(events.waitFor("event: reload", seconds: 2), "no reload within 2 s: \(logText())")
        let served = RawHTTP.get(port: port, path: page)
        let latency = Date().timeIntervalSince(edited)
        #expect(served?.body.contains("Dinner by the river.") == true)
        #expect(latency < 2, "edit to new page took \(latency) s")
        // Incremental: a caption edit processes no image again.
        let builds = logText().components(separatedBy: "\n").filter { $0.hasPrefix("Built ") }
        #expect(builds.count >= 2)
        let counts = try Regex(#"\((\d+) images?, (\d+) cached\)"#)
        if let last = builds.last, let match = last.firstMatch(of: counts) {
            #expect(match.output[1].substring == match.output[2].substring, "\(last)")
        } else {
            Issue.record("no build summary in \(builds)")
        }

        // A broken edit keeps the last good page and sends the error; the next good save clears it.
        try "---\nlocation: [unclosed\n---\nBroken".write(to: post, atomically: false, encoding: .utf8)
        #expect(events.waitFor("event: error", seconds: 3), "no error event: \(logText())")
        #expect(events.text.contains("2024-06-01-market/post.md:3:1: error: invalid YAML"))
        #expect(RawHTTP.get(port: port, path: page)?.body.contains("Dinner by the river.") == true)
        try original.write(to: post, atomically: false, encoding: .utf8)
        #expect(events.waitFor("event: reload", count: 2, seconds: 3))
        #expect(RawHTTP.get(port: port, path: page)?.body.contains("Lunch.") == true)

        kill(process.processIdentifier, SIGINT)
        #expect(Self.waitForExit(process, seconds: 10), "still running after SIGINT: \(logText())")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0, "\(logText())")
    }

    @Test("a port in use is one clear line and exit 1")
    func portInUse() throws {
        let site = try Self.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: site) }
        let port = RawHTTP.freePort()
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0)
        listen(holder, 1)

        let log = site.appendingPathComponent("serve.log")
        let process = try Self.launch(["serve", "--site", site.path, "--port", String(port)], log: log)
        #expect(Self.waitForExit(process, seconds: 10))
        #expect(process.terminationStatus == 1)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text == "error: port \(port) is already in use — pass --port \(port + 1)\n")
    }
}
