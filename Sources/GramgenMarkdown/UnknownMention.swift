/// An `@handle` that looks like a mention but names no user, with its place in the Markdown
/// source so the warning can point at it (`post.md:12:8`). The caller adds the front matter's
/// line count to turn a caption line into a file line.
public struct UnknownMention: Sendable, Hashable {
    /// The handle as written, without `@`.
    public var handle: String
    /// 1-based line within the Markdown given to `MarkdownRenderer.render`.
    public var line: Int
    /// 1-based column of the `@`, in characters (grapheme clusters) as an editor counts them.
    public var column: Int

    public init(handle: String, line: Int, column: Int) {
        self.handle = handle
        self.line = line
        self.column = column
    }
}
