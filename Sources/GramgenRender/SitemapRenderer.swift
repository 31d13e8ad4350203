import GramgenCore

/// `sitemap.xml`: every page's absolute URL (sitemaps.org protocol).
enum SitemapRenderer {
    static func render(site: Site, pagePaths: [String]) -> OutputFile {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for path in pagePaths.sorted() {
            xml += "  <url><loc>\(Escape.html(site.config.baseURL + encoded(path)))</loc></url>\n"
        }
        return OutputFile(path: "sitemap.xml", text: xml + "</urlset>\n")
    }

    /// Tag folders hold raw Unicode keys; URLs need them percent-encoded.
    private static func encoded(_ path: String) -> String {
        guard path.hasPrefix("tags/") else { return path }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return path }
        return (["tags", TagKey.urlComponent(for: String(parts[1]))] + parts.dropFirst(2).map(String.init))
            .joined(separator: "/")
    }
}
