import Foundation

/// One source photo or video as the user named it, with its alt text.
public struct ImageSource: Sendable, Hashable {
    /// Path relative to the site root, for messages.
    public var path: String
    /// Absolute path on disk, for reading.
    public var filePath: String
    public var alt: String

    public init(path: String, filePath: String, alt: String) {
        self.path = path
        self.filePath = filePath
        self.alt = alt
    }

    public init(path: String, fileURL: URL, alt: String) {
        self.init(path: path, filePath: fileURL.path, alt: alt)
    }

    /// `filePath` as a URL, made when asked: making one takes over a microsecond, 16 ms for the
    /// photos of 10,000 kept posts, and an unchanged photo's is never asked for.
    public var fileURL: URL { URL(fileURLWithPath: filePath, isDirectory: false) }

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
/// A post. Its fields live in one shared box, copied only when a copy is changed: pages, feeds
/// and indexes hold many copies of the same posts (a 10,000-post site's profile tabs alone take
/// hundreds of thousands), and copying a box is one reference count, not one per field.
public struct Post: Sendable, Hashable {
    // Visible to the inlinable getters, so each module reads a field without a call.
    @usableFromInline final class Fields: @unchecked Sendable {  // never changed once shared (see `fields`)
        @usableFromInline var id: String { didSet { named() } }
        @usableFromInline var author: String { didSet { named() } }
        /// `author/id`, made once: pages, feeds and digests look posts up by it all the time.
        @usableFromInline private(set) var key: String
        /// The post page's path (`SitePaths.post`), made once with `key`: each link to the post,
        /// its likes page's and its card's ask for it (21 times a post in a pages-only build).
        @usableFromInline private(set) var path: String
        @usableFromInline var date: PostDate
        @usableFromInline var location: String?
        @usableFromInline var images: [ImageSource]
        @usableFromInline var caption: RichText
        @usableFromInline var tagKeys: [String]
        @usableFromInline var likedBy: [String]
        @usableFromInline var comments: [Comment]
        @usableFromInline var isDraft: Bool
        @usableFromInline var isSensitive: Bool
        @usableFromInline var showExif: Bool?
        @usableFromInline var repostOf: String?
        @usableFromInline var sourcePath: String
        @usableFromInline var sourceDigest: UInt64

        init(id: String, author: String, date: PostDate, location: String?, images: [ImageSource], caption: RichText, tagKeys: [String], likedBy: [String], comments: [Comment], isDraft: Bool, isSensitive: Bool, showExif: Bool?, repostOf: String?, sourcePath: String, sourceDigest: UInt64) {
            self.id = id
            self.author = author
            key = "\(author)/\(id)"
            path = SitePaths.post(author: author, id: id)
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
            self.sourceDigest = sourceDigest
        }

        private func named() {
            key = "\(author)/\(id)"
            path = SitePaths.post(author: author, id: id)
        }

        func copy() -> Fields {
            Fields(id: id, author: author, date: date, location: location, images: images, caption: caption, tagKeys: tagKeys, likedBy: likedBy, comments: comments, isDraft: isDraft, isSensitive: isSensitive, showExif: showExif, repostOf: repostOf, sourcePath: sourcePath, sourceDigest: sourceDigest)
        }
    }

    @usableFromInline var box: Fields

