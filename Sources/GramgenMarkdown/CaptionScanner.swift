import GramgenCore

/// The hashtag and mention rules of SITE-FORMAT.md, applied to one `#` or `@` the author typed.
/// The caller has already made sure the character was typed in running text (see `CmarkDocument`),
/// so this only looks at its neighbours: the character before it and the text right after it.
enum CaptionScanner {
    /// Longer "tags" are not tags: it bounds the work and the size of tag pages' URLs.
    static let maxHashtagLength = 100

    /// The tag after a typed `#`, as written, and where it ends in `following`.
    /// - Parameter previous: the character before the `#` as the reader sees it (entities and
    ///   escapes decoded), nil at the start of a block or after a line break.
    static func hashtag(
        after previous: Unicode.Scalar?, in following: String
    ) -> (name: String, end: String.UnicodeScalarView.Index)? {
        if let previous, previous.continuesWord || previous == "&" { return nil }
        let scalars = following.unicodeScalars
        var end = scalars.startIndex, count = 0, hasLetter = false
        while end < scalars.endIndex, scalars[end].isHashtagCharacter {
            if !hasLetter && scalars[end].isCaptionLetter { hasLetter = true }
            count += 1
            scalars.formIndex(after: &end)
        }
        guard count > 0, hasLetter else { return nil }
        let name = String(scalars[scalars.startIndex..<end])
        if count > maxHashtagLength {
            // Marks may make a short word long in scalars (NFD); count what a reader counts.
            guard count <= 4 * maxHashtagLength, name.count <= maxHashtagLength else { return nil }
        }
        return (name, end)
    }

    /// The handle after a typed `@` and where it ends in `following`, when it has the shape of a
    /// handle. Reserved words (`about`, `tags`…) are returned too: they are well-formed names that
    /// simply belong to no user, so they are reported like any unknown mention.
    ///
    /// Upper-case letters are not handle characters: handles are lower-case folder names, and
    /// `@Alfred` — or `@alfredX`, `@alfredé` — is more likely a name or a word than a mention of
    /// `alfred`, so it stays text instead of linking (or warning about) a different word.
    static func mention(
        after previous: Unicode.Scalar?, in following: String
    ) -> (handle: String, end: String.UnicodeScalarView.Index)? {
        if let previous, previous.continuesWord || previous == "." { return nil }
        let scalars = following.unicodeScalars
        var runEnd = scalars.startIndex
        while runEnd < scalars.endIndex, Handle.isHandleCharacter(scalars[runEnd]) {
            scalars.formIndex(after: &runEnd)
        }
        var end = runEnd  // trailing dots end the sentence, not the handle: "thanks @alfred."
        while end > scalars.startIndex, scalars[scalars.index(before: end)] == "." {
            scalars.formIndex(before: &end)
        }
        guard end > scalars.startIndex else { return nil }
        if end == runEnd, runEnd < scalars.endIndex, scalars[runEnd].continuesWord { return nil }
        let handle = String(scalars[scalars.startIndex..<end])
        guard hasHandleShape(handle) else { return nil }
        return (handle, end)
    }

    /// `Handle.problem(with: handle) == nil || Handle.reserved.contains(handle)` for a run of handle
    /// characters (all ASCII), without Foundation's substring search: reserved words pass every
    /// other rule, so what is left is the length and the dots.
    static func hasHandleShape(_ handle: String) -> Bool {
        let bytes = handle.utf8
        guard (1...30).contains(bytes.count), bytes.first != UInt8(ascii: "."), bytes.last != UInt8(ascii: ".") else {
            return false
        }
        var previous: UInt8 = 0
        for byte in bytes {
            guard Handle.isHandleCharacter(Unicode.Scalar(byte)) else { return false }
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return false }
            previous = byte
        }
        return true
    }
}
