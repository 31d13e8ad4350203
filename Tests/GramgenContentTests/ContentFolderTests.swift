import Foundation
import GramgenCore
import Testing
@testable import GramgenContent

/// `ContentFolder`: names that resolve as themselves below a folder.
struct ContentFolderTests {
    @Test("a name is plain on its bytes in place exactly as the rule reads: not empty, not . or .., no / and no NUL (seeded)")
    func plainNamesAgree() {
        var random = SeededRandom.forTest("ContentFolderTests.plainNamesAgree")
        let pieces = ["a", ".", "..", "/", "\u{0}", "é", "b-c"]
        for _ in 0..<5_000 {
            let name = (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let bytes = Array(name.utf8)
            let rule = !bytes.isEmpty && bytes != [0x2E] && bytes != [0x2E, 0x2E] && !bytes.contains(0) && !bytes.contains(0x2F)
            #expect(bytes.withUnsafeBufferPointer(ContentFolder.isPlainName) == rule, "\(bytes)")
            #expect(ContentFolder.isPlainName(name) == rule, "\(bytes)")
        }
    }

    @Test("folder names sort as String's own order: bytes for ASCII names, String's comparison otherwise (seeded)")
    func namesSortAsStrings() {
        var random = SeededRandom.forTest("ContentFolderTests.namesSortAsStrings")
        // ASCII both ways round, a prefix of another, decomposed and precomposed accents (equal to
        // String, and after "f" though "e" is before it), a character past ASCII, an empty name.
        let ascii = ["2024-01-", "a", "B", "z", "-", "~", "0", "e", "f", ""]
        for round in 0..<400 {
            let pieces = round % 2 == 0 ? ascii : ascii + ["e\u{301}", "é", "ß"]
            let names = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            let folders = names.map { ContentFolder.Subfolder(name: $0, isPlain: true) }
            #expect(ContentFolder.sortedByName(folders).map(\.name) == folders.sorted { $0.name < $1.name }.map(\.name), "\(names)")
        }
    }
}
