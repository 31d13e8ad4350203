import Foundation
import GramgenCore

/// `sitemap.xml`: every page's absolute URL (sitemaps.org protocol), written as bytes: at 10,000
/// posts it lists 26,000 pages (2 MB), and is drawn again whenever a page comes or goes (a new
/// post or hashtag). The protocol allows a file 50,000 URLs and 50 MiB: a bigger site's
/// `sitemap.xml` is an index of files that each hold as many as fit (`sitemap-1.xml`, …; at
/// 100,000 posts, 266,000 pages in six), in the byte order of the pages' paths, as one file is.
enum SitemapRenderer {
    static let maxURLs = 50_000
    static let maxBytes = 52_428_800
    private static let header = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
    private static let urlsetStart = Array("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8)
    private static let urlsetEnd = Array("</urlset>\n".utf8)
    private static let urlStart = Array("  <url><loc>".utf8), urlEnd = Array("</loc></url>\n".utf8)

    /// Queues the sitemap's files. Each is drawn again only when the paths it lists change
    /// (the base URL, a site-wide input, redraws them all).
    static func add(site: Site, pagePaths: [String], to pages: inout PageSet) {
        guard let parts = parts(pagePaths, baseURL: site.config.baseURL) else {
            pages.addFile(SitePaths.sitemap, inputs: .posts([], digest(pagePaths)), deferrable: true) {
                render(site: site, pagePaths: pagePaths)
            }
            return
        }
        for (number, part) in parts.enumerated() {
            pages.addFile(SitePaths.sitemapPart(number + 1), inputs: .posts([], digest(part)), deferrable: true) {
                urlset(baseURL: site.config.baseURL, paths: part, inOrder: Array(part.indices))
            }
        }
        pages.addFile(SitePaths.sitemap, inputs: .posts([], "parts \(parts.count)"), deferrable: true) {
            index(baseURL: site.config.baseURL, parts: parts.count)
        }
    }

    /// Every page in one file.
    static func render(site: Site, pagePaths: [String]) -> [UInt8] {
        urlset(baseURL: site.config.baseURL, paths: pagePaths, inOrder: sortedByBytes(pagePaths))
    }

    /// The paths of each file of an index, in byte order, when they do not fit in one file; nil
    /// when they do. Most sites are far from the line: a bound on their size, from the paths'
    /// lengths alone, tells (each byte of a path is at most five in the file, `&amp;`).
    static func parts(_ pagePaths: [String], baseURL: String, maxURLs: Int = maxURLs, maxBytes: Int = maxBytes) -> [[String]]? {
        var base: [UInt8] = []
        HTMLBytes.appendEscaped(baseURL, to: &base)
        let fixed = urlStart.count + base.count + urlEnd.count
        let room = maxBytes - header.count - urlsetStart.count - urlsetEnd.count
        guard pagePaths.count > maxURLs || pagePaths.reduce(0, { $0 + fixed + 5 * $1.utf8.count }) > room else { return nil }
        var parts: [[String]] = [[]]
        var bytes = 0, line: [UInt8] = []
        for index in sortedByBytes(pagePaths) {
            line.removeAll(keepingCapacity: true)
            HTMLBytes.appendEscaped(SitePaths.link(toFolder: pagePaths[index]), to: &line)
            if parts[parts.count - 1].count == maxURLs || !parts[parts.count - 1].isEmpty && bytes + fixed + line.count > room {
                parts.append([])
                bytes = 0
            }
            parts[parts.count - 1].append(pagePaths[index])
            bytes += fixed + line.count
        }
        return parts
    }

    static func urlset(baseURL: String, paths: [String], inOrder order: [Int]) -> [UInt8] {
        var base: [UInt8] = []
        HTMLBytes.appendEscaped(baseURL, to: &base)
        var out = header + urlsetStart
        // As large as it will be (a path escapes to itself but for a rare `&`): a guess short of
        // it made the table grow by a copy, 42 MB at the peak of a 100,000-post build's memory.
        let pathBytes = paths.reduce(0) { $0 + $1.utf8.count + 1 }
        out.reserveCapacity(out.count + paths.count * (urlStart.count + base.count + urlEnd.count) + pathBytes + 64)
        for index in order {
            out += urlStart
            out += base
            HTMLBytes.appendEscaped(SitePaths.link(toFolder: paths[index]), to: &out)
            out += urlEnd
        }
        out += urlsetEnd
        return out
    }

    static func index(baseURL: String, parts: Int) -> [UInt8] {
        var out = header + Array("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8)
        for number in 1...parts {
            out += Array("  <sitemap><loc>".utf8)
            HTMLBytes.appendEscaped(baseURL + SitePaths.sitemapPart(number), to: &out)
            out += Array("</loc></sitemap>\n".utf8)
        }
        out += Array("</sitemapindex>\n".utf8)
        return out
    }

    private static func digest(_ paths: [String]) -> String {
        var listed = DigestBuilder()
        for path in paths { listed.add(path) }
        return listed.hex
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
