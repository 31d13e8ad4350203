import Foundation
import Yams

/// Front matter made only of `key: value` lines with short plain values — the usual post,
/// `date: 2024-05-25T14:30:00+09:00` — composed into the very nodes `Yams.compose` makes, without
/// libyaml and without the regular expressions Yams runs to check keys for duplicates.
///
/// Only text whose meaning in YAML is plain is taken: every line is a lower-case key, `: ` and a
/// value of printable ASCII that starts with a letter or digit and holds no `#`, no `: ` and no
/// trailing space. Anything else — quotes, lists, comments, tabs, blank lines, repeated keys,
/// other characters — returns nil and goes to Yams, so its errors are reported exactly as before.
enum SimpleFrontMatter {
    /// What `Yams.compose(yaml:)` returns for `yaml`, as a mapping, or nil when `yaml` is not simple.
    static func compose(_ yaml: String) -> Node.Mapping? {
        var pairs: [(Node, Node)] = []
        var keys = Set<Substring>()
        var line = 1
        for text in yaml.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            guard let (keyLength, valueStart) = split(text) else { return nil }
            let key = Substring(text[text.startIndex..<text.index(text.startIndex, offsetBy: keyLength)])
            guard keys.insert(key).inserted,
                  let keyMark = MarkTable.mark(line: line, column: 1),
                  let valueMark = MarkTable.mark(line: line, column: keyLength + 3) else { return nil }
            let value = Substring(text[valueStart...])
            pairs.append((.scalar(.init(String(key), implicitTag(), .plain, keyMark)),
                          .scalar(.init(String(value), implicitTag(), .plain, valueMark))))
            line += 1
        }
        guard !pairs.isEmpty, let mark = MarkTable.mark(line: 1, column: 1) else { return nil }
        return Node.Mapping(pairs, implicitTag(), .any, mark)
    }

    /// The tag the parser gives a node written without one. Each node needs its own (a tag keeps
    /// what it resolves to); they share one constructor, as a parser's nodes do, because
    /// `Constructor.default` builds a new one, with its tables, on every use.
    private static func implicitTag() -> Tag {
        Tag(.implicit, .default, constructor)
    }

    /// Only read: its tables are constants.
    nonisolated(unsafe) private static let constructor = Constructor.default

    /// The key's length and where the value starts, when the line is `key: value` as above.
    private static func split(_ line: Substring.UTF8View) -> (keyLength: Int, valueStart: Substring.UTF8View.Index)? {
        var index = line.startIndex
        var keyLength = 0
        while index < line.endIndex, isKeyByte(line[index], first: keyLength == 0) {
            keyLength += 1
            line.formIndex(after: &index)
        }
        // libyaml refuses keys over 1024 characters; long ones are left to it.
        guard keyLength > 0, keyLength <= 100, index < line.endIndex, line[index] == UInt8(ascii: ":") else { return nil }
        line.formIndex(after: &index)
        guard index < line.endIndex, line[index] == UInt8(ascii: " ") else { return nil }
        line.formIndex(after: &index)
        let valueStart = index
        guard index < line.endIndex, isAlphanumeric(line[index]) else { return nil }
        var previous: UInt8 = 0
        while index < line.endIndex {
            let byte = line[index]
            guard byte >= 0x20, byte <= 0x7E, byte != UInt8(ascii: "#"),
                  !(previous == UInt8(ascii: ":") && byte == UInt8(ascii: " ")) else { return nil }
            previous = byte
            line.formIndex(after: &index)
        }
        guard previous != UInt8(ascii: " "), previous != UInt8(ascii: ":") else { return nil }
        return (keyLength, valueStart)
    }

    private static func isKeyByte(_ byte: UInt8, first: Bool) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
            || (!first && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}

/// Yams' `Mark` has no public initialiser, so the marks of the simple front matter are taken from
/// Yams itself: composing a lone scalar at a line and column gives a node marked there. Each
/// position is composed once and kept.
enum MarkTable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var marks: [Int: Mark] = [:]
    /// Positions beyond these are rare enough to leave to Yams.
    private static let maxLine = 200, maxColumn = 200

    static func mark(line: Int, column: Int) -> Mark? {
        guard (1...maxLine).contains(line), (1...maxColumn).contains(column) else { return nil }
        let slot = line * (maxColumn + 1) + column
        lock.lock()
        defer { lock.unlock() }
        if let mark = marks[slot] { return mark }
        let yaml = String(repeating: "\n", count: line - 1) + String(repeating: " ", count: column - 1) + "x"
        guard let node = try? Yams.compose(yaml: yaml, .default, .default, YAMLEncoding.default),
              let mark = node.mark, mark.line == line, mark.column == column else { return nil }
        marks[slot] = mark
        return mark
    }
}
