/// GFM pads every table row to its header's column count, so a caption of a few kilobytes (a
/// header of 1,500 columns over 2,500 one-cell rows) makes millions of cells: measured 308 MB of
/// HTML, 978 MB of memory and 20 s for a 16 KB caption. Before parsing, this counts the cells a
/// caption's tables could make at most; past the budget the caption is parsed without the table
/// extension, so the table shows as its text. The budget allows any table a person writes by hand.
enum TableBudget {
    /// Cells allowed for a caption of `bytes` bytes: each cell draws ~10 bytes of HTML, so the
    /// output stays within a small multiple of the input.
    static func maximumCells(forBytes bytes: Int) -> Int { 4_096 + bytes }

    /// cmark-gfm also spends ~35 µs per column of a header row (a 40 KB header of 20,000
    /// columns: 1.5 s), so wider tables are never parsed as tables.
    static let maximumColumns = 1_000

    /// Whether the caption's possible tables fit the budget. Conservative: every line that looks
    /// like a delimiter row (`|---|:-:|`) is taken as a table, with each following line up to a
    /// blank one as a row.
    static func allowsTables(_ markdown: String) -> Bool {
        let bytes = Array(markdown.utf8)
        guard bytes.contains(UInt8(ascii: "|")) else { return true }
        let budget = maximumCells(forBytes: bytes.count)
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 10 {
            lines.append(bytes[start..<index])
            start = index + 1
        }
        lines.append(bytes[start...])
        var cells = 0, index = 0
        while index < lines.count {
            let columns = delimiterColumns(lines[index])
            guard columns > 0 else {
                index += 1
                continue
            }
            if columns > maximumColumns { return false }
            var rows = 1
            index += 1
            while index < lines.count, !isBlank(lines[index]) {
                rows += 1
                index += 1
            }
            cells += columns * rows
            if cells > budget { return false }
        }
        return true
    }

    /// The columns of a delimiter row (cells of `-` with optional `:`, split by `|`); 0 if not one.
    private static func delimiterColumns(_ line: ArraySlice<UInt8>) -> Int {
        var columns = 0, pipes = 0, cellHasDash = false
        for byte in line {
            switch byte {
            case UInt8(ascii: "|"):
                pipes += 1
                if cellHasDash { columns += 1 }
                cellHasDash = false
            case UInt8(ascii: "-"): cellHasDash = true
            case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), 13: break
            default: return 0
            }
        }
        if cellHasDash { columns += 1 }
        return pipes > 0 ? columns : 0
    }

    private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 32 || $0 == 9 || $0 == 13 }
    }
}
