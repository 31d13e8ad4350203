import GramgenCore
import Testing

/// The way back to the root from a page: one `../` per folder of its path.
struct SitePathsTests {
    @Test("one ../ per folder, empty names (doubled or edge slashes) not counted, any text in a name", arguments: [
        ("", ""), ("/", ""), ("ann/", "../"), ("ann/p/2024-05-25-x/", "../../../"), ("ann/p/2024-05-25-x/likes/", "../../../../"),
        ("tags/日本/", "../../"), ("tags/\u{301}x/", "../../"), ("a//b", "../../"), ("/a/", "../"), ("page/2/", "../../"),
    ])
    func root(_ path: String, _ expected: String) {
        #expect(SitePaths.root(from: path) == expected)
    }
}
