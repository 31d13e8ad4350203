import GramgenCore
/// A JSON value for gramgen's feeds.
indirect enum JSONValue {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    /// Keys are written sorted; nil values are left out. Pairs as written, not a dictionary: no
    /// key is hashed (a feed item's objects were a twentieth of a pages-only build).
    case object(KeyValuePairs<String, JSONValue?>)
    /// Already written JSON (at the indentation it will be placed at).
    case raw([UInt8])
}

/// Writes JSON the way Foundation's JSONEncoder does with `[.sortedKeys, .prettyPrinted,
/// .withoutEscapingSlashes]`, byte for byte (two-space indents, `"key" : value`), without its
/// reflection-based encoding, which cost more than drawing the HTML pages.
enum JSONWriter {
    static func write(_ value: JSONValue, indent: Int = 0, into out: inout [UInt8]) {
        switch value {
        case .string(let text): writeString(text, into: &out)
        case .int(let number): writeInteger(number, into: &out)
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 {
                out.append(contentsOf: String(Int(number)).utf8)
            } else {
                out.append(contentsOf: "\(number)".utf8)
            }
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .raw(let bytes): out += bytes
        case .array(let items):
            out.append(UInt8(ascii: "["))
            writeMembers(items.count, indent: indent, into: &out) { index, out in
                write(items[index], indent: indent + 2, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            var order = fields.indices.filter { fields[$0].value != nil }
            order.sort { fields[$0].key < fields[$1].key }
            out.append(UInt8(ascii: "{"))
            writeMembers(order.count, indent: indent, into: &out) { index, out in
                let (key, value) = fields[order[index]]
                writeString(key, into: &out)
                out.append(contentsOf: " : ".utf8)
                write(value!, indent: indent + 2, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeMembers(_ count: Int, indent: Int, into out: inout [UInt8],
                                     _ member: (Int, inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "\n"))
        if count == 0 { out.append(UInt8(ascii: "\n")) }
        for index in 0..<count {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent + 2))
            member(index, &out)
            out.append(contentsOf: index < count - 1 ? ",\n".utf8 : "\n".utf8)
        }
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
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
