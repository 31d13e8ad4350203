/// The one writer of `post.md` (SITE-FORMAT.md, section 2): front matter, then the caption as
/// the Markdown body. `gramgen new post`, `gramgen init` and the Instagram import all write
/// through it; `PostLoader` reads it back (PostFileRoundTripTests).
public struct PostFile: Sendable, Equatable {
    public struct Media: Sendable, Equatable {
        public var file: String
        /// nil leaves the line out; `""` writes an empty one to fill in.
        public var alt: String?
        /// A YAML comment written above `alt:`, e.g. what to write there.
        public var altHint: String?

        public init(file: String, alt: String? = nil, altHint: String? = nil) {
            self.file = file
            self.alt = alt
            self.altHint = altHint
        }
    }

    /// RFC 3339, e.g. `2024-05-25T18:30:00+09:00`.
    public var date: String
    public var location: String?
    public var images: [Media]
    public var tags: [String] = []
    public var draft = false
    /// A comment after `draft: true`, saying why and how to publish.
    public var draftNote: String?
    /// YAML comment lines (without `# `) written at the end of the front matter, as a guide.
    public var hints: [String] = []
    /// Comment lines written right after `date:` (e.g. an optional key to fill in).
    public var optionalKeys: [String] = []
    /// The Markdown body, written as it is.
    public var caption: String

    public init(date: String, location: String? = nil, images: [Media], caption: String) {
        self.date = date
        self.location = location
        self.images = images
        self.caption = caption
    }

    public var text: String {
        var lines = ["---", "date: \(date)"]
        lines += optionalKeys.map { "# " + $0 }
        if let location { lines.append("location: \(YAMLQuote.quoted(location))") }
        if !images.isEmpty {
            lines.append("images:")
            for image in images {
                lines.append("  - file: \(Self.scalar(image.file))")
                if let hint = image.altHint { lines.append("    # " + hint) }
                if let alt = image.alt { lines.append("    alt: \(YAMLQuote.quoted(alt))") }
            }
        }
        if !tags.isEmpty { lines.append("tags: [\(tags.map(Self.scalar).joined(separator: ", "))]") }
        if draft { lines.append("draft: true" + (draftNote.map { "  # " + $0 } ?? "")) }
        lines += hints.map { "# " + $0 }
        lines.append("---")
        if !caption.isEmpty { lines.append(caption) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A file name or tag as a plain YAML scalar when it is one (`1.jpg`, `stories`), else quoted.
    static func scalar(_ text: String) -> String {
        let plain = !text.isEmpty && text.utf8.allSatisfy {
            switch $0 {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
            default: false
            }
        } && !text.hasPrefix("-") && !text.hasPrefix(".")
            && !["true", "false", "null", "yes", "no", "on", "off", "~"].contains(text.lowercased())
            && Double(text) == nil
        return plain ? text : YAMLQuote.quoted(text)
    }
}
