/// Draws compiled templates into bytes. Names are looked up from the innermost section outwards;
/// `{{name}}` is HTML-escaped one Unicode scalar at a time (see `HTMLBytes`).
struct TemplateRenderer {
    typealias Node = CompiledTemplate.Node

    let templates: [String: CompiledTemplate]

    /// The page drawn by template `name`, or nil when there is no such template.
    func render(_ name: String, _ value: TemplateValue) -> [UInt8]? {
        guard let template = templates[name] else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(32 * 1024)
        var stack = [value]
        draw(template.nodes, stack: &stack, indentation: [], depth: 0, into: &out)
        return out
    }

    /// Partials may include themselves through sections; this bounds a theme that recurses forever.
    static let maximumDepth = 64

    private func draw(_ nodes: [Node], stack: inout [TemplateValue], indentation: [UInt8], depth: Int,
                      into out: inout [UInt8]) {
        let start = out.count
        for node in nodes {
            // Inside an indented partial, whatever follows a line break of its own output is indented.
            guard !indentation.isEmpty, out.count > start, out.last == UInt8(ascii: "\n") else {
                drawNode(node, stack: &stack, indentation: indentation, depth: depth, into: &out)
                continue
            }
            out += indentation
            let before = out.count
            drawNode(node, stack: &stack, indentation: indentation, depth: depth, into: &out)
            if out.count == before { out.removeLast(indentation.count) }
        }
    }

    private func drawNode(_ node: Node, stack: inout [TemplateValue], indentation: [UInt8], depth: Int,
                          into out: inout [UInt8]) {
        switch node {
        case .text(let bytes):
            out += bytes
        case .variable(let path, let escaped):
            switch lookup(path, in: stack) {
            case .text(let text): escaped ? HTMLBytes.appendEscaped(text, to: &out) : out.append(contentsOf: text.utf8)
            case .number(let number): out.append(contentsOf: String(number).utf8)
            case .flag(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
            case .missing, .list, .objects, .object: break
            }
        case .section(let path, let inverted, let body):
            let value = lookup(path, in: stack)
            if inverted {
                if value.isFalsy { draw(body, stack: &stack, indentation: indentation, depth: depth, into: &out) }
                return
            }
            switch value {
            case .missing: break
            case .flag(let flag):
                if flag { draw(body, stack: &stack, indentation: indentation, depth: depth, into: &out) }
            case .list(let items):
                for item in items {
                    stack.append(item)
                    draw(body, stack: &stack, indentation: indentation, depth: depth, into: &out)
                    stack.removeLast()
                }
            case .objects(let items):
                for index in 0..<items.count {
                    stack.append(items.item(index))
                    draw(body, stack: &stack, indentation: indentation, depth: depth, into: &out)
                    stack.removeLast()
                }
            case .text, .number, .object:
                stack.append(value)
                draw(body, stack: &stack, indentation: indentation, depth: depth, into: &out)
                stack.removeLast()
            }
        case .partial(let name, let more):
            guard depth < Self.maximumDepth, let partial = templates[name] else { return }
            draw(partial.nodes, stack: &stack, indentation: indentation + more, depth: depth + 1, into: &out)
        }
    }

    /// The first name is searched from the innermost value outwards; the rest are fields of what it found.
    private func lookup(_ path: FieldPath, in stack: [TemplateValue]) -> TemplateValue {
        guard let first = path.parts.first else { return stack.last ?? .missing }
        var value = TemplateValue.missing
        var index = stack.count
        while index > 0 {
            index -= 1
            value = stack[index].field(first)
            if case .missing = value { continue }
            break
        }
        for name in path.parts.dropFirst() {
            value = value.field(name)
        }
        return value
    }
}

/// HTML escaping on UTF-8 bytes: `& < > " '` become entities; characters XML 1.0 forbids (C0 controls
/// other than tab, line feed and carriage return; U+FFFE, U+FFFF) are dropped so feeds stay
/// well-formed. Multi-byte UTF-8 sequences never contain these ASCII bytes, so working on bytes
/// is working on Unicode scalars: a quote followed by a combining mark is still escaped.
enum HTMLBytes {
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped($0, to: &out) }
    }

    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var runStart = 0
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            let replacement: StaticString?
            var skip = 1
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D: replacement = ""
            case 0xEF where i + 2 < count && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                replacement = ""
                skip = 3
            default:
                i += 1
                continue
            }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            if let replacement, replacement.utf8CodeUnitCount > 0 {
                out.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            }
            i += skip
            runStart = i
        }
        if runStart < count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
    }
}
