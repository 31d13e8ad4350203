import GramgenCore

/// URL paths of the site's pages (see the spec's section 3), all relative to the output root.
enum SitePaths {
    static func home(page: Int) -> String { page <= 1 ? "" : "page/\(page)/" }
    static func profile(_ handle: String, page: Int = 1) -> String {
        page <= 1 ? "\(handle)/" : "\(handle)/page/\(page)/"
    }
    static func list(_ handle: String) -> String { "\(handle)/list/" }
    static func tagged(_ handle: String) -> String { "\(handle)/tagged/" }
    static func following(_ handle: String) -> String { "\(handle)/following/" }
    static func activity(_ handle: String) -> String { "\(handle)/activity/" }
    /// Who follows the user, and whom the user follows (`following/` is the user's feed).
    static func followers(_ handle: String) -> String { "\(handle)/followers/" }
    static func follows(_ handle: String) -> String { "\(handle)/follows/" }
    static func liked(_ handle: String) -> String { "\(handle)/liked/" }
    static func reposts(_ handle: String) -> String { "\(handle)/reposts/" }
    static func post(_ post: Post) -> String { post.path }
    /// Who liked the post.
    static func likes(_ post: Post) -> String { post.path + "likes/" }
    /// The search page; its index is under `search/` too (`SearchIndex`).
    static let search = "search/"
    /// Every user, for finding people without script.
    static let people = "explore/people/"
    static let tags = "tags/"
    static func tag(_ key: String, page: Int = 1) -> String { paged("tags/\(TagKey.urlComponent(for: key))/", page) }
    /// The folder on disk holds the raw key; links hold it percent-encoded.
    static func tagFolder(_ key: String, page: Int = 1) -> String { paged("tags/\(TagKey.folderName(for: key))/", page) }
    static let explore = "explore/"
    static func explore(page: Int) -> String { paged(explore, page) }

    /// Page N of a list below `folder`: `folder` itself, then `folder/page/N/`.
    static func paged(_ folder: String, _ page: Int) -> String { page <= 1 ? folder : "\(folder)page/\(page)/" }
    static func media(_ file: String) -> String { "media/\(file)" }

    /// "../" once per folder level: the way back to the root from a page at `path`.
    static func root(from path: String) -> String {
        path.isEmpty ? "./" : String(repeating: "../", count: path.split(separator: "/").count)
    }

    /// The path part of the base URL (`/photos/`), for pages served at any depth such as 404.html.
    static func absoluteRoot(_ baseURL: String) -> String {
        guard let schemeEnd = baseURL.range(of: "://"),
              let slash = baseURL[schemeEnd.upperBound...].firstIndex(of: "/") else { return "/" }
        return String(baseURL[slash...])
    }

    /// The `index.html` file for a page path.
    static func file(_ path: String) -> String { path + "index.html" }
}
