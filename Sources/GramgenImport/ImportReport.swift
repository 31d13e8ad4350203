/// What an import did (or, with `--dry-run`, would do), for the CLI to print and tests to check.
public struct ImportReport: Sendable, Equatable {
    /// What happened to one post or to the profile.
    public enum Outcome: String, Sendable, Equatable {
        /// Written for the first time.
        case created
        /// Written again because it was missing (deleted since the last import).
        case restored
        /// Rewritten because the export changed and the user had not edited the file.
        case updated
        case unchanged
        /// Left alone because the user edited it since the last import.
        case keptEdits
    }

    public struct PostResult: Sendable, Equatable {
        /// Site-relative folder, e.g. `content/users/ann/posts/2021-03-04-first-day`.
        public var folder: String
        public var outcome: Outcome
        /// Photos and videos in the post folder; fewer than the export had when some were skipped.
        public var photoCount: Int
        public var videoCount: Int
        /// Archived on Instagram, so written with `draft: true`.
        public var isDraft: Bool
        /// A Reel on Instagram (a video post of its own list in the export).
        public var isReel: Bool
        /// A story, imported with `--stories`.
        public var isStory: Bool
    }

    /// What the export holds that the import does not carry over, counted, so nothing is lost silently.
    public struct NotImported: Sendable, Equatable {
        /// Singular noun: "story", "comment".
        public var kind: String
        public var count: Int
        public var why: String
    }

    public var notImported: [NotImported] = []

    /// Why a media file of the export was not imported.
    public enum SkipReason: Sendable, Equatable {
        case unsupported
        case missingFromExport
        /// A FIFO, socket or device (never read: it could block the import), or a file too large.
        case notReadable(String)
        /// The carousel has more photos and videos than `max_images_per_post` allows (the limit).
        case overLimit(Int)
    }

    public struct SkippedFile: Sendable, Equatable {
        /// Path inside the export.
        public var uri: String
        /// Shown to the user, so they know whether to act (e.g. raise the photo limit).
        public var reason: SkipReason
        /// Day of the post it belongs to (`YYYY-MM-DD`); nil for the profile picture.
        public var postDay: String?
        /// Site-relative folder of the post, nil when the whole post was skipped.
        public var postFolder: String?
    }

    /// The user the export became (`--handle` or the export's username).
    public var handle: String
    /// Site-relative, e.g. `content/users/ann`.
    public var userFolder: String
    /// Nothing was written; `written` lists what would have been.
    public var dryRun: Bool
    /// What happened to profile.md.
    public var profile: Outcome?
    /// Site-relative path of profile.md.
    public var profilePath: String
    /// Imported posts, oldest first.
    public var posts: [PostResult] = []
    /// Every media file not imported, so nothing is dropped silently.
    public var skippedFiles: [SkippedFile] = []
    /// Days (`YYYY-MM-DD`) of posts with no usable photo at all, which were not imported.
    public var postsWithoutMedia: [String] = []
    /// Accounts followed on Instagram that are users of this site: written to `following:`.
    public var following: [String] = []
    /// Accounts followed on Instagram that are not users of this site.
    public var followingLeftOut: [String] = []
    /// Site-relative paths written (or that would be written), in order.
    public var written: [String] = []

    /// How many posts had this outcome, for the summary line.
    public func count(_ outcome: Outcome) -> Int { posts.filter { $0.outcome == outcome }.count }
}
