import GramgenCore

/// Renders captions, bios and comments: GitHub-flavoured Markdown where typed `#hashtags` and
/// `@mentions` of existing users become links (rules in SITE-FORMAT.md, "Hashtags and mentions").
///
/// Internal links carry `InternalLink`'s marker because a caption is rendered once, before the
/// pages it appears on are known. Safe to use from many tasks at once; one parse per call.
public struct MarkdownRenderer: Sendable {
    private let isKnownHandle: @Sendable (String) -> Bool

    /// - Parameter isKnownHandle: whether a user with this (lower-case) handle exists. Only
    ///   mentions of existing users become links; the others are reported, not guessed at.
    public init(isKnownHandle: @escaping @Sendable (String) -> Bool) {
        self.isKnownHandle = isKnownHandle
    }

    public func render(_ markdown: String) -> MarkdownResult {
        let input = SanitizedInput(markdown)
        var linker = InlineLinker(isKnownHandle: isKnownHandle)
        let html = CmarkDocument.render(BracketBudget.defused(input.text)) { root in linker.link(root) }
        var unknown: [UnknownMention] = []
        if !linker.unknownHandles.isEmpty {
            let places = SourceLocator(input).locate(linker.unknownHandles)
            unknown = zip(linker.unknownHandles, places).map { mention, place in
                UnknownMention(handle: mention.handle, line: place.line, column: place.column)
            }
        }
        let text = RichText(html: html, plainText: linker.plainText.text, tags: linker.tags, mentions: linker.mentions)
        return MarkdownResult(text: text, unknownMentions: unknown)
    }
}
