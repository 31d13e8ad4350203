import Foundation

/// Reads the JSON files an `ExportLayout` found into an `InstagramExport`.
struct ExportReader {
    let layout: ExportLayout

    func read() throws -> InstagramExport {
        if layout.legacyMedia { return try readLegacy() }
        var posts: [ExportPost] = []
        for file in layout.postFiles {
            posts += try readPosts(file, archived: false)
        }
        if let file = layout.archivedPostsFile {
            posts += try readPosts(file, archived: true)
        }
        if let file = layout.reelsFile {
            posts += try readPosts(file, archived: false, wrapper: "ig_reels_media").map { var reel = $0; reel.isReel = true; return reel }
        }
        var export = InstagramExport(root: layout.root, profile: try readProfile(), posts: posts, following: try readFollowing())
        if let file = layout.storiesFile {
            export.stories = try readPosts(file, archived: false, wrapper: "ig_stories").map { var story = $0; story.isStory = true; return story }
        }
        for file in layout.commentFiles {
            let json = try load(file)
            // `[{ string_map_data: { Comment, "Media Owner", Time } }]`, older files wrapped in `comments_media_comments`.
            export.commentedOwners += (json.array ?? json["comments_media_comments"]?.array ?? []).map {
                $0["string_map_data"]?["Media Owner"]?["value"]?.text?.lowercased()
            }
        }
        export.likedOwners = try readLikes()
        return export
    }

    /// `liked_posts.json`: `{ likes_media_likes: [{ title: owner, string_list_data }] }`;
    /// 2019–2020's `likes.json`: `{ media_likes: [[date, owner], …] }`.
    private func readLikes() throws -> [String?] {
        try layout.likeFiles.flatMap { file -> [String?] in
            let json = try load(file)
            if let legacy = json["media_likes"]?.array {
                return legacy.map { $0.array?.dropFirst().first?.text?.lowercased() }
            }
            return (json.array ?? json["likes_media_likes"]?.array ?? []).map { $0["title"]?.text?.lowercased() }
        }
    }


    /// 2019–2020's `media.json`: `{photos, videos, stories, profile: [{caption, taken_at, path}]}`,
    /// dates as ISO 8601 text. A carousel's photos are separate entries with one date and caption:
    /// they are joined back into one post, in the order listed.
    private func readLegacy() throws -> InstagramExport {
        let json = try load("media.json")
        func entries(_ key: String) -> [(timestamp: Int64, caption: String, uri: String)] {
            (json[key]?.array ?? []).compactMap { item in
                guard let uri = item["path"]?.text, let date = item["taken_at"]?.string.flatMap(ExportDate.parse) else { return nil }
                return (date, item["caption"]?.string ?? "", uri)
            }
        }
        var posts: [ExportPost] = []
        var index: [String: Int] = [:]
        for entry in entries("photos") + entries("videos") {
            let key = "\(entry.timestamp)\u{0}\(entry.caption)"
            if let at = index[key] {
                posts[at].media.append(ExportMedia(uri: entry.uri, alt: nil))
            } else {
                index[key] = posts.count
                posts.append(ExportPost(timestamp: entry.timestamp, caption: entry.caption,
                                        media: [ExportMedia(uri: entry.uri, alt: nil)], isArchived: false, sourceFile: "media.json"))
            }
        }
        var profile = try readProfile()
        if profile.avatarURI == nil {
            let pictures = json["profile"]?.array ?? []
            let active = pictures.first { $0["is_active_profile"]?.bool == true } ?? pictures.max {
                ($0["taken_at"]?.string.flatMap(ExportDate.parse) ?? 0) < ($1["taken_at"]?.string.flatMap(ExportDate.parse) ?? 0)
            }
            profile.avatarURI = active?["path"]?.text
        }
        var export = InstagramExport(root: layout.root, profile: profile, posts: posts, following: try readFollowing())
        export.stories = entries("stories").map {
            var story = ExportPost(timestamp: $0.timestamp, caption: $0.caption, media: [ExportMedia(uri: $0.uri, alt: nil)],
                                   isArchived: false, sourceFile: "media.json")
            story.isStory = true
            return story
        }
        if layout.commentFiles.contains("comments.json") {
            // `{ media_comments: [[date, text, owner], …] }`
            export.commentedOwners = ((try load("comments.json"))["media_comments"]?.array ?? []).map {
                $0.array?.dropFirst(2).first?.text?.lowercased()
            }
        }
        export.likedOwners = try readLikes()
        return export
    }

