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
}
