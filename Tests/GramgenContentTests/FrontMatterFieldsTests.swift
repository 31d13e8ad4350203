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

/// Simple front matter is composed into the nodes Yams makes, or left to Yams.
struct SimpleFrontMatterTests {
    static let documents = [
        "date: 2024-01-11T22:47:00Z",
        "date: 2024-01-11T22:47:00Z\nlocation: Seoul, Korea (old town)\ndraft: true\nshow_exif: no",
        "a: b\nc: d:e\nf: http://example.com/x?y=1&z=[2]{3}",
        "location: Han River - evening\nsensitive: NULL\nx1: 0x1F\ny_2: 1e3\nz: 12:30:00",
        "key: value\nkey: again",
        "date: 2024-01-11 # comment",
        "date: 'quoted'",
        "date: a: b",
        "date: ends with:",
        "date: trailing ",
        "Date: upper",
        "date:  two spaces",
        "date:\tx",
        "date: x\n  continued",
        "date: x\n\nlocation: y",
        "images: [1.jpg]",
        "tags:\n  - a",
        "date: café",
        "",
        "date: " + String(repeating: "x", count: 5000),
        String(repeating: "k", count: 101) + ": x",
    ]

    @Test("same nodes as Yams, marks and styles included", arguments: documents)
    func sameAsYams(_ yaml: String) throws {
        guard let simple = SimpleFrontMatter.compose(yaml) else { return }
        let composed = try #require(try Yams.compose(yaml: yaml, .default, .default, YAMLEncoding.default)?.mapping)
        expectSame(simple, composed, yaml)
    }

    @Test("documents that are simple are taken", arguments: documents.prefix(4))
    func taken(_ yaml: String) {
        #expect(SimpleFrontMatter.compose(yaml) != nil)
    }

    @Test("random documents: whenever taken, the same as Yams")
    func random() throws {
        var generator = SeededRandom.forTest("FrontMatterFieldsTests.random")
        let keys = ["date", "location", "a", "_x", "k9", "true", "null", "on", "yes"]
        let oddKeys = ["Date", "1a", "<<", "-", "? a", "a b", "é", "!!str a", "'a'"]
        let starts = ["2024", "x", "Y", "0", "null", "true", "~", "No"]
        let parts = ["2024", "-", ":", " ", "x", "Y", "0", "#", "'", "\"", "[", "]", "{", "}", ",", "&", "*", "!", "|",
                     ">", "%", "@", "`", "~", "=", ".", "\\", "é", "\t", "null", "true", "a: b", "x #c", "?", "- "]
        var taken = 0
        func pick(_ common: [String], _ odd: [String], oddOneIn: Int) -> String {
            Int.random(in: 0..<oddOneIn, using: &generator) == 0
                ? odd.randomElement(using: &generator)! : common.randomElement(using: &generator)!
        }
        for _ in 0..<4000 {
            let lines = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                pick(keys, oddKeys, oddOneIn: 6) + pick([": "], [":", ":  ", " : ", ":\t"], oddOneIn: 6)
                    + pick(starts, parts, oddOneIn: 4)
                    + (0..<Int.random(in: 0...4, using: &generator)).map { _ in pick(starts, parts, oddOneIn: 2) }.joined()
            }
            let yaml = lines.joined(separator: "\n")
            guard let simple = SimpleFrontMatter.compose(yaml) else { continue }
            taken += 1
            let composed = try #require(try Yams.compose(yaml: yaml, .default, .default, YAMLEncoding.default)?.mapping,
                                        "\(yaml)")
            expectSame(simple, composed, yaml)
        }
        #expect(taken > 300)
    }

    func expectSame(_ simple: Node.Mapping, _ composed: Node.Mapping, _ yaml: String) {
        #expect(simple == composed, "\(yaml)")
        #expect(simple.count == composed.count, "\(yaml)")
        #expect(simple.style == composed.style, "\(yaml)")
        #expect(simple.mark?.description == composed.mark?.description, "\(yaml)")
        #expect(Node.mapping(simple).tag == Node.mapping(composed).tag, "\(yaml)")
        for (a, b) in zip(simple, composed) {
            for (x, y) in [(a.key, b.key), (a.value, b.value)] {
                #expect(x == y, "\(yaml)")
                #expect(x.scalar?.string == y.scalar?.string, "\(yaml)")
                #expect(x.scalar?.style == y.scalar?.style, "\(yaml)")
                #expect(x.mark?.description == y.mark?.description, "\(yaml)")
                #expect(x.tag == y.tag, "\(yaml)")
                #expect(x.bool == y.bool && x.int == y.int && x.float == y.float, "\(yaml)")
            }
        }
    }
}
