import Foundation

/// The one home of every output path and link of the contract (SITE-FORMAT.md, section 3): page
/// folders, feeds and media, all relative to the output root. Links ask here (a page adds its way
/// back to the root, `root(from:)`; a caption marks them with `InternalLink`; a feed puts the base
/// URL before them), and so do the files written.
public enum SitePaths {
    public static func home(page: Int) -> String { page <= 1 ? "" : "page/\(page)/" }
    public static func profile(_ handle: String, page: Int = 1) -> String {
        page <= 1 ? "\(handle)/" : "\(handle)/page/\(page)/"
    }
    public static func list(_ handle: String) -> String { "\(handle)/list/" }
    public static func tagged(_ handle: String) -> String { "\(handle)/tagged/" }
    public static func following(_ handle: String) -> String { "\(handle)/following/" }
    public static func activity(_ handle: String) -> String { "\(handle)/activity/" }
    /// Who follows the user, and whom the user follows (`following/` is the user's feed).
    public static func followers(_ handle: String) -> String { "\(handle)/followers/" }
    public static func follows(_ handle: String) -> String { "\(handle)/follows/" }
    public static func liked(_ handle: String) -> String { "\(handle)/liked/" }
    public static func reposts(_ handle: String) -> String { "\(handle)/reposts/" }
    public static func post(_ post: Post) -> String { post.path }
    public static func post(author: String, id: String) -> String { "\(author)/p/\(id)/" }
    /// Who liked the post.
    public static func likes(_ post: Post) -> String { post.path + "likes/" }
    /// The search page; its index is under `search/` too (`SearchIndex`).
    public static let search = "search/"
    /// The search page asking for `query` (`search/?q=…`), e.g. a post's location.
    public static func search(query: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return search + "?q=" + (query.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }
    /// Every user, for finding people without script.
    public static let people = "explore/people/"
    public static let tags = "tags/"
    public static func tag(_ key: String, page: Int = 1) -> String { paged("tags/\(TagKey.urlComponent(for: key))/", page) }
    /// The folder on disk holds the raw key; links hold it percent-encoded.
    public static func tagFolder(_ key: String, page: Int = 1) -> String { paged("tags/\(TagKey.folderName(for: key))/", page) }
    public static let explore = "explore/"
    public static func explore(page: Int) -> String { paged(explore, page) }

    /// Page N of a list below `folder`: `folder` itself, then `folder/page/N/`.
    public static func paged(_ folder: String, _ page: Int) -> String { page <= 1 ? folder : "\(folder)page/\(page)/" }
    public static func media(_ file: String) -> String { mediaFolder + file }
    /// The folder of the processed images and videos, as the start of their paths.
    public static let mediaFolder = "media/"

    /// "../" once per folder level: the way back to the root from a page at `path`; nothing on the
    /// home page, where `media/…` is already the way (a link to the root itself is `home(from:)`).
    /// The folders are counted on the path's bytes, as the file system separates them: split as
    /// text, each character found by the rules of grapheme clusters, the count took 5% of a
    /// pages-only build (every page and every list of views asks), and a tag starting with a
    /// combining mark joined the slash before it into one character, one folder short.
    public static func root(from path: String) -> String {
        var levels = 0, inName = false
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                inName = false
            } else if !inName {
                inName = true
                levels += 1
            }
        }
        return String(repeating: "../", count: levels)
    }

    /// A link to the home page from a page whose way back to the root is `root`.
    public static func home(root: String) -> String { root.isEmpty ? "./" : root }

    /// The path part of the base URL (`/photos/`), for pages served at any depth such as 404.html.
    public static func absoluteRoot(_ baseURL: String) -> String {
        guard let schemeEnd = baseURL.range(of: "://"),
              let slash = baseURL[schemeEnd.upperBound...].firstIndex(of: "/") else { return "/" }
        return String(baseURL[slash...])
    }

    /// A page's JSON Feed below `folder` (the site's root, a profile or a tag): `feed.json`, or
    /// with `archive` one of its archive files, `feed/1.json` (the oldest posts), `feed/2.json`, …
    public static func jsonFeed(_ folder: String, archive: Int? = nil) -> String {
        archive.map { folder + "feed/\($0).json" } ?? folder + "feed.json"
    }

    /// The site's Atom feed.
    public static let atomFeed = "feed.xml"

    /// The link to a page whose output folder is `folder`: tag folders hold raw Unicode keys,
    /// links percent-encoded ones (`tags/서울/` → `tags/%EC%84%9C%EC%9A%B8/`).
    public static func link(toFolder folder: String) -> String {
        guard folder.hasPrefix(tags) else { return folder }
        let parts = folder.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return folder }
        return ([String(parts[0]), TagKey.urlComponent(for: String(parts[1]))] + parts.dropFirst(2).map(String.init))
            .joined(separator: "/")
    }

    /// The search index (`SearchIndex`): what the search page loads first, then each word shard and
    /// each chunk of documents as a query needs it (`search.js` builds the same names).
    public static let searchMeta = "search/meta.json"
    public static func searchWords(_ shard: Int) -> String { "search/w/\(shard).json" }
    public static func searchDocuments(_ chunk: Int) -> String { "search/d/\(chunk).json" }
    /// Whether `path` is one of the search index's files (the three kinds above).
    public static func isSearchIndex(_ path: String) -> Bool {
        path.hasPrefix("search/") && path.hasSuffix(".json")
    }

    public static let sitemap = "sitemap.xml"
    /// A part of a sitemap too big for one file, which `sitemap` then lists (`SitemapRenderer`).
    public static func sitemapPart(_ number: Int) -> String { "sitemap-\(number).xml" }
    /// The web app's manifest and service worker, the favicon (where browsers look for it
    /// unasked) and the folder of the site's icons: with the files above, what the output's root
    /// holds beside the users' folders, so no handle may be one (`Handle.reserved`).
    public static let webManifest = "manifest.webmanifest"
    public static let serviceWorker = "sw.js"
    public static let favicon = "favicon.ico"
    public static let icons = "icons"
    /// A square icon of the site, `edge` pixels wide.
    public static func icon(_ edge: Int) -> String { "\(icons)/icon-\(edge).png" }
    /// Served for any missing page: links in it are absolute (`absoluteRoot`).
    public static let notFound = "404.html"

    /// The `index.html` file for a page path.
    public static func file(_ path: String) -> String { path + "index.html" }
}
