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
}
