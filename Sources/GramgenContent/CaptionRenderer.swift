import GramgenCore
import GramgenMarkdown

/// Renders a caption, bio or comment and reports mentions of unknown users at their file line.
struct CaptionRenderer {
    let markdown: MarkdownRenderer

    func render(_ source: String, path: String, firstLine: Int, diagnostics: inout Diagnostics) -> RichText {
        let result = markdown.render(source)
        for mention in result.unknownMentions {
            diagnostics.warning(SourceLocation(path, line: firstLine + mention.line - 1, column: mention.column),
                                "@\(mention.handle) is not a user of this site, so it is shown as plain text",
                                hint: "check the spelling, or add content/users/\(mention.handle)/")
        }
        return result.text
    }
}
