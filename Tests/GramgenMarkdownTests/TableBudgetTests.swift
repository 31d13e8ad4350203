import Foundation
import Testing
@testable import GramgenMarkdown

/// GFM pads every row to the header's width: a wide header over many short rows must not make
/// HTML many times the caption's size.
struct TableBudgetTests {
    static func table(columns: Int, rows: Int) -> String {
        "|" + Array(repeating: "h", count: columns).joined(separator: "|") + "|\n"
            + "|" + Array(repeating: "-", count: columns).joined(separator: "|") + "|\n"
            + String(repeating: "|x|\n", count: rows)
    }

    @Test("a caption's HTML stays within a small multiple of its size, whatever its tables", arguments: [
        (1500, 2500), (300, 300), (100, 4000), (4000, 100), (2, 2), (200_000, 0),
    ])
    func bounded(columns: Int, rows: Int) {
        let caption = Self.table(columns: columns, rows: rows)
        let html = renderer.render(caption).text.html
        #expect(html.utf8.count <= 20 * caption.utf8.count + 50_000, "\(caption.utf8.count) B → \(html.utf8.count) B")
    }

    @Test("thousands of brackets render in linear time, as text", arguments: ["![[]()", "[a](", "[[]()"])
    func brackets(_ unit: String) {
        // 1 MB: over a minute in cmark-gfm 0.29 for `![[]()` before the budget.
        let caption = String(repeating: unit, count: 1_000_000 / unit.utf8.count)
        let html = renderer.render(caption).text.html
        #expect(html.utf8.count <= 3 * caption.utf8.count)
        #expect(!html.contains("<img") && !html.contains("<a "))
    }

    @Test("a caption with a few links keeps them")
    func someLinks() {
        let html = renderer.render(String(repeating: "[a](https://x.com) ", count: 100)).text.html
        #expect(html.components(separatedBy: "<a href").count == 101)
    }

    @Test("tables people write are still tables")
    func normalTables() {
        #expect(renderer.render(Self.table(columns: 8, rows: 40)).text.html.contains("<table>"))
        #expect(renderer.render("| a | b |\n|:-|-:|\n| 1 | 2 |\n").text.html.contains("<td align=\"right\">2</td>"))
        #expect(TableBudget.allowsTables("no pipes at all"))
        #expect(!TableBudget.allowsTables(Self.table(columns: 1500, rows: 2500)))
    }
}
