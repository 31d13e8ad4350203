import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

/// A site's templates that include themselves are an error naming the chain, found when the
/// theme loads; before, `{{> tile}}{{> tile}}` in tile.mustache drew 2^64 tiles.
struct PartialCycleTests {
    static func load(_ files: [String: String]) throws -> [String] {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-partials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: site) }
        try FileManager.default.createDirectory(at: site.appendingPathComponent("templates"), withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: site.appendingPathComponent("templates/" + name)) }
        var diagnostics = Diagnostics()
        _ = Theme.load(siteRoot: site, diagnostics: &diagnostics)
        return diagnostics.items.map(\.description)
    }

    @Test("a partial that includes itself, directly or through others, is an error with the chain")
    func cycles() throws {
        #expect(try Self.load(["tile.mustache": "{{> tile}}{{> tile}}"]) == [
            "templates/tile.mustache: error: the template includes itself through partials: tile → tile — remove one of these partial tags; templates may not include themselves",
        ])
        #expect(try Self.load(["tile.mustache": "{{#a}}{{> picture}}{{/a}}", "picture.mustache": "<p>{{> tile}}</p>"]) == [
            "templates/picture.mustache: error: the template includes itself through partials: picture → tile → picture — remove one of these partial tags; templates may not include themselves",
        ])
    }

    @Test("the built-in theme and a partial used twice without a cycle load cleanly")
    func noCycle() throws {
        #expect(try Self.load([:]).isEmpty)
        #expect(try Self.load(["tile.mustache": "{{> picture}}{{> picture}}"]).isEmpty)
    }
}
