import GramgenCore
import Testing
@testable import GramgenContent

struct PostIDTests {
    @Test("valid post ids", arguments: ["2024-06-01-market", "a", "Ridge_walk.2", String(repeating: "a", count: 100)])
    func valid(_ id: String) {
        #expect(PostID.problem(with: id) == nil)
    }

    @Test("invalid post ids say why", arguments: [
        ("", "it must be 1 to 100 characters long"),
        (String(repeating: "a", count: 101), "it must be 1 to 100 characters long"),
        (".hidden", "it may not start with '.'"),
        ("two words", "it contains ' '"),
        // Lengths count characters, not bytes: 60 and 101 two-byte letters.
        (String(repeating: "é", count: 60), "it contains 'é'"),
        (String(repeating: "é", count: 101), "it must be 1 to 100 characters long"),
    ])
    func invalid(_ id: String, _ problem: String) {
        #expect(PostID.problem(with: id) == problem)
    }

    @Test("the check on bytes says what the rule as it reads says, on random ids of allowed and other characters (seeded)")
    func bytesAgree() {
        var random = SeededRandom.forTest("PostIDTests.bytesAgree")
        let pieces = ["a", "Z", "0", "-", "_", ".", "é", "e\u{301}", " ", "/", "\u{301}", String(repeating: "x", count: 30)]
        for _ in 0..<5_000 {
            let id = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(PostID.problem(with: id) == PostID.problemByCharacters(with: id), "\(id.unicodeScalars.map { $0.value })")
        }
    }
}
