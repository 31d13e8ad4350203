import Foundation
import Testing
@testable import GramgenBuild

/// The preview server's in-place publishing must leave the same tree as a normal build.
struct InPlacePublishTests {
    @Test("in-place output equals the swapped-in output, and stale files go")
    func sameTree() throws {
        let swapped = try TestSupport.temporaryFolder(), inPlace = try TestSupport.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: swapped)
            try? FileManager.default.removeItem(at: inPlace)
        }
        _ = try TestSupport.build(site: GoldenSiteTests.site, output: swapped)
        try FileManager.default.createDirectory(at: inPlace.appendingPathComponent("old"), withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: inPlace.appendingPathComponent("old/index.html"))
        let report = try TestSupport.build(site: GoldenSiteTests.site, output: inPlace) { $0.publishInPlace = true }
        #expect(report.published)
        let files = TestSupport.files(in: swapped)
        #expect(TestSupport.files(in: inPlace) == files)
        for path in files {
            #expect(FileManager.default.contents(atPath: swapped.appendingPathComponent(path).path)
                == FileManager.default.contents(atPath: inPlace.appendingPathComponent(path).path), "\(path)")
        }
    }

    @Test("in place, a rewritten page swaps with a hidden spare beside it, which goes with its page and counts for nothing")
    func spares() throws {
        let site = try IncrementalBuildTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        func build(_ memory: BuildMemory? = nil) throws -> BuildReport {
            try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = true }
        }
        let post = "content/users/ben/posts/2024-02-15-walk"
        let page = output.appendingPathComponent("ben/p/2024-02-15-walk/index.html")
        let spare = URL(fileURLWithPath: Publisher.spare(of: page.path))
        #expect(spare.lastPathComponent == ".index.html.gramgen-spare" && Publisher.isSpare("ben/p/x/" + spare.lastPathComponent))
        #expect(try build().published)
        for caption in ["First edit", "Second edit"] {
            try IncrementalEditKindsTests.write(site, "\(post)/post.md", "---\ndate: 2024-02-15T10:00:00Z\n---\n\(caption) #food\n")
            #expect(try build().published)
        }
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Second edit"))
        // The spare holds the page as it was before, whole.
        #expect(try String(contentsOf: spare, encoding: .utf8).contains("First edit"))
        // A new process finds the output up to date: the spares are not part of what was published.
        #expect(try build().upToDate)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // A spare that is another name of some file is not written through.
        let outside = cache.appendingPathComponent("outside.txt")
        try Data("keep me".utf8).write(to: outside)
        try FileManager.default.removeItem(at: spare)
        try FileManager.default.linkItem(at: outside, to: spare)
        try IncrementalEditKindsTests.write(site, "\(post)/post.md", "---\ndate: 2024-02-15T10:00:00Z\n---\nThird edit #food\n")
        #expect(try build().published)
        #expect(try String(contentsOf: outside, encoding: .utf8) == "keep me")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Third edit"))
        // The post goes: its page and the page's spare go, and so does their folder.
        try FileManager.default.removeItem(at: site.appendingPathComponent(post))
        #expect(try build().published)
        #expect(!FileManager.default.fileExists(atPath: page.deletingLastPathComponent().path))
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }
}
