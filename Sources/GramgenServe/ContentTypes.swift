/// The media type of each file the site's output can hold. Browsers are strict about some (a
/// module script, a feed reader's `application/feed+json`), so they are spelled out, not sniffed.
enum ContentTypes {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "xml": "application/xml",
        "txt": "text/plain; charset=utf-8",
        "md": "text/markdown; charset=utf-8",
        "avif": "image/avif",
        "webp": "image/webp",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "png": "image/png",
        "gif": "image/gif",
        "svg": "image/svg+xml",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
        "woff": "font/woff",
        "webmanifest": "application/manifest+json",
        "pdf": "application/pdf",
        "mp4": "video/mp4",
        "webm": "video/webm",
    ]

    /// Feeds are recognised by name: `feed.json` is a JSON Feed and `feed.xml` an Atom feed, wherever
    /// they sit (`/feed.json`, `/alice/feed.json`, `/tags/x/feed.json`).
    static func type(forFileName name: String) -> String {
        let lower = name.lowercased()
        if lower == "feed.json" { return "application/feed+json" }
        if lower == "feed.xml" { return "application/atom+xml" }
        guard let dot = lower.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[String(lower[lower.index(after: dot)...])] ?? "application/octet-stream"
    }

    static func isHTML(_ type: String) -> Bool { type.hasPrefix("text/html") }
}
