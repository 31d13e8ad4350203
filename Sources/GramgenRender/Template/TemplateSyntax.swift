/// A compiled template: text and tags as a tree, with standalone tag lines already removed.
struct CompiledTemplate: Sendable {
    indirect enum Node: Sendable {
        case text([UInt8])
        /// `{{name}}` (escaped) or `{{{name}}}` / `{{& name}}` (as is). `path` is the dotted name split.
        case variable(path: FieldPath, escaped: Bool)
        /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
        case section(path: FieldPath, inverted: Bool, body: [Node])
        /// `{{> name}}`; a standalone partial indents every line it draws like its tag.
        case partial(name: String, indentation: [UInt8], line: Int)
        /// `{{>*field}}`: the partial named by the field's text.
        case dynamicPartial(path: FieldPath, indentation: [UInt8])
    }

    var nodes: [Node]

    /// The partials the template names (`{{> name}}`), with the line of each tag, in order.
    var partials: [(name: String, line: Int)] {
        var found: [(name: String, line: Int)] = []
        visit { if case .partial(let name, _, let line) = $0 { found.append((name, line)) } }
        return found
    }

    /// Every field name the template reads, each part of a dotted name on its own.
    var fieldNames: Set<String> {
        var names: Set<String> = []
        visit { node in
            switch node {
            case .variable(let path, _), .section(let path, _, _), .dynamicPartial(let path, _):
                for part in path.parts { names.insert(part.text) }
            default: break
            }
        }
        return names
    }

    /// Calls `body` with every node, sections' bodies included, in order.
    private func visit(_ body: (Node) -> Void) {
        var pending = nodes[...]
        var stack: [ArraySlice<Node>] = []
        while true {
            guard let node = pending.popFirst() else {
                guard let outer = stack.popLast() else { break }
                pending = outer
                continue
            }
            body(node)
            if case .section(_, _, let inner) = node {
                stack.append(pending)
                pending = inner[...]
            }
        }
    }
}

/// A dotted name split at the dots, each part numbered (`FieldName`); `.` (the current item) has no parts.
struct FieldPath: Sendable {
    let parts: [FieldName]

    init(_ name: String) {
        parts = name == "." ? [] : name.split(separator: ".", omittingEmptySubsequences: false).map { FieldName(String($0)) }
    }
}

/// A template that does not parse: where, what and how to fix it.
struct TemplateSyntaxError: Error, Equatable {
    var line: Int
    var column: Int
    var message: String
    var hint: String
}
