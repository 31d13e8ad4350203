import Foundation

/// What an Instagram export says about its owner, read once and repaired of mojibake, so the
/// rest of the import works with plain values and never touches the export's JSON again.
struct InstagramExport: Sendable, Equatable {
    /// The folder media `uri`s are relative to (inside the temporary unzip folder for a .zip).
    var root: URL
    var profile: ExportProfile
    /// Published posts first, then archived ones, each group in the export's order.
    var posts: [ExportPost]
    /// Usernames the owner follows, lower-cased, in the export's order.
    var following: [String]
    /// Stories (each one photo or video); imported only with `--stories`.
    var stories: [ExportPost] = []
    /// Whose posts the owner commented on, one entry per comment (lower-cased handle, nil when
    /// the export does not say). The export never says *which* post, so they are counted, not placed.
    var commentedOwners: [String?] = []
    /// Whose posts the owner liked, one entry per like, as for comments.
    var likedOwners: [String?] = []
}

/// The owner's profile, as far as the export has one.
struct ExportProfile: Sendable, Equatable {
    var username: String?
    var name: String?
    var bio: String?
    var website: String?
    /// Path of the profile picture inside the export.
    var avatarURI: String?
}

/// One post: a caption and one or more media files (a carousel keeps its order).
struct ExportPost: Sendable, Equatable {
    /// Seconds since 1970, UTC: when the post was published.
    var timestamp: Int64
    var caption: String
    var media: [ExportMedia]
    /// Archived on Instagram (hidden from the profile); imported as a draft.
    var isArchived: Bool
    /// From the export's list of Reels.
    var isReel = false
    /// From the export's list of stories.
    var isStory = false
    /// The export file the post came from, for messages.
    var sourceFile: String

    /// The key manifests before version 2 used (post date and first media path). Both come and
    /// go between export shapes, so it is kept only to find posts imported by an older version;
    /// `PostSync.identity` is the key now.
    var key: String { "\(timestamp) \(media.first?.uri ?? "")" }
}

/// One photo or video of a post.
struct ExportMedia: Sendable, Equatable {
    /// Path inside the export, e.g. `media/posts/202103/17890_n.jpg`.
    var uri: String
    /// Alt text, when the export carries any (`alt_text` / `accessibility_caption`).
    var alt: String?
    /// When the photo or video was taken or uploaded (`creation_timestamp` of the item): unlike
    /// post-level fields, it is in every export shape.
    var creationTimestamp: Int64? = nil
}
