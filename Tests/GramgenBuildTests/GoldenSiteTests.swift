import Foundation
import Testing
@testable import GramgenBuild

/// The small fixture site's pages and feeds, compared byte for byte with the files in Golden/basic.
/// Re-record with RECORD_GOLDEN=1 after a deliberate change, and read the diff before committing.
struct GoldenSiteTests {
    static let site = TestSupport.fixtures.appendingPathComponent("sites/basic")
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/basic")
    static let textExtensions: Set<String> = ["html", "json", "xml", "css", "js"]

    static func golden(_ name: String) -> URL { golden.deletingLastPathComponent().appendingPathComponent(name) }

    /// `basic` speaks English; `korean` is a small family site with `language: ko` and one text of
    /// its own (`content/i18n/ko.yml`).
    @Test("rendered pages and feeds match the golden files", arguments: ["basic", "korean"])
    func goldenFiles(_ name: String) throws {
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        let report = try TestSupport.build(site: TestSupport.fixtures.appendingPathComponent("sites/\(name)"), output: output)
        #expect(report.published, "\(report.diagnostics.sorted.map(\.description))")
        #expect(report.diagnostics.items.isEmpty, "\(report.diagnostics.sorted.map(\.description))")
        let golden = Self.golden(name)

        let produced = TestSupport.files(in: output).filter { Self.textExtensions.contains(($0 as NSString).pathExtension) }
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try? FileManager.default.removeItem(at: golden)
            for path in produced {
                let target = golden.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: output.appendingPathComponent(path), to: target)
            }
        }
        #expect(produced == TestSupport.files(in: golden))
        for path in produced {
            let actual = try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
            let expected = try String(contentsOf: golden.appendingPathComponent(path), encoding: .utf8)
            #expect(actual == expected, "\(path) differs from its golden file")
        }
    }

    @Test("two builds of the same site are byte-identical")
    func deterministic() throws {
        let first = try TestSupport.temporaryFolder(), second = try TestSupport.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        _ = try TestSupport.build(site: Self.site, output: first)
        _ = try TestSupport.build(site: Self.site, output: second)
        let files = TestSupport.files(in: first)
        #expect(files == TestSupport.files(in: second))
        for path in files {
            #expect(FileManager.default.contents(atPath: first.appendingPathComponent(path).path)
                == FileManager.default.contents(atPath: second.appendingPathComponent(path).path), "\(path)")
        }
    }

    @Test("a rebuild with nothing changed does nothing; after an edit no image is processed again")
    func cachedRebuild() throws {
        let site = try TestSupport.temporaryFolder()
        let output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer {
            TestSupport.remove(site, output, cache)
        }
        try FileManager.default.removeItem(at: site)
        try FileManager.default.copyItem(at: Self.site, to: site)
        let cold = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(cold.imagesProcessed == 6 && cold.imagesFromCache == 0 && !cold.upToDate)

        let noop = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(noop.upToDate && noop.published && noop.pageCount == cold.pageCount)
        #expect(noop.stages.map(\.name) == ["check"])

        let post = site.appendingPathComponent("content/users/bob/posts/2024-05-30-Ridge_walk/post.md")
        try (String(contentsOf: post, encoding: .utf8) + "\nEdited.\n").write(to: post, atomically: true, encoding: .utf8)
        let edited = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(!edited.upToDate && edited.imagesProcessed == 0 && edited.imagesFromCache == 6)
        #expect(edited.stages.map(\.name) == BuildPipeline.steps.map(\.name))
        #expect(edited.stages.map(\.name) == ["check", "load", "theme", "static", "images", "render", "publish"])
        let page = try String(contentsOf: output.appendingPathComponent("bob/p/2024-05-30-Ridge_walk/index.html"), encoding: .utf8)
        #expect(page.contains("Edited."))

        // A no-op trusts the folder it swapped in by the folder's own identity and times, not by a
        // stat of every file: a page changed by hand inside it is put back by the next build that
        // has anything to do, which takes over only files exactly as it wrote them.
        try Data("tampered".utf8).write(to: output.appendingPathComponent("index.html"))
        #expect(try TestSupport.build(site: site, output: output, cache: cache).upToDate)
        try (String(contentsOf: post, encoding: .utf8) + "\nEdited again.\n").write(to: post, atomically: true, encoding: .utf8)
        let repaired = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(!repaired.upToDate)
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8) != "tampered")

        // A file removed from the output, or another folder put in its place, means a build.
        try FileManager.default.removeItem(at: output.appendingPathComponent("feed.xml"))
        #expect(try !TestSupport.build(site: site, output: output, cache: cache).upToDate)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("feed.xml").path))
        let moved = output.deletingLastPathComponent().appendingPathComponent(output.lastPathComponent + "-moved")
        defer { TestSupport.remove(moved) }
        try FileManager.default.moveItem(at: output, to: moved)
        try FileManager.default.copyItem(at: moved, to: output)
        #expect(try !TestSupport.build(site: site, output: output, cache: cache).upToDate)
    }

    @Test("the spec's output paths exist")
    func specPaths() throws {
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        _ = try TestSupport.build(site: Self.site, output: output)
        let files = Set(TestSupport.files(in: output))
        for path in [
            "index.html", "page/2/index.html", "alice/index.html", "alice/list/index.html", "alice/tagged/index.html",
            "alice/following/index.html", "alice/activity/index.html", "alice/p/2024-05-25-river/index.html",
            "bob/p/2024-05-30-Ridge_walk/index.html", "tags/index.html", "tags/seoul/index.html", "tags/한강/index.html",
            "tags/café/index.html", "explore/index.html", "feed.json", "alice/feed.json", "tags/seoul/feed.json",
            "feed.xml", "sitemap.xml", "404.html",
        ] {
            #expect(files.contains(path), "missing \(path)")
        }
    }
}
