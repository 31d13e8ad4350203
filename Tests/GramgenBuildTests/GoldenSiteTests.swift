import Foundation
import Testing
@testable import GramgenBuild

/// The small fixture site's pages and feeds, compared byte for byte with the files in Golden/basic.
/// Re-record with RECORD_GOLDEN=1 after a deliberate change, and read the diff before committing.
struct GoldenSiteTests {
    static let site = TestSupport.fixtures.appendingPathComponent("sites/basic")
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/basic")
    static let textExtensions: Set<String> = ["html", "json", "xml", "css", "js"]

    @Test("rendered pages and feeds match the golden files")
    func goldenFiles() throws {
        let output = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let report = try TestSupport.build(site: Self.site, output: output)
        #expect(report.published, "\(report.diagnostics.sorted.map(\.description))")

        let produced = TestSupport.files(in: output).filter { Self.textExtensions.contains(($0 as NSString).pathExtension) }
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try? FileManager.default.removeItem(at: Self.golden)
            for path in produced {
                let target = Self.golden.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: output.appendingPathComponent(path), to: target)
            }
        }
        #expect(produced == TestSupport.files(in: Self.golden))
        for path in produced {
            let actual = try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
            let expected = try String(contentsOf: Self.golden.appendingPathComponent(path), encoding: .utf8)
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

    @Test("a rebuild with nothing changed processes no image")
    func cachedRebuild() throws {
        let output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: cache)
        }
        let cold = try TestSupport.build(site: Self.site, output: output, cache: cache)
        let warm = try TestSupport.build(site: Self.site, output: output, cache: cache)
        #expect(cold.imagesProcessed == 6 && cold.imagesFromCache == 0)
        #expect(warm.imagesProcessed == 0 && warm.imagesFromCache == 6)
    }

    @Test("the spec's output paths exist")
    func specPaths() throws {
        let output = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
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
