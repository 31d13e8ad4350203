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
}
