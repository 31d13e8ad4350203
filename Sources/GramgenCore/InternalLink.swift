/// Links between pages of the site are relative, so the output works from any sub-path and from disk.
/// Captions are rendered once, before the page they land on is known, so their internal links carry
/// this marker, replaced by the page's path to the site root (or the absolute base URL in feeds).
public enum InternalLink {
    public static let marker = "gramgen:/"

    /// A link target inside the site, e.g. `tags/seoul/`, marked for later resolution.
    public static func href(_ path: String) -> String { marker + path }

    /// Replaces the marker in rendered HTML with `root` ("../../" on a page, the base URL in a feed).
    public static func resolve(_ html: String, root: String) -> String {
        guard html.contains(marker) else { return html }
        return html.replacingOccurrences(of: "href=\"" + marker, with: "href=\"" + root)
    }
}
