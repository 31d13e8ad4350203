import GramgenCore

/// `sitemap.xml`: every page's absolute URL (sitemaps.org protocol), written as bytes: at 10,000
/// posts it lists 26,000 pages (2 MB), and is drawn again whenever a page comes or goes (a new
/// post or hashtag).
enum SitemapRenderer {
    static func render(site: Site, pagePaths: [String]) -> [UInt8] {
        var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8)
        var base: [UInt8] = []
        HTMLBytes.appendEscaped(site.config.baseURL, to: &base)
        out.reserveCapacity(out.count + pagePaths.count * (base.count + 48))
        let (open, close) = (Array("  <url><loc>".utf8), Array("</loc></url>\n".utf8))
        for path in pagePaths.sorted() {
            out += open
            out += base
            HTMLBytes.appendEscaped(SitePaths.link(toFolder: path), to: &out)
            out += close
        }
        out += Array("</urlset>\n".utf8)
        return out
    }
}
