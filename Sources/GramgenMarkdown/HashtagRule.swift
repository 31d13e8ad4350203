/// The hashtag rule of SITE-FORMAT.md for a tag written without its `#`, as in front matter's
/// `tags:`. A tag becomes an output folder (`tags/<tag>/`), so anything a typed `#tag` could not
/// be (`..`, `.`, `a/b`, `<x>`) is refused instead of being written as a path.
public enum HashtagRule {
    public static func isValid(_ name: String) -> Bool {
        guard let tag = CaptionScanner.hashtag(after: nil, in: name) else { return false }
        return tag.end == name.unicodeScalars.endIndex
    }
}
