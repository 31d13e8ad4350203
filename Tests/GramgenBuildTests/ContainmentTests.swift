import Foundation
import GramgenCore
import Testing
@testable import GramgenBuild

/// gramgen never reads, publishes, writes or deletes anything outside the site, and no special
/// file can make it block. Each case builds a real site made in a temporary folder, with the
/// links and FIFOs git cannot hold, and checks the exact diagnostic and what happened on disk.
/// Builds run under a watchdog, so a regression that blocks fails the test instead of hanging it.
struct ContainmentTests {
    static let photo = TestSupport.repositoryRoot.appendingPathComponent("Tests/GramgenImagingTests/Fixtures/p3.jpg")

    /// A site with one user and one post, and beside it a folder `outside` holding a secret.
    struct Sandbox {
        let root: URL
        var site: URL { root.appendingPathComponent("site") }
        var outside: URL { root.appendingPathComponent("outside") }
        var output: URL { site.appendingPathComponent("public") }
        var post: URL { site.appendingPathComponent("content/users/ann/posts/2024-01-01-a") }

        init() throws {
            root = try TestSupport.temporaryFolder("gramgen-containment")
            let fm = FileManager.default
            try fm.createDirectory(at: root.appendingPathComponent("site/content/users/ann/posts/2024-01-01-a"), withIntermediateDirectories: true)
            try fm.createDirectory(at: root.appendingPathComponent("outside"), withIntermediateDirectories: true)
            try write("site/content/users/ann/profile.md", "---\nname: Ann\n---\nHi\n")
            try write("site/content/users/ann/posts/2024-01-01-a/post.md", "---\n---\nA caption\n")
            try fm.copyItem(at: ContainmentTests.photo, to: post.appendingPathComponent("1.jpg"))
            try write("outside/id_rsa", "secret\n")
        }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func link(_ path: String, to target: URL) throws {
            try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent(path).path, withDestinationPath: target.path)
        }

        func fifo(_ path: String) throws {
            let url = site.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try #require(mkfifo(url.path, 0o644) == 0)
        }

        /// Builds under a watchdog; the diagnostics, one per line.
        func build(output: URL? = nil, inPlace: Bool = false) throws -> (report: BuildReport, text: String) {
            let report = try ContainmentTests.watchdog(fifos: root) {
                try TestSupport.build(site: site, output: output ?? self.output) { $0.publishInPlace = inPlace
                    $0.cacheDirectory = site.appendingPathComponent(".gramgen/cache") }
            }
            let text = report.diagnostics.sorted.map(\.description).joined(separator: "\n")
            return (report, text)
        }

