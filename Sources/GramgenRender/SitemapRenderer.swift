import GramgenCore

/// `sitemap.xml`: every page's absolute URL (sitemaps.org protocol).
enum SitemapRenderer {
    static func render(site: Site, pagePaths: [String]) -> OutputFile {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for path in pagePaths.sorted() {
            xml += "  <url><loc>\(Escape.html(site.config.baseURL + SitePaths.link(toFolder: path)))</loc></url>\n"
        }
        return OutputFile(path: SitePaths.sitemap, text: xml + "</urlset>\n")
    }

}
