import Foundation
import GramgenCore
import GramgenMarkdown
import Yams

/// The `comments:` of a post.md: each an author who is a user of the site, a date and a text.
extension PostLoader {
    func readComments(_ fields: FrontMatterFields, path: String, captions: CaptionRenderer,
                      diagnostics: inout Diagnostics) -> [(comment: Comment, location: SourceLocation)] {
        guard let node = fields.node("comments") else { return [] }
        guard let sequence = node.sequence else {
            diagnostics.error(fields.location(of: node), "'comments' must be a list",
                              hint: "write `- author: alfred` with `date:` and `text:` below it")
            return []
        }
        var comments: [(comment: Comment, location: SourceLocation)] = []
        for item in sequence {
            guard let mapping = item.mapping else {
                diagnostics.error(fields.location(of: item), "each comment needs `author:`, `date:` and `text:`",
                                  hint: "write `- author: alfred` with `date:` and `text:` below it")
                continue
            }
            let c = fields.nested(mapping)
            c.warnUnknownKeys(known: ["author", "date", "text"], diagnostics: &diagnostics)
            let author = c.string("author", diagnostics: &diagnostics) ?? ""
            let text = c.string("text", diagnostics: &diagnostics) ?? ""
            var date: PostDate?
            if let dateNode = c.node("date") {
                date = dateNode.scalar.flatMap { DateParser.parse($0.string) }
                if date == nil {
                    diagnostics.error(c.location(of: dateNode), "'\(dateNode.scalar?.string ?? "")' is not a date",
                                      hint: "write `date: 2024-05-26T09:00:00Z`")
                }
            } else {
                diagnostics.error(fields.location(of: item), "the comment has no `date:`", hint: "add `date: 2024-05-26T09:00:00Z`")
            }
            if author.isEmpty {
                diagnostics.error(fields.location(of: item), "the comment has no `author:`", hint: "add `author: <handle>`")
            }
            let (textLine, textColumn) = Self.textStart(c.node("text"), fields: c)
            let rendered = captions.render(text, path: path, firstLine: textLine, firstColumn: textColumn,
                                           diagnostics: &diagnostics)
            if let date, !author.isEmpty {
                let author = author.hasPrefix("@") ? String(author.dropFirst()) : author
                comments.append((Comment(author: author, date: date.instant, text: rendered), c.location(of: c.node("author"))))
            }
        }
        return comments
    }

    /// Where a comment's text begins in the file: after the opening quote of a quoted value, on
    /// the line after `|` or `>` of a block value (column unknown there, so 1).
    static func textStart(_ node: Node?, fields: FrontMatterFields) -> (line: Int, column: Int) {
        let location = fields.location(of: node)
        let line = location.line ?? 1, column = location.column ?? 1
        switch node?.scalar?.style {
        case .singleQuoted?, .doubleQuoted?: return (line, column + 1)
        case .literal?, .folded?: return (line + 1, 1)
        default: return (line, column)
        }
    }
}