        func published(_ name: String) -> Bool {
            FileManager.default.enumerator(atPath: output.path)?.contains { ($0 as? String)?.hasSuffix(name) ?? false } ?? false
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// Runs `body` on another thread; after 60 s the test fails, and every FIFO below `fifos` is
    /// opened for writing, which ends a read blocked on one, so the suite goes on.
    static func watchdog<T>(fifos: URL, _ body: @escaping () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<T, Error>?
        Thread.detachNewThread {
            result = Result { try body() }
            done.signal()
        }
        if done.wait(timeout: .now() + 60) == .timedOut {
            Issue.record("the build blocked for 60 s")
            for path in FileManager.default.subpaths(atPath: fifos.path) ?? [] {
                let fd = open(fifos.path + "/" + path, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
            done.wait()
        }
        return try result!.get()
    }

    @Test("a templates/ folder linked out of the site is an error, and nothing of it is published")
    func templatesLinkedOut() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.link("templates", to: box.outside)
        let (report, text) = try box.build()
        #expect(text == "templates: error: this is a link to a folder outside the site — move the folder into the site instead of linking to it")
        #expect(!report.published && !box.published("id_rsa"))
    }

    @Test("static/ linked out, or a link in it to a file outside, is an error in build and serve alike", arguments: [false, true])
    func staticLinkedOut(inPlace: Bool) throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.link("static", to: box.outside)
        var (report, text) = try box.build(inPlace: inPlace)
        #expect(text == "static: error: this is a link to a folder outside the site — move the folder into the site instead of linking to it")
        #expect(!report.published && !box.published("id_rsa"))

        try FileManager.default.removeItem(at: box.site.appendingPathComponent("static"))
        try box.write("site/static/robots.txt", "User-agent: *\n")
        try box.write("site/content/notes.txt", "inside the site\n")
        try box.link("static/id_rsa", to: box.outside.appendingPathComponent("id_rsa"))
        try box.link("static/notes.txt", to: box.site.appendingPathComponent("content/notes.txt"))
        (report, text) = try box.build(inPlace: inPlace)
        #expect(text == "static/id_rsa: error: this is a link to a file outside the site — copy the file into static/ instead of linking to it")
        #expect(!report.published && !box.published("id_rsa"))

        try FileManager.default.removeItem(at: box.site.appendingPathComponent("static/id_rsa"))
        (report, text) = try box.build(inPlace: inPlace)
        #expect(text == "" && report.published)
        #expect(try String(contentsOf: box.output.appendingPathComponent("notes.txt"), encoding: .utf8) == "inside the site\n")
    }

    @Test("a folder of .gramgen/ that is a link is refused, and nothing in its target is deleted", arguments: [
        ".gramgen", ".gramgen/cache", ".gramgen/cache/media", ".gramgen/cache/posts", ".gramgen/serve",
    ])
    func ownFolderLinked(_ folder: String) throws {
        let box = try Sandbox()
        defer { box.remove() }
        let parent = box.site.appendingPathComponent(folder).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        try box.link(folder, to: box.outside)
        let (report, text) = try box.build(inPlace: folder == ".gramgen/serve")
        #expect(text == "\(folder): error: this is a symbolic link, but gramgen writes and deletes files here — remove the link; gramgen makes the folder again")
        #expect(!report.published)
        #expect(FileManager.default.fileExists(atPath: box.outside.appendingPathComponent("id_rsa").path))
    }

    @Test("an existing folder gramgen did not make is never replaced; an empty one or its own output is")
    func outputNotOurs() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let documents = box.outside.appendingPathComponent("Documents")
        try box.write("outside/Documents/letter.txt", "mine\n")
        var (report, text) = try box.build(output: documents)
        #expect(text == "\(documents.path): error: the output folder exists, is not empty and was not made by gramgen; every build replaces the output folder whole, which would delete its files — choose a new or empty folder as --output, or move this folder's files away first")
        #expect(!report.published)
        #expect(FileManager.default.fileExists(atPath: documents.appendingPathComponent("letter.txt").path))

        let empty = box.outside.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        (report, text) = try box.build(output: empty)
        #expect(text == "" && report.published)
        #expect(FileManager.default.fileExists(atPath: empty.appendingPathComponent(".gramgen-output").path))
        // Its own output, built again, and an older gramgen's output (no marker; the record names
        // this very folder, as that build left it).
        (report, _) = try box.build(output: empty)
        #expect(report.published)
        let builds = box.site.appendingPathComponent(".gramgen/cache/builds")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: builds.path).first { $0.hasSuffix(".json") })
        let record = builds.appendingPathComponent(name)
        try FileManager.default.removeItem(at: empty.appendingPathComponent(".gramgen-output"))
        var fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
        fields["output"] = UpToDateCheck.folderStamp(empty)
        try JSONSerialization.data(withJSONObject: fields).write(to: record)
        (report, _) = try box.build(output: empty)
        #expect(report.published)
        // Someone's own folder put where the output was: the record names another folder.
        try FileManager.default.removeItem(at: empty)
        try box.write("outside/empty/thesis.txt", "mine\n")
        (report, text) = try box.build(output: empty)
        #expect(!report.published && text.contains("was not made by gramgen"), "\(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path) == ["thesis.txt"])
    }

    @Test("an output that is a link is refused with the command to use instead, and the link stays")
    func outputIsLink() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let web = box.outside.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
        try box.link("public", to: web)
        let (report, text) = try box.build()
        #expect(text == "\(box.output.path): error: the output folder is a symbolic link to \(web.resolvingSymlinksInPath().path); every build replaces the output folder whole, and would replace the link — give the link's target as the output instead (--output \(web.resolvingSymlinksInPath().path)), or remove the link")
        #expect(!report.published && FileContainment.isLink(box.output.path))
    }

    @Test("a folder link to / inside content/ does not make the build read the file system")
    func contentLinkToRoot() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.link("content/users/ann/posts/2024-01-01-a/more", to: URL(fileURLWithPath: "/"))
        try box.link("content/users/root", to: URL(fileURLWithPath: "/"))
        let (report, text) = try box.build()
        #expect(text == "content/users/root: error: this is a link to a folder outside content/ — move the folder into content/ instead of linking to it")
        #expect(!report.published)
    }

    @Test("FIFOs as photo, avatar, caption, template or static file are refused without blocking", arguments: [
        ("content/users/ann/posts/2024-01-01-a/2.jpg", "content/users/ann/posts/2024-01-01-a/2.jpg: error: the file is a named pipe (FIFO), not a regular file — replace it with a regular file (gramgen never reads pipes, sockets or devices)"),
        ("content/users/ann/avatar.jpg", "content/users/ann/avatar.jpg: error: the file is a named pipe (FIFO), not a regular file — replace it with a regular file (gramgen never reads pipes, sockets or devices)"),
        ("content/users/bob/profile.md", "content/users/bob/profile.md: error: the file is a named pipe (FIFO), not a regular file — replace it with a regular file (gramgen never reads pipes, sockets or devices)"),
        ("content/site.yml", "content/site.yml: error: the file is a named pipe (FIFO), not a regular file — replace it with a regular file (gramgen never reads pipes, sockets or devices)"),
        ("templates/card.mustache", "templates/card.mustache: error: the file is a named pipe (FIFO), not a regular file — replace it with a regular file (gramgen never reads pipes, sockets or devices)"),
        ("static/robots.txt", "static/robots.txt: error: the file is a named pipe (FIFO), not a regular file — replace it with a regular file (gramgen never reads pipes, sockets or devices)"),
    ])
    func fifo(_ path: String, _ expected: String) throws {
        for inPlace in [false, true] {
            let box = try Sandbox()
            defer { box.remove() }
            try box.fifo(path)
            let (report, text) = try box.build(inPlace: inPlace)
            #expect(text.split(separator: "\n").contains { $0 == expected }, "\(text)")
            #expect(!report.published)
        }
    }

    @Test("/dev/zero linked as a photo is refused before anything opens it")
    func device() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.write("site/content/users/ann/posts/2024-01-01-a/post.md", "---\nimages:\n  - file: 1.jpg\n---\nA caption\n")
        try FileManager.default.removeItem(at: box.post.appendingPathComponent("1.jpg"))
        // A link out of content/ is refused first; a device inside the site is its own error.
        try box.link("content/users/ann/posts/2024-01-01-a/1.jpg", to: URL(fileURLWithPath: "/dev/zero"))
        let (report, text) = try box.build()
        #expect(text == "content/users/ann/posts/2024-01-01-a/post.md:3:5: error: '1.jpg': the file is a link to a file outside content/ — copy the file into the post's folder")
        #expect(!report.published)
    }
}

