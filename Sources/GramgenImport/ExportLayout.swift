import Foundation

/// Where an export keeps each file. Instagram has moved them between years: posts sat in
/// `content/` (2020–2023), then `your_instagram_activity/content/` or `…/media/` (2024 on);
/// the profile in `profile.json`, then `personal_information/…`. Each list is newest first.
struct ExportLayout: Equatable {
    static let postFolders = ["your_instagram_activity/content", "your_instagram_activity/media", "content"]
    static let profileFiles = [
        "personal_information/personal_information/personal_information.json",
        "personal_information/personal_information.json",
        "account_information/personal_information.json",
        "profile.json",
    ]
    static let followingFiles = [
        "connections/followers_and_following/following.json",
        "followers_and_following/following.json",
        "connections.json",
    ]

    /// The folder the export's paths (and its media `uri`s) are relative to.
    let root: URL
    /// `posts_1.json`, `posts_2.json` …, in number order, relative to `root`.
    let postFiles: [String]
    let archivedPostsFile: String?
    /// `reels.json`: Reels, each a post of one video.
    let reelsFile: String?
    /// `stories.json`: stories, each one photo or video.
    let storiesFile: String?
    /// `comments/post_comments_N.json`: comments the owner wrote.
    let commentFiles: [String]
    /// `likes/liked_posts.json` (or 2019–2020's `likes.json`): posts the owner liked.
    var likeFiles: [String] = []
    /// 2019–2020: one `media.json` holds photos, videos, stories and profile pictures, each
    /// photo of a carousel its own entry (`postFiles` is then `["media.json"]`).
    var legacyMedia = false
    let profileFile: String?
    let profilePhotosFile: String?
    let followingFile: String?

    /// Finds the export's files in `folder`, or in its only sub-folder (a zip unpacked with its
    /// own top-level folder). `name` is the path the user gave, for messages.
    static func locate(in folder: URL, name: String) throws -> ExportLayout {
        if let layout = layout(at: folder) { return layout }
        let children = visibleEntries(of: folder)
        if children.count == 1, isDirectory(folder.appendingPathComponent(children[0])),
           let layout = layout(at: folder.appendingPathComponent(children[0])) {
            return layout
        }
        if containsHTMLExport(folder) { throw ImportError.htmlExport(path: name) }
        throw ImportError.notAnExport(path: name)
    }

    private static func layout(at root: URL) -> ExportLayout? {
        if let layout = modernLayout(at: root) { return layout }
        guard exists("media.json", in: root) else { return nil }
        var layout = ExportLayout(
            root: root, postFiles: ["media.json"], archivedPostsFile: nil, reelsFile: nil, storiesFile: nil,
            commentFiles: exists("comments.json", in: root) ? ["comments.json"] : [],
            profileFile: profileFiles.first { exists($0, in: root) }, profilePhotosFile: nil,
            followingFile: followingFiles.first { exists($0, in: root) })
        layout.legacyMedia = true
        layout.likeFiles = exists("likes.json", in: root) ? ["likes.json"] : []
        return layout
    }

    private static func modernLayout(at root: URL) -> ExportLayout? {
        for folder in postFolders {
            let posts = numberedPostFiles(in: root.appendingPathComponent(folder))
            guard !posts.isEmpty else { continue }
            let archived = "\(folder)/archived_posts.json"
            var layout = ExportLayout(
                root: root,
                postFiles: posts.map { "\(folder)/\($0)" },
                archivedPostsFile: exists(archived, in: root) ? archived : nil,
                reelsFile: postFolders.map { "\($0)/reels.json" }.first { exists($0, in: root) },
                storiesFile: postFolders.map { "\($0)/stories.json" }.first { exists($0, in: root) },
                commentFiles: ["your_instagram_activity/comments", "comments"].flatMap { folder in
                    visibleEntries(of: root.appendingPathComponent(folder)).sorted()
                        .filter { $0.hasPrefix("post_comments") && $0.hasSuffix(".json") }.map { "\(folder)/\($0)" }
                },
                profileFile: profileFiles.first { exists($0, in: root) },
                profilePhotosFile: postFolders.map { "\($0)/profile_photos.json" }.first { exists($0, in: root) },
                followingFile: followingFiles.first { exists($0, in: root) })
            layout.likeFiles = ["your_instagram_activity/likes/liked_posts.json", "likes/liked_posts.json"].filter { exists($0, in: root) }
            return layout
        }
        return nil
    }

    /// `posts_<n>.json` files sorted by n, so `posts_10` comes after `posts_9`.
    private static func numberedPostFiles(in folder: URL) -> [String] {
        let numbered = visibleEntries(of: folder).compactMap { name -> (Int, String)? in
            guard name.hasPrefix("posts_"), name.hasSuffix(".json"),
                  let n = Int(name.dropFirst("posts_".count).dropLast(".json".count)) else { return nil }
            return (n, name)
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private static func containsHTMLExport(_ folder: URL) -> Bool {
        let walker = FileManager.default.enumerator(atPath: folder.path)
        var seen = 0
        while let path = walker?.nextObject() as? String, seen < 5000 {
            seen += 1
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix("posts_") && name.hasSuffix(".html") { return true }
        }
        return false
    }

    private static func exists(_ path: String, in root: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Conversations of direct messages in an unpacked export (never read, only counted).
    static func conversations(in root: URL) -> Set<String> {
        Set(["your_instagram_activity/messages/inbox", "messages/inbox"].flatMap { folder in
            visibleEntries(of: root.appendingPathComponent(folder)).filter { isDirectory(root.appendingPathComponent(folder + "/" + $0)) }
        })
    }

    static func visibleEntries(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "__MACOSX" }.sorted()
    }
}
