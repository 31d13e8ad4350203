/// What a post's media file is, known by its extension: the one list of the types the site
/// format accepts (SITE-FORMAT.md, "Photos" and "Videos").
public enum MediaType: Sendable, Hashable {
    case photo
    case video

    public static let photoExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif", "tif", "tiff", "heic", "heif", "avif"]
    public static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "webm"]

    /// For messages: the accepted types, as a user would list them.
    public static let photoTypesText = "jpg, png, webp, gif, tiff, heic or avif"
    public static let videoTypesText = "mp4, mov, m4v or webm"

    /// The type of a file extension (any case), or nil when posts cannot hold it.
    public init?(fileExtension: String) {
        let lowered = fileExtension.lowercased()
        if Self.photoExtensions.contains(lowered) {
            self = .photo
        } else if Self.videoExtensions.contains(lowered) {
            self = .video
        } else {
            return nil
        }
    }

    /// The type of a file by its name's extension.
    /// The last "." is found among the name's bytes, not its characters (a "." byte is always the
    /// character "." or the start of one, and a name whose last dot a combining mark follows has
    /// no accepted extension either way). Asked of every photo by every build, on one thread
    /// while the other core waits: searched by characters, it was a third of gathering the image
    /// jobs at 10,000 posts.
    public init?(fileName: String) {
        let utf8 = fileName.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex else { return nil }
        self.init(fileExtension: String(fileName[utf8.index(after: dot)...]))
    }
}
