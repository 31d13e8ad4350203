import Foundation
import Testing
@testable import GramgenImport

/// The manifest is read back as paths, so it is checked before use.
struct ImportManifestTests {
    @Test("a damaged or tampered manifest stops the import and says what to do")
    func damagedManifest() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let manifest = site.appendingPathComponent("content/users/jun_park/.instagram-import.json")
        for text in ["{not json", #"{"version": 1, "posts": {"1 a.jpg": {"folder": "../../escape", "hash": ""}}}"#] {
            try ImportTestSupport.write(text, to: manifest)
            let error = try #require(throws: ImportError.self) { try ImportTestSupport.runImport(ImportTestSupport.oldLayout, into: site) }
            #expect(error == .damagedManifest(path: "content/users/jun_park/.instagram-import.json"))
            #expect(error.description.contains("restore it"))
        }
    }
}
