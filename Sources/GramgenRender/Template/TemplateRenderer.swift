/// Draws compiled templates into bytes. Names are looked up from the innermost section outwards;
/// `{{name}}` is HTML-escaped one Unicode scalar at a time (see `HTMLBytes` in Escape.swift).
///
/// Why gramgen has its own Mustache engine rather than swift-mustache (Hummingbird's): pages are
/// most of a build's time once images are cached, and on the 10,000-post corpus swift-mustache drew
/// them 12× slower with its `MustacheParent` protocol and 37× slower with its default reflection
/// (`Mirror`) than this engine, which compiles each template once, numbers field names at compile
/// time (`FieldName`) so view models answer from an array, walks view-model arrays without boxing
/// (`TemplateObjectList`), and writes bytes. It also escapes per Unicode scalar and drops the
/// characters XML forbids, so the same escaper serves HTML and the Atom feed. Conformance with the
/// Mustache spec is tested case by case (MustacheSpecTests).
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
        case .partial(let name, let more, _):
            guard depth < Self.maximumDepth, let partial = templates[name] else { return }
            draw(partial.nodes, stack: &stack, indentation: indentation + more, depth: depth + 1, into: &out)
        case .dynamicPartial(let path, let more):
            guard depth < Self.maximumDepth, case .text(let name) = lookup(path, in: stack), let partial = templates[name] else { return }
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