extension ContainmentTests {
    @Test("a file or folder whose name is not UTF-8 is an error naming it, not a missing file")
    func nonUTF8Names() throws {
        let box = try Sandbox()
        defer { box.remove() }
        // Latin-1 "café.jpg" and "été" as raw bytes, as an old camera or a Windows copy makes them.
        for name in [Array("caf".utf8) + [0xE9] + Array(".jpg".utf8), [0xE9] + Array("t".utf8) + [0xE9]] {
            let full = Array((box.post.path + "/").utf8) + name + [0]
            let fd = full.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: full.count) { open($0, O_CREAT | O_WRONLY, 0o644) }
            }
            try #require(fd >= 0)
            close(fd)
        }
        let (report, text) = try box.build()
        #expect(text == """
            content/users/ann/posts/2024-01-01-a/\\xE9t\\xE9: error: the name is not valid UTF-8 — rename it; names become web addresses and must be UTF-8
            content/users/ann/posts/2024-01-01-a/caf\\xE9.jpg: error: the name is not valid UTF-8 — rename it; names become web addresses and must be UTF-8
            """, "\(text)")
        #expect(!report.published)
    }
}

extension ContainmentTests {
    @Test("a file where gramgen keeps its cache folder is a clear error")
    func ownFolderIsFile() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.write("site/.gramgen", "notes\n")
        let (report, text) = try box.build()
        #expect(text == ".gramgen: error: this is a file, but gramgen keeps its cache in a folder of this name — move the file away; gramgen makes the folder")
        #expect(!report.published)
    }
}
