import Foundation
import Testing
@testable import GramgenBuild

/// A build writes into the spare, whose files are mostly other names of the published site's.
/// `FileWriter` writes over a file there only when it has one name (the spare's own, written by
/// the build before last), and makes every other thing at that path anew: a file of two names
/// (the other name keeps its bytes), a link (its target keeps its bytes), a FIFO (never waited
/// on), a folder.
struct FileWriterTests {
    static func stat(_ path: String) -> Glibc.stat? {
        var info = Glibc.stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    static func write(_ text: String, with writer: FileWriter, to path: String) throws -> FileIdentity {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { try writer.write($0, to: path) }
    }

    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("a file of one name is written over in place, longer and shorter; its identity is the new file's")
    func overwritesOwnFile() throws {
        let root = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(root) }
        let writer = FileWriter(replacing: true, root: OpenFolder(root.path))
        let page = root.path + "/a/b/index.html"
        _ = try Self.write("first version of the page", with: writer, to: page)
        // Held open: a file made anew would leave this one without a name (an inode number alone
        // can be handed out again at once).
        let held = open(page, O_RDONLY)
        try #require(held >= 0)
        defer { close(held) }
        for text in ["a longer second version of the page, written over the first", "short", "x"] {
            let identity = try Self.write(text, with: writer, to: page)
            #expect(Self.contents(page) == text)
            var info = Glibc.stat()
            #expect(fstat(held, &info) == 0 && info.st_nlink == 1 && info.st_size == text.utf8.count, "\(text): the file was made anew")
            #expect(identity == FileIdentity(path: page), "\(text): the identity is not the file's")
        }
    }

    @Test("a file with a second name, a link, a FIFO and a folder at the path are each made a new file; nothing they lead to changes")
    func makesAnewWhatIsNotItsOwn() throws {
        let root = try TestSupport.temporaryFolder(), outside = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(root, outside) }
        let writer = FileWriter(replacing: true, root: OpenFolder(root.path))
        let published = outside.path + "/published.html", target = outside.path + "/target.txt"
        try Data("published".utf8).write(to: URL(fileURLWithPath: published))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: target))

        let shared = root.path + "/shared.html"
        #expect(link(published, shared) == 0)
        let linked = root.path + "/linked.html"
        #expect(symlink(target, linked) == 0)
        let fifo = root.path + "/fifo.html"
        #expect(mkfifo(fifo, 0o644) == 0)
        let folder = root.path + "/folder.html"
        try FileManager.default.createDirectory(atPath: folder + "/inside", withIntermediateDirectories: true)

        try ContainmentTests.watchdog(fifos: root) {
            for path in [shared, linked, fifo, folder] {
                _ = try Self.write("new", with: writer, to: path)
                let info = Self.stat(path)
                #expect(info.map { $0.st_mode & S_IFMT == S_IFREG && $0.st_nlink == 1 } == true, "\(path)")
                #expect(Self.contents(path) == "new", "\(path)")
            }
        }
        #expect(Self.contents(published) == "published")
        #expect(Self.contents(target) == "mine")
        #expect(Self.stat(published)?.st_nlink == 1)
    }
}
