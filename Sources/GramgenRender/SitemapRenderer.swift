import Foundation
import GramgenCore

/// `sitemap.xml`: every page's absolute URL (sitemaps.org protocol), written as bytes: at 10,000
/// posts it lists 26,000 pages (2 MB), and is drawn again whenever a page comes or goes (a new
/// post or hashtag).
enum SitemapRenderer {
    static func render(site: Site, pagePaths: [String]) -> [UInt8] {
        var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8)
        var base: [UInt8] = []
        HTMLBytes.appendEscaped(site.config.baseURL, to: &base)
        let (open, close) = (Array("  <url><loc>".utf8), Array("</loc></url>\n".utf8))
        // As large as it will be (a path escapes to itself but for a rare `&`): a guess short of
        // it made the table grow by a copy, 42 MB at the peak of a 100,000-post build's memory.
        let paths = pagePaths.reduce(0) { $0 + $1.utf8.count + 1 }
        out.reserveCapacity(out.count + pagePaths.count * (open.count + base.count + close.count) + paths + 64)
        for index in sortedByBytes(pagePaths) {
            out += open
            out += base
            HTMLBytes.appendEscaped(SitePaths.link(toFolder: pagePaths[index]), to: &out)
            out += close
        }
        out += Array("</urlset>\n".utf8)
        return out
    }

    /// The places of `texts` in the order of their UTF-8 bytes (for text in NFC, as paths are
    /// made, the order of `<`): 26,000 paths compared as Unicode text took 40 ms of a new post's
    /// build, on one thread at its end.
    static func sortedByBytes(_ texts: [String]) -> [Int] {
        let bytes = texts.map { Array($0.utf8) }
        return bytes.indices.sorted { a, b in
            bytes[a].withUnsafeBytes { a in
                bytes[b].withUnsafeBytes { b in
                    let common = min(a.count, b.count)
                    let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                    return order != 0 ? order < 0 : a.count < b.count
                }
            }
        }
    }
}
