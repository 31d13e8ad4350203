import CCmarkGFM
import Foundation

/// Every call into cmark-gfm lives in this file (one C library, one file), so the rest of the
/// target works with Swift values and never handles a C pointer or frees one.
enum CmarkDocument {
    /// Parses `markdown` as GitHub-flavoured Markdown, hands the tree to `edit`, then renders the
    /// edited tree. CMARK_OPT_UNSAFE is never passed: raw HTML becomes `<!-- raw HTML omitted -->`
    /// and javascript:/vbscript:/file:/data: link targets are dropped, so a caption cannot inject
    /// markup. Everything is freed before returning; `edit` must not keep any `CmarkNode`.
    static func render(_ markdown: String, edit: (CmarkNode) -> Void) -> String {
        let toolkit = Toolkit.shared
        guard let parser = cmark_parser_new(options) else { return "" }
        defer { cmark_parser_free(parser) }
        var source = markdown
        let tables = TableBudget.allowsTables(markdown)
        let parsed: OpaquePointer? = toolkit.lock.withLock {
            for extensionPointer in toolkit.extensions where tables || extensionPointer != toolkit.table {
                cmark_parser_attach_syntax_extension(parser, extensionPointer)
            }
            source.withUTF8 { bytes in
                guard let base = bytes.baseAddress else { return }
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    cmark_parser_feed(parser, $0, bytes.count)
                }
            }
            return cmark_parser_finish(parser)
        }
        guard let root = parsed else { return "" }
        defer { cmark_node_free(root) }
        edit(CmarkNode(root))
        guard let html = cmark_render_html(root, options, cmark_parser_get_syntax_extensions(parser)) else {
            return ""
        }
        defer { free(html) }
        return String(cString: html)
    }

    /// Plain CommonMark safety defaults; source positions are read from nodes, not printed.
    private static let options = CMARK_OPT_DEFAULT
}

/// One node of a parsed document. It borrows the tree owned by `CmarkDocument.render`, so it is
/// only valid inside that call's `edit` closure.
struct CmarkNode: Equatable {
    /// What the walker needs to know about a node; extension nodes are classified by their
    /// block/inline bit, so tables and strikethrough need no special cases.
    enum Kind: Equatable {
        case text, marker, softBreak, lineBreak, code, htmlInline, link, image, inlineContainer
        case codeBlock, htmlBlock, container, leafBlock
    }

    fileprivate let raw: OpaquePointer

    fileprivate init(_ raw: OpaquePointer) { self.raw = raw }

    var kind: Kind {
        let type = cmark_node_get_type(raw)
        switch type {
        case CMARK_NODE_TEXT: return .text
        case CMARK_NODE_HTML_INLINE: return Marker.location(of: raw) == nil ? .htmlInline : .marker
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code
        case CMARK_NODE_LINK: return .link
        case CMARK_NODE_IMAGE: return .image
        case CMARK_NODE_CODE_BLOCK: return .codeBlock
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock
        case CMARK_NODE_THEMATIC_BREAK: return .leafBlock
        default:
            return type.rawValue & Marker.typeMask == Marker.inlineBits ? .inlineContainer : .container
        }
    }

    var firstChild: CmarkNode? { cmark_node_first_child(raw).map(CmarkNode.init) }
    var next: CmarkNode? { cmark_node_next(raw).map(CmarkNode.init) }
    var parent: CmarkNode? { cmark_node_parent(raw).map(CmarkNode.init) }

    /// The text of a text, code, code block or marker node; empty for other kinds.
    var literal: String { cmark_node_get_literal(raw).map { String(cString: $0) } ?? "" }

    /// Where a marker's `#` or `@` stands in the source, as cmark counts it: 1-based line and
    /// byte column. The column can be off on indented continuation lines (cmark does not count
    /// the stripped indentation), so it is only a hint; `SourceLocator` finds the exact place.
    var markerLocation: (line: Int, column: Int)? { Marker.location(of: raw) }

    func setLiteral(_ text: String) { cmark_node_set_literal(raw, text) }

    /// Turns a marker back into the plain `#` or `@` it stood for.
    func convertMarkerToText() {
        let character = literal
        cmark_node_set_user_data(raw, nil)
        cmark_node_set_type(raw, CMARK_NODE_TEXT)  // frees the literal, so set it again
        cmark_node_set_literal(raw, character)
    }

    /// A link with an empty title whose only child is `text`; cmark escapes both when rendering.
    func insertLinkBefore(url: String, text: String) {
        guard let link = cmark_node_new(CMARK_NODE_LINK) else { return }
        cmark_node_set_url(link, url)
        cmark_node_set_title(link, "")
        if let child = cmark_node_new(CMARK_NODE_TEXT) {
            cmark_node_set_literal(child, text)
            if cmark_node_append_child(link, child) == 0 { cmark_node_free(child) }
        }
        insert(link)
    }

    /// Unlinks and frees this node and its children.
    func remove() { cmark_node_free(raw) }

    private func insert(_ node: OpaquePointer) {
        if cmark_node_insert_before(raw, node) == 0 { cmark_node_free(node) }
    }
}

