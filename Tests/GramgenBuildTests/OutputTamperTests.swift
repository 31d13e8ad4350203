import Foundation
import Testing
@testable import GramgenBuild
import GramgenCore

/// Things put in the output, its spare or beside them between builds, and records edited by hand:
/// whatever is there, a build never writes, deletes or publishes anything outside the site and its
/// output, and never uses a folder it did not make.
struct OutputTamperTests {
    typealias Edit = IncrementalEditKindsTests.Edit

    /// Every file below `root` with its bytes, following nothing.
    static func snapshot(_ root: URL) -> [String: Data] { SpareTests.tree(root) }

    /// A folder outside the site holding `files` ("path": "text"), for a link to lead to.
    static func victim(_ files: [String: String]) throws -> URL {
        let folder = try TestSupport.temporaryFolder("gramgen-victim")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    static func noLinks(_ output: URL) -> [String] {
        (FolderWalk.entries(output.path, follow: false) ?? []).filter { !$0.isRegular }.map(\.path)
    }

    @Test("a folder above the pages, in the spare or the output, made a link out of the site: removed, nothing written or deleted through it")
    func linkedFolderAbovePages() throws {
        let fm = FileManager.default
        for place in ["spare", "output"] {
            let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
            _ = try TestSupport.build(site: site, output: output, cache: cache)
            try IncrementalEditKindsTests.apply(.captionText, to: site)
            _ = try TestSupport.build(site: site, output: output, cache: cache)
            let spare = SpareTests.spare(of: output)
            let posts = try fm.contentsOfDirectory(atPath: output.appendingPathComponent("ben/p").path).sorted()
            // What the link leads to holds files at the very paths a build removes and writes there.
            var files = ["notes.txt": "mine"]
            for post in posts { files["\(post)/index.html"] = "precious"; files["\(post)/likes/index.html"] = "precious" }
            let outside = try Self.victim(files)
            defer { TestSupport.remove(site, output, cache, outside) }
            let before = Self.snapshot(outside)
            let planted = (place == "spare" ? spare : output).appendingPathComponent("ben/p")
            try fm.removeItem(at: planted)
            try fm.createSymbolicLink(at: planted, withDestinationURL: outside)
            // A renamed post: its old page goes, a new one comes, in the folder made a link.
            for edit in [Edit.renamePost, .addPost] {
                try IncrementalEditKindsTests.apply(edit, to: site)
                let report = try TestSupport.build(site: site, output: output, cache: cache)
                #expect(report.published, "\(place), \(edit): \(report.diagnostics.items)")
                #expect(Self.snapshot(outside) == before, "\(place), \(edit): the folder outside changed")
                #expect(Self.noLinks(output).isEmpty, "\(place), \(edit): \(Self.noLinks(output))")
                try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
            }
        }
    }

    @Test("the output's marker made a link to a file outside, or a pipe: never written through, never waited on")
    func markerLink() throws {
        let fm = FileManager.default
        for kind in ["link", "pipe"] {
            let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
            let outside = try Self.victim(["keep.txt": "mine"])
            defer { TestSupport.remove(site, output, cache, outside) }
            _ = try TestSupport.build(site: site, output: output, cache: cache)
            // A spare gramgen did not make, and the output's marker replaced.
            let spare = SpareTests.spare(of: output)
            try? fm.removeItem(at: spare)
            try fm.createDirectory(at: spare, withIntermediateDirectories: true)
            try Data().write(to: spare.appendingPathComponent("x"))
            let marker = output.appendingPathComponent(OutputMarker.name)
            try fm.removeItem(at: marker)
            if kind == "link" {
                try fm.createSymbolicLink(at: marker, withDestinationURL: outside.appendingPathComponent("keep.txt"))
            } else {
                #expect(mkfifo(marker.path, 0o644) == 0)
            }
            for edit in [Edit.captionText, .captionNewHashtag] {
                try IncrementalEditKindsTests.apply(edit, to: site)
                _ = try TestSupport.build(site: site, output: output, cache: cache)
                #expect(Self.snapshot(outside) == ["keep.txt": Data("mine".utf8)], "\(kind), \(edit)")
            }
            #expect(try fm.contentsOfDirectory(atPath: spare.path) == ["x"], "\(kind): a folder gramgen did not make is left as it was")
        }
    }

    @Test("a folder gramgen did not make, with the name it builds under: an error naming it, nothing written into it or published")
    func foreignBuildingFolder() throws {
        let fm = FileManager.default
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        let outside = try Self.victim(["keep.txt": "mine"])
        defer { TestSupport.remove(site, output, cache, outside) }
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        let published = Self.snapshot(output)
        // The build runs in this process: it builds under this process's number.
        let building = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).building-\(getpid())")
        try fm.createDirectory(at: building, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: building) }
        #expect(link(outside.appendingPathComponent("keep.txt").path, building.appendingPathComponent("index.html").path) == 0)
        try Data("planted".utf8).write(to: building.appendingPathComponent("planted.html"))
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let report = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(!report.published)
        let message = report.diagnostics.items.map(\.message).joined(separator: "\n")
        #expect(message.contains(building.path) && message.contains("is in the way"), "\(message)")
        #expect(Self.snapshot(outside) == ["keep.txt": Data("mine".utf8)])
        #expect(Self.snapshot(output) == published, "the previous output stays as it was")
        #expect(Set(try fm.contentsOfDirectory(atPath: building.path)) == ["index.html", "planted.html"])
    }

    @Test("a build record edited to say the output holds billions of files: the build's table stays the site's size")
    func recordedFileCount() throws {
        let fm = FileManager.default
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        let builds = cache.appendingPathComponent("builds")
        var edited = 0
        for name in try fm.contentsOfDirectory(atPath: builds.path) where name.hasSuffix(".json") {
            let url = builds.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            let forged = text.replacingOccurrences(of: #""fileCount":\d+"#, with: #""fileCount":4000000000000"#, options: .regularExpression)
            if forged != text { edited += 1 }
            try forged.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(edited == 1)
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let report = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(report.published, "\(report.diagnostics.items)")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a record's paths are plain relative ones or the record is not used")
    func plainPaths() {
        for path in ["index.html", "ana/p/2024-01-01-a/index.html", ".hidden", "a/..b", "a/...", "media/x.webp"] {
            #expect(OutputManifest.isPlain(path), "\(path)")
        }
        for path in ["", "/etc/passwd", "../victim", "a/../../b", "a//b", "a/./b", "a/", ".", "..", "a/.."] {
            #expect(!OutputManifest.isPlain(path), "\(path)")
        }
    }

    @Test("a path is plain exactly when each of its names is neither empty nor . nor .., on random paths of a, ., / and é (seeded)")
    func plainPathsAgree() {
        var random = SeededRandom.forTest("OutputTamperTests.plainPathsAgree")
        let pieces = ["a", ".", "/", "é", "b", ".."]
        for _ in 0..<20_000 {
            let path = (0..<Int.random(in: 0...9, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let names = path.split(separator: "/", omittingEmptySubsequences: false)
            let plain = names.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
            #expect(OutputManifest.isPlain(path) == plain, "\(path)")
        }
    }
}
