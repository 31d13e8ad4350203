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
        var file = PostFile(date: ExportDate.rfc3339(timestamp), images: images.map { PostFile.Media(file: $0.file, alt: $0.alt) },
                            caption: CaptionMarkdown.body(from: caption))
        file.tags = tags
        file.draft = isDraft
        file.draftNote = "archived on Instagram; delete this line to publish it"
        return file.text
    }
}
