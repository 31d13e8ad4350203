import GramgenCore

/// The text of a `post.md` written by the import: front matter exactly as SITE-FORMAT.md
/// describes it, then the caption as the Markdown body.
struct PostMarkdown {
    struct Image: Equatable {
        var file: String
        var alt: String?
    }

    var timestamp: Int64
    var images: [Image]
    var caption: String
    /// Archived on Instagram: kept out of the site like a draft until the user publishes it.
    var isDraft: Bool
    /// Front-matter `tags:` (a story gets `stories`).
    var tags: [String] = []

    var text: String {
        var lines = ["---", "date: \(ExportDate.rfc3339(timestamp))", "images:"]
        for image in images {
            lines.append("  - file: \(image.file)")
            if let alt = image.alt { lines.append("    alt: \(YAMLQuote.quoted(alt))") }
        }
        if !tags.isEmpty { lines.append("tags: [\(tags.joined(separator: ", "))]") }
        if isDraft { lines.append("draft: true  # archived on Instagram; delete this line to publish it") }
        lines.append("---")
        let body = CaptionMarkdown.body(from: caption)
        if !body.isEmpty { lines.append(body) }
        return lines.joined(separator: "\n") + "\n"
    }
}