    private func load(_ file: String) throws -> ExportJSON {
        try ExportJSON.load(layout.root.appendingPathComponent(file), name: file)
    }

    /// `posts_N.json` is a bare array; `archived_posts.json` wraps it in `ig_archived_post_media`,
    /// `reels.json` in `ig_reels_media`.
    private func readPosts(_ file: String, archived: Bool, wrapper: String = "ig_archived_post_media") throws -> [ExportPost] {
        let json = try load(file)
        guard let entries = json.array ?? json[wrapper]?.array else {
            throw ImportError.unexpectedJSON(file: file, expected: "a list of posts")
        }
        return entries.compactMap { post(from: $0, file: file, archived: archived) }
    }

    private func post(from entry: ExportJSON, file: String, archived: Bool) -> ExportPost? {
        // A post is `{ title, creation_timestamp, media: [...] }`; a lone media item without the
        // wrapper also occurs (older single-photo posts), so treat it as a post of one.
        let items = entry["media"]?.array ?? (entry["uri"] != nil ? [entry] : [])
        let media = items.compactMap { item -> ExportMedia? in
            guard let uri = item["uri"]?.text else { return nil }
            return ExportMedia(uri: uri, alt: item["alt_text"]?.text ?? item["accessibility_caption"]?.text,
                               creationTimestamp: item["creation_timestamp"]?.timestamp)
        }
        guard !media.isEmpty else { return nil }
        let timestamp = entry["creation_timestamp"]?.timestamp
            ?? items.lazy.compactMap { $0["creation_timestamp"]?.timestamp }.first
        guard let timestamp else { return nil }
        // Single-image posts often carry the caption on the media item, with an empty post title.
        let caption = entry["title"]?.text ?? items.lazy.compactMap { $0["title"]?.text }.first ?? ""
        return ExportPost(timestamp: timestamp, caption: caption, media: media, isArchived: archived, sourceFile: file)
    }

    private func readProfile() throws -> ExportProfile {
        var profile = ExportProfile()
        if let file = layout.profileFile {
            let json = try load(file)
            if let user = (json["profile_user"]?.array?.first) ?? json["profile_user"] {
                let fields = user["string_map_data"]
                func value(_ keys: String...) -> String? {
                    keys.lazy.compactMap { fields?[$0]?["value"]?.text }.first
                }
                profile.username = value("Username", "username")
                profile.name = value("Name", "name")
                profile.bio = value("Bio", "Biography", "bio")
                profile.website = value("Website", "website")
                profile.avatarURI = user["media_map_data"]?.value(anyCase: "Profile Photo")?["uri"]?.text
            } else {
                // 2018–2020 `profile.json`: flat keys.
                profile.username = json["username"]?.text
                profile.name = json["name"]?.text
                profile.bio = json["biography"]?.text
                profile.website = json["website"]?.text ?? json["external_url"]?.text
            }
        }
        if profile.avatarURI == nil, let file = layout.profilePhotosFile {
            // `{ ig_profile_picture: [{ uri, creation_timestamp }] }`: the newest is the current one.
            let pictures = try load(file)["ig_profile_picture"]?.array ?? []
            profile.avatarURI = pictures
                .max { ($0["creation_timestamp"]?.timestamp ?? 0) < ($1["creation_timestamp"]?.timestamp ?? 0) }?["uri"]?.text
        }
        profile.username = profile.username?.lowercased()
        return profile
    }

    /// `{ relationships_following: [{ title, string_list_data: [{ href, value }] }] }`; the
    /// name moved from `value` to `title` in 2025, and 2018's `connections.json` has a map.
    private func readFollowing() throws -> [String] {
        guard let file = layout.followingFile else { return [] }
        let json = try load(file)
        var names: [String] = []
        if let entries = json["relationships_following"]?.array ?? json.array {
            for entry in entries {
                let data = entry["string_list_data"]?.array?.first
                let fromHref = data?["href"]?.text.flatMap { URL(string: $0)?.pathComponents.last(where: { $0 != "/" }) }
                if let name = data?["value"]?.text ?? entry["title"]?.text ?? fromHref { names.append(name) }
            }
        } else if case .object(let map)? = json["following"] {
            names = map.keys.sorted()
        }
        var seen = Set<String>()
        return names.map { $0.lowercased() }.filter { seen.insert($0).inserted }
    }
}
