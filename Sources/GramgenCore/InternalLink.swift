/// Links between pages of the site are relative, so the output works from any sub-path and from disk.
/// Captions are rendered once, before the page they land on is known, so their internal links carry
/// this marker, replaced by the page's path to the site root (or the absolute base URL in feeds).
public enum InternalLink {
    public static let marker = "gramgen:/"

    /// The page's way back to the root in a view shared by pages of every depth (a post's card: one
    /// view of each post, not one for each depth of page it is shown on). The template renderer
    /// writes the page's own root in its place (`TemplateValue.rooted`). A control character, which
    /// no link's path holds and the texts drawn never keep (captions lose them before cmark,
    /// escaped texts in the escaper).
    public static let rootMark = "\u{1}"

    /// A link target inside the site, e.g. `tags/seoul/`, marked for later resolution.
    public static func href(_ path: String) -> String { marker + path }

    /// `html` with every link to `path` (as `href(path)` marked it) replaced by its text: for a
    /// #hashtag in a bio whose tag has no published post, so no page, and must not be a link.
    public static func unlink(_ html: String, path: String) -> String {
        let open = "<a href=\"" + href(path) + "\">"
        guard html.contains(open) else { return html }
        var out = "", rest = Substring(html)
        while let start = rest.range(of: open), let end = rest[start.upperBound...].range(of: "</a>") {
            out += rest[..<start.lowerBound]
            out += rest[start.upperBound..<end.lowerBound]
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    /// Replaces the marker in rendered HTML with `root` ("../../" on a page, the base URL in a feed).
    public static func resolve(_ html: String, root: String) -> String {
        let pattern = Array(("href=\"" + marker).utf8)
        let bytes = Array(html.utf8)
        guard bytes.count >= pattern.count else { return html }
        var out: [UInt8] = []
        var start = 0, index = 0
        let replacement = Array(("href=\"" + root).utf8)
        while index <= bytes.count - pattern.count {
            if bytes[index] == pattern[0], bytes[index..<index + pattern.count].elementsEqual(pattern) {
                if out.isEmpty { out.reserveCapacity(bytes.count + 64) }
                out += bytes[start..<index]
                out += replacement
                index += pattern.count
                start = index
            } else {
                index += 1
            }
        }
        guard start > 0 else { return html }
        out += bytes[start...]
        return String(decoding: out, as: UTF8.self)
    }
}
