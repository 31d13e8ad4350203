import Foundation
import Testing
@testable import GramgenServe

/// The watcher sees edits anywhere under content/, templates/ and static/ (new folders too), once
/// per burst, and ignores editor scratch files and gramgen's own output.
@Suite(.serialized)
struct WatcherTests {
    static func site() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("content/users/ann"), withIntermediateDirectories: true)
        try Data("a".utf8).write(to: root.appendingPathComponent("content/users/ann/profile.md"))
        return root
    }

    /// Counts the change signals that arrive in `seconds` after `action`.
    static func signals(_ stream: AsyncStream<Void>, within seconds: Double, after action: () throws -> Void) async throws -> Int {
        let counter = Counter()
        let task = Task { for await _ in stream { counter.add() } }
        try action()
        try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        task.cancel()
        return counter.value
    }

    @Test("edits, new folders and new input folders are seen; editor files and output are not", arguments: [false, true])
    func watching(polling: Bool) async throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let watch = ChangeWatcher.changes(siteRoot: root, debounceMilliseconds: 100, polling: polling)
        #expect(watch.method == (polling ? "polling every 500 ms" : "inotify"))
        let counter = Counter()
        let consumer = Task { for await _ in watch.stream { counter.add() } }
        defer { consumer.cancel() }
        try await Task.sleep(for: .milliseconds(300))

        /// True when `action` is followed by at least one signal within 3 s.
        func signals(_ action: () throws -> Void) async throws -> Bool {
            try await Task.sleep(for: .milliseconds(polling ? 1200 : 400))  // let earlier signals land
            let before = counter.value
            try action()
            for _ in 0..<300 where counter.value == before { try await Task.sleep(for: .milliseconds(10)) }
            return counter.value > before
        }

        let post = root.appendingPathComponent("content/users/ann/posts/2024-01-01-x")
        let fm = FileManager.default
        #expect(try await signals { try Data("b".utf8).write(to: root.appendingPathComponent("content/users/ann/profile.md")) })
        #expect(try await signals { try fm.createDirectory(at: post, withIntermediateDirectories: true) })
        #expect(try await signals { try Data("c".utf8).write(to: post.appendingPathComponent("post.md")) }, "new folder watched")
        #expect(try await signals { try fm.createDirectory(at: root.appendingPathComponent("templates"), withIntermediateDirectories: true) })
        #expect(try await signals { try Data("t".utf8).write(to: root.appendingPathComponent("templates/head.mustache")) })

        let ignored = try await signals {
            try Data("x".utf8).write(to: post.appendingPathComponent(".post.md.swp"))
            try Data("x".utf8).write(to: post.appendingPathComponent("post.md~"))
            try Data("x".utf8).write(to: post.appendingPathComponent("4913"))
            try fm.createDirectory(at: root.appendingPathComponent("public"), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: root.appendingPathComponent("public/index.html"))
            try fm.createDirectory(at: root.appendingPathComponent(".gramgen/serve"), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: root.appendingPathComponent(".gramgen/serve/index.html"))
        }
        #expect(!ignored, "editor files or output caused a rebuild")
    }

    @Test("a burst of writes is one rebuild")
    func debounce() async throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        // Each write here finishes a file: the settle is as long as the quiet interval, so this
        // measures the merging of a burst, not the settle (`settle` below).
        let watch = ChangeWatcher.changes(siteRoot: root, debounceMilliseconds: 150, settleMilliseconds: 150)
        try await Task.sleep(for: .milliseconds(200))
        let count = try await Self.signals(watch.stream, within: 1.0) {
            for i in 0..<20 {
                try Data("\(i)".utf8).write(to: root.appendingPathComponent("content/users/ann/\(i).md"))
            }
        }
        #expect(count == 1)
    }

    /// A saved file (closed after writing) ends the burst after the short settle; a file still
    /// open for writing waits for the full quiet interval. The margins are seconds wide: the
    /// test tells the two waits apart, it does not time them.
    @Test("a finished write settles sooner than one still in progress")
    func settle() async throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let watch = ChangeWatcher.changes(siteRoot: root, debounceMilliseconds: 4000, settleMilliseconds: 20)
        #expect(watch.method == "inotify")
        let counter = Counter()
        let consumer = Task { for await _ in watch.stream { counter.add() } }
        defer { consumer.cancel() }
        try await Task.sleep(for: .milliseconds(300))

        /// Whether a signal arrives within `seconds`, checked every 10 ms.
        func signalled(within seconds: Double) async throws -> Bool {
            let before = counter.value
            for _ in 0..<Int(seconds * 100) where counter.value == before { try await Task.sleep(for: .milliseconds(10)) }
            return counter.value > before
        }

        try Data("saved".utf8).write(to: root.appendingPathComponent("content/users/ann/profile.md"))
        #expect(try await signalled(within: 2), "a closed file waits for the 4 s quiet interval")

        let path = root.appendingPathComponent("content/users/ann/avatar.jpg").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        try await Task.sleep(for: .milliseconds(500))  // the empty file's own signal lands first
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("half".utf8))
        let early = try await signalled(within: 1.5)
        #expect(!early, "a file still open for writing was built before its writer finished")
        try handle.close()
        #expect(try await signalled(within: 2), "closing the file did not end the burst")
    }

    /// A post folder moved in is complete, and so is one made and filled before the watcher looks
    /// in it: the short settle. An empty new folder is about to be filled: the full quiet
    /// interval. Seconds-wide margins, as above.
    @Test("a folder moved in settles soon; an empty new folder waits for what is put in it")
    func folderSettle() async throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        // The posts folder and the post to move in, made before the watcher starts.
        let posts = root.appendingPathComponent("content/users/ann/posts")
        try FileManager.default.createDirectory(at: posts, withIntermediateDirectories: true)
        let staged = root.appendingPathComponent("staged-post")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        try Data("---\ndate: 2024-01-01T10:00:00Z\n---\nHello\n".utf8).write(to: staged.appendingPathComponent("post.md"))
        try Data("jpeg".utf8).write(to: staged.appendingPathComponent("1.jpg"))
        let watch = ChangeWatcher.changes(siteRoot: root, debounceMilliseconds: 4000, settleMilliseconds: 20)
        #expect(watch.method == "inotify")
        let counter = Counter()
        let consumer = Task { for await _ in watch.stream { counter.add() } }
        defer { consumer.cancel() }
        try await Task.sleep(for: .milliseconds(300))

        func signalled(within seconds: Double) async throws -> Bool {
            let before = counter.value
            for _ in 0..<Int(seconds * 100) where counter.value == before { try await Task.sleep(for: .milliseconds(10)) }
            return counter.value > before
        }

        // Made outside content/, then moved in whole.
        #expect(rename(staged.path, posts.appendingPathComponent("2024-01-01-moved").path) == 0)
        // Within 3.5 s, short of the 4 s quiet interval: 2 s was once too short for a loaded
        // machine running the whole suite.
        #expect(try await signalled(within: 3.5), "a folder moved in waited for the 4 s quiet interval")

        try FileManager.default.createDirectory(at: posts.appendingPathComponent("2024-01-02-empty"), withIntermediateDirectories: false)
        #expect(try await !signalled(within: 1.5), "an empty new folder was built before anything was put in it")
        #expect(try await signalled(within: 4), "the empty folder's burst never ended")
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
