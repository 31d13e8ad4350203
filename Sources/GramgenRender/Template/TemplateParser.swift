/// Reads Mustache text into a `CompiledTemplate`. Supported: `{{name}}`, `{{{name}}}`, `{{& name}}`,
/// dotted names and `{{.}}`, sections `{{#name}}`, inverted sections `{{^name}}`, partials
/// `{{> name}}` and dynamic partials `{{>*field}}`, comments `{{! … }}` and set delimiters
/// `{{=<% %>=}}`, with the Mustache rules for standalone tag lines and partial indentation: every
/// case of the Mustache specification's required files (MustacheSpecTests). Lambdas and
/// inheritance are refused with their line and column, as is anything else.
struct TemplateParser {
    enum Kind { case variable, unescaped, section, inverted, close, partial, dynamicPartial, comment, delimiters }

    struct Tag {
        var kind: Kind
        var name: String
        var offset: Int
    }

    enum Piece {
        /// Text never spans lines: a piece ends at its line's `\n`.
        case text(ArraySlice<UInt8>)
        case tag(Tag)
    }

    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }

    func parse() throws(TemplateSyntaxError) -> CompiledTemplate {
        CompiledTemplate(nodes: try tree(from: standalone(try lex())))
    }

    // MARK: Lexing

    /// The tag delimiters in force: `{{` `}}` until a `{{=<% %>=}}` tag changes them.
    struct Delimiters {
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)
    }

    func lex() throws(TemplateSyntaxError) -> [Piece] {
        var pieces: [Piece] = []
        var index = 0
        var delimiters = Delimiters()
        while index < bytes.count {
            let start = find(delimiters.open, from: index) ?? bytes.count
            appendText(index..<start, to: &pieces)
            guard start < bytes.count else { break }
            let (tag, end) = try readTag(at: start, delimiters: &delimiters)
            pieces.append(.tag(tag))
            index = end
        }
        return pieces
    }

    private func appendText(_ range: Range<Int>, to pieces: inout [Piece]) {
        var lineStart = range.lowerBound
        for i in range where bytes[i] == UInt8(ascii: "\n") {
            pieces.append(.text(bytes[lineStart...i]))
            lineStart = i + 1
        }
        if lineStart < range.upperBound { pieces.append(.text(bytes[lineStart..<range.upperBound])) }
    }

    private func readTag(at start: Int, delimiters: inout Delimiters) throws(TemplateSyntaxError) -> (Tag, Int) {
        let afterOpen = start + delimiters.open.count
        let triple = afterOpen < bytes.count && bytes[afterOpen] == UInt8(ascii: "{")
        let closing = triple ? [UInt8(ascii: "}")] + delimiters.close : delimiters.close
        let contentStart = afterOpen + (triple ? 1 : 0)
        guard let close = find(closing, from: contentStart) else {
            throw error(at: start, "the tag is never closed", hint: "end it with \(String(decoding: closing, as: UTF8.self))")
        }
        var content = bytes[contentStart..<close]
        var kind = Kind.variable
        if triple {
            kind = .unescaped
        } else if let first = content.first {
            switch first {
            case UInt8(ascii: "#"): kind = .section
            case UInt8(ascii: "^"): kind = .inverted
            case UInt8(ascii: "/"): kind = .close
            case UInt8(ascii: ">"): kind = .partial
            case UInt8(ascii: "&"): kind = .unescaped
            case UInt8(ascii: "!"): kind = .comment
            case UInt8(ascii: "="): kind = .delimiters
            case UInt8(ascii: "<"), UInt8(ascii: "$"):
                throw error(at: start, "template inheritance ({{< parent}}, {{$ block}}) is not supported",
                            hint: "use partials ({{> name}}) instead")
            case UInt8(ascii: "%"):
                throw error(at: start, "pragmas ({{% … }}) are not supported", hint: "remove the tag")
            default: break
            }
            if kind != .variable { content = content.dropFirst() }
            if kind == .partial, trimmed(content).first == UInt8(ascii: "*") {
                kind = .dynamicPartial
                content = trimmed(content).dropFirst()
            }
        }
        let end = close + closing.count
        if kind == .comment { return (Tag(kind: kind, name: "", offset: start), end) }
        if kind == .delimiters {
            delimiters = try newDelimiters(content, at: start)
            return (Tag(kind: kind, name: "", offset: start), end)
        }
        let name = String(decoding: trimmed(content), as: UTF8.self)
        try validate(name, kind: kind, at: start)
        return (Tag(kind: kind, name: name, offset: start), end)
    }

    /// `{{=<% %>=}}`: the two new delimiters between the equals signs, separated by white space.
    private func newDelimiters(_ content: ArraySlice<UInt8>, at offset: Int) throws(TemplateSyntaxError) -> Delimiters {
        let parts = content.last == UInt8(ascii: "=") ? trimmed(content.dropLast()).split(whereSeparator: Self.isLineSpace) : []
        guard parts.count == 2, parts.allSatisfy({ !$0.contains(UInt8(ascii: "=")) }) else {
            throw error(at: offset, "a set-delimiter tag needs two delimiters between equals signs",
                        hint: "write e.g. {{=<% %>=}} (and <%={{ }}=%> to go back)")
        }
        return Delimiters(open: Array(parts[0]), close: Array(parts[1]))
    }

    private func validate(_ name: String, kind: Kind, at offset: Int) throws(TemplateSyntaxError) {
        guard !name.isEmpty else {
            throw error(at: offset, "the tag has no name", hint: "write a field name between the braces, e.g. {{title}}")
        }
        if name.contains("(") {
            throw error(at: offset, "`\(name)`: functions in tags are not supported",
                        hint: "use the field itself; docs/templates.md lists every field")
        }
        let allowed: (UInt8) -> Bool = { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                true
            case UInt8(ascii: "/"): kind == .partial || kind == .dynamicPartial
            // `{{>**name}}` and `{{>*a.*b}}` name nothing (the spec draws them as nothing).
            case UInt8(ascii: "*"): kind == .dynamicPartial
            default: false
            }
        }
        guard name.utf8.allSatisfy(allowed) else {
            throw error(at: offset, "`\(name)` is not a field or template name",
                        hint: "names are letters, digits, _, - and dots (docs/templates.md lists every field)")
        }
    }

    // MARK: Standalone lines

    /// A line holding only whitespace and one section, inverted, closing, partial or comment tag
    /// is not drawn at all; a standalone partial keeps the whitespace before it as its indentation.
    func standalone(_ pieces: [Piece]) -> [(Piece, indentation: ArraySlice<UInt8>?)] {
        var result: [(Piece, indentation: ArraySlice<UInt8>?)] = []
        var lineStart = 0
        while lineStart < pieces.count {
            var lineEnd = lineStart
            while lineEnd < pieces.count {
                lineEnd += 1
                if case .text(let text) = pieces[lineEnd - 1], text.last == UInt8(ascii: "\n") { break }
            }
            let line = pieces[lineStart..<lineEnd]
            var tags: [Tag] = []
            var blank = true
            for piece in line {
                switch piece {
                case .tag(let tag): tags.append(tag)
                case .text(let text): blank = blank && text.allSatisfy(Self.isLineSpace)
                }
            }
            if blank, tags.count == 1, tags[0].kind != .variable, tags[0].kind != .unescaped {
                var before: ArraySlice<UInt8> = []
                for piece in line {
                    if case .text(let text) = piece { before += text } else { break }
                }
                if tags[0].kind == .partial || tags[0].kind == .dynamicPartial {
                    if !before.isEmpty { result.append((.text(before), nil)) }
                    result.append((.tag(tags[0]), before))
                } else {
                    result.append((.tag(tags[0]), nil))
                }
            } else {
                result += line.map { ($0, nil) }
            }
            lineStart = lineEnd
        }
        return result
    }

    private static func isLineSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    // MARK: Tree

    private func tree(from pieces: [(Piece, indentation: ArraySlice<UInt8>?)]) throws(TemplateSyntaxError) -> [CompiledTemplate.Node] {
        var stack: [(tag: Tag, nodes: [CompiledTemplate.Node])] = []
        var nodes: [CompiledTemplate.Node] = []
        for (piece, indentation) in pieces {
            switch piece {
            case .text(let text):
                nodes.append(.text(Array(text)))
            case .tag(let tag):
                switch tag.kind {
                case .comment, .delimiters: break
                case .variable: nodes.append(.variable(path: Self.path(tag.name), escaped: true))
                case .unescaped: nodes.append(.variable(path: Self.path(tag.name), escaped: false))
                case .partial: nodes.append(.partial(name: tag.name, indentation: Array(indentation ?? []), line: position(of: tag.offset).line))
                case .dynamicPartial: nodes.append(.dynamicPartial(path: Self.path(tag.name), indentation: Array(indentation ?? [])))
                case .section, .inverted:
                    stack.append((tag, nodes))
                    nodes = []
                case .close:
                    guard let open = stack.popLast() else {
                        throw error(at: tag.offset, "{{/\(tag.name)}} closes a section that was never opened",
                                    hint: "remove it, or open the section with {{#\(tag.name)}} before it")
                    }
                    guard open.tag.name == tag.name else {
                        let (line, _) = position(of: open.tag.offset)
                        throw error(at: tag.offset,
                                    "{{/\(tag.name)}} does not match the open section {{\(open.tag.kind == .section ? "#" : "^")\(open.tag.name)}} of line \(line)",
                                    hint: "close sections in the reverse order they were opened")
                    }
                    let body = nodes
                    nodes = open.nodes
                    nodes.append(.section(path: Self.path(tag.name), inverted: open.tag.kind == .inverted, body: body))
                }
            }
        }
        if let open = stack.last {
            let sign = open.tag.kind == .section ? "#" : "^"
            throw error(at: open.tag.offset, "{{\(sign)\(open.tag.name)}} is never closed",
                        hint: "add {{/\(open.tag.name)}} where the section ends")
        }
        return nodes
    }

    private static func path(_ name: String) -> FieldPath { FieldPath(name) }

    // MARK: Helpers

    private func trimmed(_ slice: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = slice
        while let first = slice.first, Self.isLineSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, Self.isLineSpace(last) { slice = slice.dropLast() }
        return slice
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first else { return nil }
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i] == first, bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// Line and column (in characters) of a byte offset, both from 1.
    func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return (line, column)
    }

    private func error(at offset: Int, _ message: String, hint: String) -> TemplateSyntaxError {
        let (line, column) = position(of: offset)
        return TemplateSyntaxError(line: line, column: column, message: message, hint: hint)
    }
}
