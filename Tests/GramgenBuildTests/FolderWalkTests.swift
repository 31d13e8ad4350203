import Foundation
import Testing
@testable import GramgenBuild

struct FolderWalkTests {
    @Test("links are followed, but a folder that links to itself twice is listed once and the walk ends")
    func linkLoops() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("sub/file.txt"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("sub/a").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("sub/b").path, withDestinationPath: "..")
        let followed = try #require(FolderWalk.entries(root.path, follow: true))
        #expect(followed.map(\.path) == ["sub/file.txt"])
        let listed = try #require(FolderWalk.entries(root.path, follow: false))
        #expect(Set(listed.map(\.path)) == ["sub/file.txt", "sub/a", "sub/b"])
        #expect(listed.filter(\.isRegular).map(\.path) == ["sub/file.txt"])
        #expect(FolderWalk.entries(root.appendingPathComponent("missing").path, follow: true) == nil)
    }

    @Test("a walk on two threads lists what one thread lists, link loops included, the same every time")
    func parallel() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        for user in 0..<12 {
            for post in 0..<5 {
                let folder = root.appendingPathComponent("users/u\(user)/posts/p\(post)")
                try fm.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data("post \(user) \(post)".utf8).write(to: folder.appendingPathComponent("post.md"))
            }
            try Data("profile".utf8).write(to: root.appendingPathComponent("users/u\(user)/profile.md"))
        }
        try Data("site".utf8).write(to: root.appendingPathComponent("site.yml"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("users/u3/posts/p1/loop").path, withDestinationPath: "../..")
        let serial = try #require(FolderWalk.entries(root.path, follow: true))
        #expect(serial.count == 12 * 6 + 1)
        for _ in 0..<5 {
            let parallel = try #require(FolderWalk.entries(root.path, follow: true, threads: 2))
            #expect(parallel.map(\.path).sorted() == serial.map(\.path).sorted())
            #expect(Set(parallel.map(\.size)) == Set(serial.map(\.size)))
        }
        #expect(FolderWalk.entries(root.appendingPathComponent("missing").path, follow: true, threads: 2) == nil)
    }
}
