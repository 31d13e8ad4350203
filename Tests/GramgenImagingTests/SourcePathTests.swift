import Foundation
import GramgenCore
import Testing
@testable import GramgenImaging

/// `SourceDigests.isClean`: a path used as it is for the digests' index (absolute, no `//`, no
/// `/.`), the same answer as the Foundation test it replaced.
struct SourcePathTests {
    static func reference(_ path: String) -> Bool {
        path.hasPrefix("/") && !path.contains("/.") && !path.contains("//")
    }

    @Test("examples, and the same answers as Foundation's on seeded random paths")
    func clean() {
        #expect(SourceDigests.isClean("/site/content/users/ann/posts/2024-01-01-a/1.jpg"))
        #expect(SourceDigests.isClean("/"))
        #expect(!SourceDigests.isClean(""))
        #expect(!SourceDigests.isClean("site/1.jpg"))
        #expect(!SourceDigests.isClean("/site//1.jpg"))
        #expect(!SourceDigests.isClean("/site/./1.jpg"))
        #expect(!SourceDigests.isClean("/site/../1.jpg"))
        #expect(SourceDigests.isClean("/site/a.b/1.jpg"))
        var random = SeededRandom.forTest("SourcePathTests.clean")
        let pieces = ["/", ".", "a", "é", "..", "//", "x.jpg", "東"]
        for _ in 0..<5_000 {
            let path = (0..<Int(random.next() % 8)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(SourceDigests.isClean(path) == Self.reference(path), "seed \(random.seed): \(path)")
        }
    }
}
