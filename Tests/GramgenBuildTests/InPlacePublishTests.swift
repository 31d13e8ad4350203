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
}