/// cmark-gfm 0.29 keeps its table of "special" inline characters in one process-wide array that
/// every parse switches on and off (`cmark_manage_extensions_special_characters`). Two parses at
/// once then silently lose strikethrough, autolinks and our markers (measured: half of the
/// renders of 4 parallel threads came out wrong). So parsing is serialised behind `lock`; walking
/// and rendering the tree run in parallel. The extension pointers never change after `init`.
private final class Toolkit: @unchecked Sendable {
    static let shared = Toolkit()

    let lock = NSLock()
    let extensions: [OpaquePointer]
    /// Left out of a parse whose tables would be too large (`TableBudget`).
    let table: OpaquePointer?

    private init() {
        cmark_gfm_core_extensions_ensure_registered()
        let names: [String] = ["autolink", "strikethrough", "table", "tagfilter"]
        var found = names.compactMap { (name: String) -> OpaquePointer? in
            cmark_find_syntax_extension(name)
        }
        // Attached last so autolink's e-mail pass sees the document exactly as without us.
        if let marker = Marker.makeExtension() { found.append(marker) }
        extensions = found
        table = cmark_find_syntax_extension("table")
    }
}

/// An inline extension that turns every `#` and `@` the inline parser meets as a plain source
/// character into a marker node (an HTML_INLINE node whose user data holds its position).
///
/// Why: cmark decodes `&#35;`, `&num;` and `\#` into a literal `#` and then merges all adjacent
/// text nodes before any extension can look, so the finished tree cannot tell a typed `#` from a
/// decoded one. Entities, escapes, code spans, autolinks, raw HTML and link destinations are all
/// consumed by cmark before extensions are asked, so a marker is exactly "a `#`/`@` the author
/// typed in running text". Markers are never rendered: the walker turns each one into a link or
/// back into text.
private enum Marker {
    static let typeMask: UInt32 = 0xC000
    static let inlineBits: UInt32 = 0xC000
    private static let flag = 1 << 62

    static func makeExtension() -> OpaquePointer? {
        guard let created = cmark_syntax_extension_new("gramgen-marker") else { return nil }
        cmark_syntax_extension_set_match_inline_func(created, matchMarker)
        let memory = cmark_get_default_mem_allocator()
        var characters: UnsafeMutablePointer<cmark_llist>?
        for character in [UInt8(ascii: "#"), UInt8(ascii: "@")] {
            characters = cmark_llist_append(memory, characters, UnsafeMutableRawPointer(bitPattern: Int(character)))
        }
        cmark_syntax_extension_set_special_inline_chars(created, characters)  // the extension owns the list
        return created
    }

    static func pack(line: Int32, column: Int32) -> UnsafeMutableRawPointer? {
        let line = Int(max(line, 1)) & 0x3FFF_FFFF, column = Int(max(column, 1)) & 0xFFFF_FFFF
        return UnsafeMutableRawPointer(bitPattern: flag | line << 32 | column)
    }

    static func location(of node: OpaquePointer) -> (line: Int, column: Int)? {
        guard let data = cmark_node_get_user_data(node) else { return nil }
        let bits = Int(bitPattern: data)
        guard bits & flag != 0 else { return nil }
        return (line: (bits >> 32) & 0x3FFF_FFFF, column: bits & 0xFFFF_FFFF)
    }

    /// Leaves an `@` as text when cmark's e-mail autolinker may need it (it only looks inside
    /// text nodes): after a letter, digit, `.` or `_` it cannot start a mention anyway, and after
    /// `+` or `-` only when an e-mail domain follows.
    static func belongsToEmail(_ inline: OpaquePointer, at offset: Int32) -> Bool {
        guard offset > 0 else { return false }
        let previous = cmark_inline_parser_peek_at(inline, offset - 1)
        if isASCIIAlphanumeric(previous) || previous == UInt8(ascii: ".") || previous == UInt8(ascii: "_") {
            return true
        }
        guard previous == UInt8(ascii: "+") || previous == UInt8(ascii: "-") else { return false }
        defer { cmark_inline_parser_set_offset(inline, offset) }
        var sawDot = false, position = offset + 1
        while position < offset + 256 {
            cmark_inline_parser_set_offset(inline, position)
            let byte = cmark_inline_parser_peek_char(inline)  // 0 past the end
            if byte == UInt8(ascii: ".") {
                sawDot = true
            } else if isASCIIAlphanumeric(byte) {
                if sawDot { return true }
            } else if byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") {
                return false
            }
            position += 1
        }
        return false
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }
}

/// cmark's `match_inline` callback; it is called at the start of every text run, for any character.
private func matchMarker(
    _ extensionPointer: OpaquePointer?, _ parser: OpaquePointer?, _ parent: OpaquePointer?,
    _ character: UInt8, _ inline: OpaquePointer?
) -> OpaquePointer? {
    guard character == UInt8(ascii: "#") || character == UInt8(ascii: "@"), let inline else { return nil }
    let offset = cmark_inline_parser_get_offset(inline)
    if character == UInt8(ascii: "@") && Marker.belongsToEmail(inline, at: offset) { return nil }
    guard let node = cmark_node_new_with_mem(CMARK_NODE_HTML_INLINE, cmark_get_default_mem_allocator()) else {
        return nil
    }
    cmark_node_set_literal(node, character == UInt8(ascii: "#") ? "#" : "@")
    cmark_node_set_user_data(
        node, Marker.pack(line: cmark_inline_parser_get_line(inline), column: cmark_inline_parser_get_column(inline)))
    cmark_inline_parser_set_offset(inline, offset + 1)
    return node
}
