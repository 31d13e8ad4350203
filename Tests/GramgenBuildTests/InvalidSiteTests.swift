import Foundation
import Testing
@testable import GramgenBuild

/// Each folder in Fixtures/invalid is a site with one kind of mistake, and `expected.txt` holds
/// exactly the diagnostics it must produce. Folders ending in `-strict` are built with --strict.
/// Re-record with RECORD_GOLDEN=1 after a deliberate change, and read the diff.
struct InvalidSiteTests {
    static let root = TestSupport.fixtures.appendingPathComponent("invalid")
    static let cases = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()

    @Test("the fixture set covers many kinds of mistakes")
    func coverage() {
        #expect(Self.cases.count >= 40)
    }

    @Test("an invalid site is reported exactly, and the previous output stays", arguments: cases)
    func invalidSite(_ name: String) throws {
        let site = Self.root.appendingPathComponent(name)
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        try Data("previous build".utf8).write(to: output.appendingPathComponent("index.html"))
        try OutputMarker.write(into: output)

        let report = try TestSupport.build(site: site, output: output, strict: name.hasSuffix("-strict"))
        let actual = report.diagnostics.sorted.map(\.description).joined(separator: "\n") + "\n"
        let expectedURL = site.appendingPathComponent("expected.txt")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(actual == expected)
        #expect(report.diagnostics.hasErrors)
        #expect(!report.published)
        #expect(TestSupport.files(in: output) == [OutputMarker.name, "index.html"])
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8) == "previous build")
    }
}
