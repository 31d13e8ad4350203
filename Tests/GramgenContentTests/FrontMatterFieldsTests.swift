import GramgenCore
import Testing
import Yams
@testable import GramgenContent

/// `FrontMatterFields` finds keys as Yams' `mapping[key]` does, without its regular expressions.
struct FrontMatterFieldsTests {
    static let documents = [
        "date: 2024-01-01\nlocation: Seoul\n",
        "\"date\": quoted\n'location': single\n",
        "!!str date: tagged\nlocation: ~\n",
        "!!int date: odd\ndate2: x\n",
        "true: yes\n'true': quoted\n1: one\nnull: x\n",
        "? date\n: complex\n[a]: seq\n",
        "date: &a anchored\nlocation: *a\n",
        "images:\n  - file: 1.jpg\n    alt: x\n  - 2.jpg\ncomments: []\n",
        "location: \"\"\ndraft: NULL\nsensitive: null\nshow_exif: ''\n",
        "<<: {date: merged}\nlocation: x\n",
    ]
    static let keys = ["date", "location", "true", "1", "null", "images", "comments", "draft", "sensitive", "show_exif",
                       "<<", "date2", "missing", ""]

    @Test("the same node as the subscript", arguments: documents)
    func sameAsSubscript(_ yaml: String) throws {
        let mapping = try #require(try Yams.compose(yaml: yaml, .default, .default, YAMLEncoding.default)?.mapping)
        let fields = FrontMatterFields(mapping: mapping, path: "p.md", lineOffset: 1)
        for key in Self.keys {
            var expected = mapping[key]
            if case .scalar(let scalar)? = expected, scalar.style == .plain,
               ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
                expected = nil
            }
            let found = fields.node(key)
            #expect(found == expected, "\(key) in \(yaml)")
            #expect(fields.location(of: found) == fields.location(of: expected), "\(key) in \(yaml)")
        }
    }
}

