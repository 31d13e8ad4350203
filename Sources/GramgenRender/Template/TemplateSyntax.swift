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
        var pending = nodes[...]
        var stack: [ArraySlice<Node>] = []
        while true {
            guard let node = pending.popFirst() else {
                guard let outer = stack.popLast() else { break }
                pending = outer
                continue
            }
            switch node {
            case .partial(let name, _, let line): found.append((name, line))
            case .section(_, _, let body):
                stack.append(pending)
                pending = body[...]
            default: break
            }
        }
        return found
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
