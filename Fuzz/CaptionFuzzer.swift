import GramgenCore
import GramgenMarkdown
@testable import GramgenContent

/// libFuzzer entry point: one input is one `post.md` as a user could write it. It goes through
/// what a build does with such a file before images: the front-matter reader (YAML, typed and
/// located fields, dates, handle lists, unknown keys) and the caption renderer (Markdown,
/// #hashtags, @mentions), for the body and for a comment text. Besides crashes, hangs and memory
/// errors, it traps when rendered HTML could carry script (see `checkSafe`). Built and run by
/// scripts/fuzz.sh; docs/fuzzing.md says how.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // TextFile refuses text that is not UTF-8 before anything else sees it.
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    FuzzTarget.run(text)
    return 0
}

enum FuzzTarget {
    static let markdown = MarkdownRenderer(isKnownHandle: { $0.hasPrefix("a") })

    static func run(_ text: String) {
        var diagnostics = Diagnostics()
        let captions = CaptionRenderer(markdown: markdown)
        guard let matter = FrontMatter.parse(text, path: "post.md", diagnostics: &diagnostics) else {
            _ = diagnostics.sorted.map(\.description)
            return
        }
        let fields = matter.fields
        fields.warnUnknownKeys(known: PostLoader.keys, diagnostics: &diagnostics)
        _ = fields.string("location", diagnostics: &diagnostics)
        _ = fields.bool("draft", diagnostics: &diagnostics)
        _ = fields.int("posts_per_page", in: 1...500, diagnostics: &diagnostics)
        _ = References.handles("liked_by", in: fields, diagnostics: &diagnostics)
        for (tag, _) in fields.stringList("tags", diagnostics: &diagnostics) ?? [] { _ = TagKey.key(for: tag) }
        if let date = fields.node("date")?.scalar?.string { _ = DateParser.parse(date) }
        if let comments = fields.node("comments")?.sequence {
            for comment in comments {
                guard let mapping = comment.mapping else { continue }
                let c = fields.nested(mapping)
                let body = c.string("text", diagnostics: &diagnostics) ?? ""
                let line = c.location(of: c.node("text")).line ?? 1
                checkSafe(captions.render(body, path: "post.md", firstLine: line, diagnostics: &diagnostics).html)
            }
        }
        let caption = captions.render(matter.body, path: "post.md", firstLine: matter.bodyFirstLine, diagnostics: &diagnostics)
        checkSafe(caption.html)
        // Lines as an editor counts them: LF, CRLF and a lone CR each end one.
        let lines = 1 + text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars.filter { $0 == "\n" || $0 == "\r" }.count
        for diagnostic in diagnostics.items {
            if let line = diagnostic.location.line, line < 1 || line > lines + 1 {
                fatalError("diagnostic outside the file (\(lines) lines): \(diagnostic)")
            }
        }
        _ = diagnostics.sorted.map(\.description)
    }

    /// What the renderer promises: no raw HTML, and no script URL in a link or image.
    static func checkSafe(_ html: String) {
        let lower = html.lowercased()
        for needle in ["<script", "<iframe", "<style", "href=\"javascript:", "src=\"javascript:", "href=\"data:",
                       "href=\"vbscript:", "src=\"data:text"] where lower.contains(needle) {
            fatalError("unsafe HTML (\(needle)): \(html.prefix(500))")
        }
    }
}