    /// The box, made this copy's own before it is changed.
    private var fields: Fields {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = box.copy() }
            return box
        }
    }

    public var id: String {
        @inlinable get { box.id }
        set { fields.id = newValue }
    }
    public var author: String {
        @inlinable get { box.author }
        set { fields.author = newValue }
    }
    public var date: PostDate {
        @inlinable get { box.date }
        set { fields.date = newValue }
    }
    public var location: String? {
        @inlinable get { box.location }
        set { fields.location = newValue }
    }
    public var images: [ImageSource] {
        @inlinable get { box.images }
        set { fields.images = newValue }
    }
    public var caption: RichText {
        @inlinable get { box.caption }
        set { fields.caption = newValue }
    }
    /// Tag keys (see `TagKey`) from the caption and front matter, without repeats, in order of first use.
    public var tagKeys: [String] {
        @inlinable get { box.tagKeys }
        set { fields.tagKeys = newValue }
    }
    public var likedBy: [String] {
        @inlinable get { box.likedBy }
        set { fields.likedBy = newValue }
    }
    public var comments: [Comment] {
        @inlinable get { box.comments }
        set { fields.comments = newValue }
    }
    public var isDraft: Bool {
        @inlinable get { box.isDraft }
        set { fields.isDraft = newValue }
    }
    public var isSensitive: Bool {
        @inlinable get { box.isSensitive }
        set { fields.isSensitive = newValue }
    }
    /// `show_exif` of the post; nil follows site.yml.
    public var showExif: Bool? {
        @inlinable get { box.showExif }
        set { fields.showExif = newValue }
    }
    /// `repost:`: the key (`handle/id`) of the post this one reposts; it then has no media of its own.
    public var repostOf: String? {
        @inlinable get { box.repostOf }
        set { fields.repostOf = newValue }
    }
    public var sourcePath: String {
        @inlinable get { box.sourcePath }
        set { fields.sourcePath = newValue }
    }
    /// Digest of `post.md`'s text as it was read (`DigestBuilder`), so pages are compared by the
    /// text they were drawn from without reading the file again (0 for a post made in code).
    public var sourceDigest: UInt64 {
        @inlinable get { box.sourceDigest }
        set { fields.sourceDigest = newValue }
    }

    public init(id: String, author: String, date: PostDate, location: String?, images: [ImageSource],
                caption: RichText, tagKeys: [String], likedBy: [String], comments: [Comment],
                isDraft: Bool, isSensitive: Bool, showExif: Bool? = nil, repostOf: String? = nil, sourcePath: String,
                sourceDigest: UInt64 = 0) {
        box = Fields(id: id, author: author, date: date, location: location, images: images, caption: caption, tagKeys: tagKeys, likedBy: likedBy, comments: comments, isDraft: isDraft, isSensitive: isSensitive, showExif: showExif, repostOf: repostOf, sourcePath: sourcePath, sourceDigest: sourceDigest)
    }

    public static func == (a: Post, b: Post) -> Bool {
        a.box === b.box || (a.id == b.id && a.author == b.author && a.date == b.date && a.location == b.location && a.images == b.images && a.caption == b.caption && a.tagKeys == b.tagKeys && a.likedBy == b.likedBy && a.comments == b.comments && a.isDraft == b.isDraft && a.isSensitive == b.isSensitive && a.showExif == b.showExif && a.repostOf == b.repostOf && a.sourcePath == b.sourcePath && a.sourceDigest == b.sourceDigest)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(author)
        hasher.combine(date)
        hasher.combine(location)
        hasher.combine(images)
        hasher.combine(caption)
        hasher.combine(tagKeys)
        hasher.combine(likedBy)
        hasher.combine(comments)
        hasher.combine(isDraft)
        hasher.combine(isSensitive)
        hasher.combine(showExif)
        hasher.combine(repostOf)
        hasher.combine(sourcePath)
        hasher.combine(sourceDigest)
    }

    /// Unique across the site, stable across builds.
    @inlinable public var key: String { box.key }
    /// The same for every copy of this post not changed since it was copied (a copy shares its
    /// fields until then): a cheap key for tables made from one site's posts, with `key` to fall
    /// back on for a post changed since.
    @inlinable public var identity: ObjectIdentifier { ObjectIdentifier(box) }
    /// Site-relative URL path of the post page.
    public var path: String { box.path }
}

/// A hashtag with every post that uses it.
public struct Hashtag: Sendable, Hashable {
    public var key: String
    /// The most used spelling (ties: the first in sort order).
    public var display: String
    /// Post keys, newest first.
    public var postKeys: [String]
    /// The same posts' places in `Site.posts` (`Site.init` makes sure of it): a tag's pages and
    /// feeds take their posts by place, not by looking up each key (30,000 look-ups a build at
    /// 10,000 posts).
    public var postIndexes: [Int]

    public init(key: String, display: String, postKeys: [String], postIndexes: [Int] = []) {
        self.key = key
        self.display = display
        self.postKeys = postKeys
        self.postIndexes = postIndexes
    }

}
