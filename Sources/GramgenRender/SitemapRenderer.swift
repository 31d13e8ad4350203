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
    /// made, the order of `<`), a prefix before what it starts: 26,000 paths compared as Unicode
    /// text took 40 ms of a new post's build, on one thread at its end, and as byte arrays
    /// compared whole 11 ms. The paths of a site share long starts (`handle/p/2025-…`), which a
    /// comparison of two whole paths reads again every time: here they are sorted a byte at a
    /// time (multikey quicksort, Bentley and Sedgewick), each byte of a shared start read once
    /// per level, 6 ms for the same paths, all their bytes in one buffer.
    /// `maximumLevel`: how deep the sort may recurse before it compares whole texts (`BytewiseSort`).
    static func sortedByBytes(_ texts: [String], maximumLevel: Int = 200) -> [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(texts.count + 1)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(texts.reduce(0) { $0 + $1.utf8.count })
        for text in texts {
            starts.append(bytes.count)
            bytes.append(contentsOf: text.utf8)
        }
        starts.append(bytes.count)
        var order = Array(texts.indices)
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                order.withUnsafeMutableBufferPointer { order in
                    BytewiseSort(bytes: bytes, starts: starts, order: order, maximumLevel: maximumLevel)
                        .sort(0, order.count, depth: 0, level: 0)
                }
            }
        }
        return order
    }
}

/// `SitemapRenderer.sortedByBytes`: `order` (places of texts, text `i` being
/// `bytes[starts[i]..<starts[i + 1]]`) sorted in place.
private struct BytewiseSort {
    let bytes: UnsafeBufferPointer<UInt8>
    let starts: UnsafeBufferPointer<Int>
    let order: UnsafeMutableBufferPointer<Int>
    let maximumLevel: Int

    /// The byte of text `text` at `depth`, -1 past its end (so a prefix comes first).
    private func byte(_ text: Int, _ depth: Int) -> Int {
        let at = starts[text] + depth
        return at < starts[text + 1] ? Int(bytes[at]) : -1
    }

    /// Sorts `order[low..<high]`, whose texts all share their first `depth` bytes; `level`: how
    /// deep the recursion is. Past `maximumLevel` (pivots that kept splitting off few texts), the
    /// run is sorted by whole comparisons, so no order of texts can exhaust a thread's stack.
    func sort(_ low: Int, _ high: Int, depth: Int, level: Int) {
        var (low, high, depth) = (low, high, depth)
        while high - low > 1 {
            if high - low < 16 { return insertionSort(low, high, depth: depth) }
            if level > maximumLevel {
                let sorted = order[low..<high].sorted { isBefore($0, $1, depth: depth) }
                for (offset, text) in sorted.enumerated() { order[low + offset] = text }
                return
            }
            // Three parts by the byte at `depth`: less than the pivot's (the median of the first,
            // middle and last texts' bytes), the same, more.
            let pivot = median(byte(order[low], depth), byte(order[low + (high - low) / 2], depth), byte(order[high - 1], depth))
            var less = low, more = high - 1, index = low
            while index <= more {
                let value = byte(order[index], depth)
                if value < pivot {
                    order.swapAt(less, index)
                    less += 1
                    index += 1
                } else if value > pivot {
                    order.swapAt(index, more)
                    more -= 1
                } else {
                    index += 1
                }
            }
            sort(low, less, depth: depth, level: level + 1)
            sort(more + 1, high, depth: depth, level: level + 1)
            // The middle part: texts that end here are equal; the others go on at the next byte.
            if pivot < 0 { return }
            (low, high, depth) = (less, more + 1, depth + 1)
        }
    }

    private func median(_ a: Int, _ b: Int, _ c: Int) -> Int {
        max(min(a, b), min(max(a, b), c))
    }

    /// A short run, each text compared from `depth` on (`memcmp`, the shorter first when one starts the other).
    private func insertionSort(_ low: Int, _ high: Int, depth: Int) {
        for index in (low + 1)..<high {
            let text = order[index]
            var place = index
            while place > low, isBefore(text, order[place - 1], depth: depth) {
                order[place] = order[place - 1]
                place -= 1
            }
            order[place] = text
        }
    }

    private func isBefore(_ a: Int, _ b: Int, depth: Int) -> Bool {
        let (startA, startB) = (starts[a] + depth, starts[b] + depth)
        let (countA, countB) = (starts[a + 1] - startA, starts[b + 1] - startB)
        let common = min(countA, countB)
        let order = common == 0 ? 0 : memcmp(bytes.baseAddress! + startA, bytes.baseAddress! + startB, common)
        return order != 0 ? order < 0 : countA < countB
    }
}
