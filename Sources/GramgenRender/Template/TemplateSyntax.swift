/// A compiled template: text and tags as a tree, with standalone tag lines already removed.
struct CompiledTemplate: Sendable {
    indirect enum Node: Sendable {
        case text([UInt8])
        /// `{{name}}` (escaped) or `{{{name}}}` / `{{& name}}` (as is). `path` is the dotted name split.
        case variable(path: FieldPath, escaped: Bool)
        /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
        case section(path: FieldPath, inverted: Bool, body: [Node])
        /// `{{> name}}`; a standalone partial indents every line it draws like its tag.
        case partial(name: String, indentation: [UInt8])
    }

    var nodes: [Node]
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
