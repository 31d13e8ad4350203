import Foundation

/// One source photo or video as the user named it, with its alt text.
public struct ImageSource: Sendable, Hashable {
    /// Path relative to the site root, for messages.
    public var path: String
    /// Absolute path on disk, for reading.
    public var fileURL: URL
    public var alt: String

    public init(path: String, fileURL: URL, alt: String) {
        self.path = path
        self.fileURL = fileURL
        self.alt = alt
    }

    /// Whether the file is a video (by its extension, see `MediaType`).
    public var isVideo: Bool { MediaType(fileName: path) == .video }
}

/// A caption, bio or comment after Markdown: HTML with marked internal links, plus what it mentions.
public struct RichText: Sendable, Hashable {
    public var html: String
    /// Plain text, for feed summaries and meta descriptions.
    public var plainText: String
    /// Hashtags as written (not yet grouped).
    public var tags: [String]
    /// Handles of existing users it mentions.
    public var mentions: [String]

    public init(html: String = "", plainText: String = "", tags: [String] = [], mentions: [String] = []) {
        self.html = html
        self.plainText = plainText
        self.tags = tags
        self.mentions = mentions
    }
}

/// A user, from `users/<handle>/profile.md`.
public struct Profile: Sendable, Hashable {
    public var handle: String
    public var name: String
    public var bio: RichText
    public var website: String?
    public var location: String?
    public var following: [String]
    public var avatar: ImageSource?
    public var sourcePath: String

    public init(handle: String, name: String, bio: RichText, website: String?, location: String?,
                following: [String], avatar: ImageSource?, sourcePath: String) {
        self.handle = handle
        self.name = name
        self.bio = bio
        self.website = website
        self.location = location
        self.following = following
        self.avatar = avatar
        self.sourcePath = sourcePath
    }
}

/// A comment under a post.
public struct Comment: Sendable, Hashable {
    public var author: String
    public var date: Date
    public var text: RichText

    public init(author: String, date: Date, text: RichText) {
        self.author = author
        self.date = date
        self.text = text
    }
}

/// A date as the author wrote it: the instant, and the UTC offset to show it in.
public struct PostDate: Sendable, Hashable, Comparable {
    public var instant: Date
    public var utcOffsetSeconds: Int

    public init(instant: Date, utcOffsetSeconds: Int) {
        self.instant = instant
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public static func < (a: PostDate, b: PostDate) -> Bool { a.instant < b.instant }
}

/// A post, from `users/<handle>/posts/<id>/post.md`.
public struct Post: Sendable, Hashable {
    public var id: String
    public var author: String
    public var date: PostDate
    public var location: String?
    public var images: [ImageSource]
    public var caption: RichText
    /// Tag keys (see `TagKey`) from the caption and front matter, without repeats, in order of first use.
    public var tagKeys: [String]
    public var likedBy: [String]
    public var comments: [Comment]
    public var isDraft: Bool
    public var isSensitive: Bool
    /// `show_exif` of the post; nil follows site.yml.
    public var showExif: Bool?
    /// `repost:`: the key (`handle/id`) of the post this one reposts; it then has no media of its own.
    public var repostOf: String?
    public var sourcePath: String

    public init(id: String, author: String, date: PostDate, location: String?, images: [ImageSource],
                caption: RichText, tagKeys: [String], likedBy: [String], comments: [Comment],
                isDraft: Bool, isSensitive: Bool, showExif: Bool? = nil, repostOf: String? = nil, sourcePath: String) {
        self.id = id
        self.author = author
        self.date = date
        self.location = location
        self.images = images
        self.caption = caption
        self.tagKeys = tagKeys
        self.likedBy = likedBy
        self.comments = comments
        self.isDraft = isDraft
        self.isSensitive = isSensitive
        self.showExif = showExif
        self.repostOf = repostOf
        self.sourcePath = sourcePath
    }

    /// Unique across the site, stable across builds.
    public var key: String { "\(author)/\(id)" }
    /// Site-relative URL path of the post page.
    public var path: String { SitePaths.post(author: author, id: id) }
}

/// A hashtag with every post that uses it.
public struct Hashtag: Sendable, Hashable {
    public var key: String
    /// The most used spelling (ties: the first in sort order).
    public var display: String
    /// Post keys, newest first.
    public var postKeys: [String]

    public init(key: String, display: String, postKeys: [String]) {
        self.key = key
        self.display = display
        self.postKeys = postKeys
    }

}
