import GramgenCore
/// A small JSON document (the web app's manifest; a feed's items are written by `JSONBlock`).
indirect enum JSONValue {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    /// Keys are written sorted; nil values are left out.
    case object(KeyValuePairs<String, JSONValue?>)
}

/// Writes JSON the way Foundation's JSONEncoder does with `[.sortedKeys, .prettyPrinted,
/// .withoutEscapingSlashes]`, byte for byte (two-space indents, `"key" : value`), without its
/// reflection-based encoding, which cost more than drawing the HTML pages. A small document is
/// a `JSONValue`; one written for every post (a feed's item) goes straight into the bytes through
/// `JSONBlock`, its keys given in order: as a tree of values, each object's keys sorted, a feed
/// item took 65,000 instructions (4% of a pages-only build).
enum JSONWriter {
    static func write(_ value: JSONValue, indent: Int = 0, into out: inout [UInt8]) {
        switch value {
        case .string(let text): writeString(text, into: &out)
        case .int(let number): writeInteger(number, into: &out)
        case .number(let number): writeNumber(number, into: &out)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .array(let items):
            array(indent: indent, into: &out) { block in
                for item in items { block.value(item) }
            }
        case .object(let fields):
            var order = fields.indices.filter { fields[$0].value != nil }
            order.sort { fields[$0].key < fields[$1].key }
            object(indent: indent, into: &out) { block in
                for index in order { block.value(fields[index].key, fields[index].value!) }
            }
        }
    }

    /// An object written member by member (`JSONBlock`), its keys given in sorted order.
    static func object(indent: Int, into out: inout [UInt8], _ members: (inout JSONBlock) -> Void) {
        JSONBlock.write(UInt8(ascii: "{"), UInt8(ascii: "}"), indent: indent, into: &out, members)
    }

    /// An array written element by element (`JSONBlock` without keys).
    static func array(indent: Int, into out: inout [UInt8], _ elements: (inout JSONBlock) -> Void) {
        JSONBlock.write(UInt8(ascii: "["), UInt8(ascii: "]"), indent: indent, into: &out, elements)
    }

    static func writeNumber(_ number: Double, into out: inout [UInt8]) {
        if number == number.rounded(), abs(number) < 1e15 {
            writeInteger(Int(number), into: &out)
        } else {
            out.append(contentsOf: "\(number)".utf8)
        }
    }

    /// `String(value)`'s digits, written in place (`DecimalDigits`).
    static func writeInteger(_ value: Int, into out: inout [UInt8]) {
        DecimalDigits.append(value, to: &out)
    }

    static func writeString(_ text: String, into out: inout [UInt8]) {
        text.withUTF8Bytes { writeString($0, into: &out) }
    }

    /// Runs of bytes that need no escape are copied whole, and the text is read once: byte by
    /// byte, after a pass to see whether any needs one, the feeds' `content_html` (HTML, quotes
    /// in every tag) took 1.6% of a pages-only build.
    static func writeString(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            runStart = index + 1
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            default:
                out.append(contentsOf: "u00".utf8)
                Hex.append(byte, to: &out)
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        out.append(UInt8(ascii: "\""))
    }
}

/// The members of an object or the elements of an array, written in place as they are given
/// (`JSONWriter.object`, `.array`): each on its own line, two spaces deeper than the brackets. An
/// object's keys must come in sorted order (checked in debug builds), and a member whose value
/// is nil is left out, as JSONEncoder leaves out a nil optional.
struct JSONBlock {
    /// The document: the block's bytes go at its end.
    fileprivate(set) var out: [UInt8]
    /// The brackets' indentation.
    let indent: Int
    private var count = 0
    #if DEBUG
    private var lastKey: String?
    #endif

    fileprivate init(indent: Int) {
        out = []
        self.indent = indent
    }

    fileprivate static func write(_ open: UInt8, _ close: UInt8, indent: Int, into out: inout [UInt8],
                                  _ body: (inout JSONBlock) -> Void) {
        var block = JSONBlock(indent: indent)
        swap(&block.out, &out)  // the document's buffer lent to the block, not copied
        block.out.append(open)
        body(&block)
        block.out.append(UInt8(ascii: "\n"))
        if block.count == 0 { block.out.append(UInt8(ascii: "\n")) }
        block.out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        block.out.append(close)
        swap(&block.out, &out)
    }

    /// Starts the next element: the comma after the one before, a new line and the indentation.
    private mutating func next() {
        if count > 0 { out.append(UInt8(ascii: ",")) }
        count += 1
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent + 2))
    }

    /// Starts the member `key`, up to its value.
    private mutating func start(_ key: String) {
        #if DEBUG
        assert(lastKey.map { $0 < key } ?? true, "JSON keys out of order: \(lastKey ?? "") before \(key)")
        lastKey = key
        #endif
        next()
        JSONWriter.writeString(key, into: &out)
        out.append(contentsOf: " : ".utf8)
    }

    mutating func value(_ key: String, _ value: JSONValue) {
        start(key)
        JSONWriter.write(value, indent: indent + 2, into: &out)
    }

    mutating func string(_ key: String, _ value: String?) {
        guard let value else { return }
        start(key)
        JSONWriter.writeString(value, into: &out)
    }

    mutating func int(_ key: String, _ value: Int?) {
        guard let value else { return }
        start(key)
        JSONWriter.writeInteger(value, into: &out)
    }

    mutating func number(_ key: String, _ value: Double?) {
        guard let value else { return }
        start(key)
        JSONWriter.writeNumber(value, into: &out)
    }

    mutating func bool(_ key: String, _ value: Bool) {
        start(key)
        out.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func object(_ key: String, _ members: (inout JSONBlock) -> Void) {
        start(key)
        JSONWriter.object(indent: indent + 2, into: &out, members)
    }

    mutating func array(_ key: String, _ elements: (inout JSONBlock) -> Void) {
        start(key)
        JSONWriter.array(indent: indent + 2, into: &out, elements)
    }

    /// The next element of an array.
    mutating func value(_ value: JSONValue) {
        next()
        JSONWriter.write(value, indent: indent + 2, into: &out)
    }

    mutating func string(_ value: String) {
        next()
        JSONWriter.writeString(value, into: &out)
    }

    mutating func object(_ members: (inout JSONBlock) -> Void) {
        next()
        JSONWriter.object(indent: indent + 2, into: &out, members)
    }

    /// Already written JSON, at this block's depth.
    mutating func raw(_ bytes: [UInt8]) {
        next()
        out += bytes
    }
}
