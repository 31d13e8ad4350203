import GramgenCore
import GramgenMarkdown

/// Renders a caption, bio or comment and reports mentions of unknown users at their file line.
struct CaptionRenderer {
    let markdown: MarkdownRenderer

    /// The longest caption, bio or comment. Instagram allows 2,200 characters; 64 KB is thirty
    /// times that, and its worst Markdown renders in a fraction of a second, while 2 MB of
    /// `a@a@…` (every `@` an e-mail autolink candidate) took 5.7 s.
    static let maxBytes = 64 * 1024

    /// - Parameters:
    ///   - firstLine: the file line on which `source` starts.
    ///   - firstColumn: the file column at which `source` starts on that line (a comment's `text:`
    ///     value starts after the key); later lines start at column 1 of the text.
    func render(_ source: String, path: String, firstLine: Int, firstColumn: Int = 1,
                diagnostics: inout Diagnostics) -> RichText {
        guard source.utf8.count <= Self.maxBytes else {
            diagnostics.error(SourceLocation(path, line: firstLine),
                              "the text is \(source.utf8.count / 1024) KB long; at most 64 KB is allowed",
                              hint: "shorten it (Instagram allows 2,200 characters), or split it over several posts")
            return RichText()
        }
        let result = markdown.render(source)
        for mention in result.unknownMentions {
            let column = mention.line == 1 ? mention.column + firstColumn - 1 : mention.column
            let hint = Handle.reserved.contains(mention.handle)
                ? "'\(mention.handle)' is one of the site's own pages, so no user can have it; check the spelling"
                : "check the spelling, or add content/users/\(mention.handle)/"
            diagnostics.warning(SourceLocation(path, line: firstLine + mention.line - 1, column: column),
                                "@\(mention.handle) is not a user of this site, so it is shown as plain text", hint: hint)
        }
        return result.text
    }
}
