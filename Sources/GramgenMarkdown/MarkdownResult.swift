import GramgenCore

/// A rendered caption, bio or comment, plus the mentions that could not be linked — kept apart
/// from `RichText` because they are build diagnostics, not page content.
public struct MarkdownResult: Sendable, Hashable {
    /// The HTML (internal links marked with `InternalLink`), plain text, tags and known mentions.
    public var text: RichText
    /// `@handle`s of no existing user, in order, each time they occur: warnings (errors with `--strict`).
    public var unknownMentions: [UnknownMention]

    public init(text: RichText, unknownMentions: [UnknownMention] = []) {
        self.text = text
        self.unknownMentions = unknownMentions
    }
}
