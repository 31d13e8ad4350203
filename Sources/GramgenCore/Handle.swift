/// A user's handle: the name of their folder, checked against Instagram's rule.
public enum Handle {
    /// Names that are output paths of the site and so cannot be users: the contract's folders,
    /// and the files and folders the site has at its root beside them (a user `feed.xml` made
    /// the build fail on the folder where the Atom feed goes).
    public static let reserved: Set<String> = [
        "tags", "explore", "page", "p", "media", "assets", "search", "static", "feed", "about",
        SitePaths.file(""), SitePaths.notFound, SitePaths.sitemap, SitePaths.atomFeed, SitePaths.jsonFeed(""),
        SitePaths.webManifest, SitePaths.serviceWorker, SitePaths.favicon, SitePaths.icons,
    ]

    /// a–z, 0–9, '.' and '_' (a comparison, not a set look-up: every kept post's handles are
    /// checked again when a build reads it back, 100,000 posts' worth at the largest sites).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x61...0x7A, 0x30...0x39, 0x2E, 0x5F: true
        default: false
        }
    }

    /// Why a name is not a valid handle, or nil when it is.
    public static func problem(with name: String) -> String? {
        // Most names checked are valid (every kept post's handles, read back by each build): those
        // pass on their bytes, every allowed character being one byte of ASCII; the others are
        // looked at character by character to say why.
        guard name.utf8.withContiguousStorageIfAvailable(isValidBytes) == true else { return problemByCharacters(with: name) }
        return reserved.contains(name) ? reservedProblem(name) : nil
    }

    /// `problem(with:)` without the byte check: the rule as it reads.
    static func problemByCharacters(with name: String) -> String? {
        let scalars = name.unicodeScalars
        if scalars.isEmpty || name.utf8.count > 30 && scalars.count > 30 {
            return "a handle is 1 to 30 characters long"
        }
        if !scalars.allSatisfy(isAllowed) {
            return "a handle may only use lower-case letters a–z, digits, '.' and '_'"
        }
        let bytes = name.utf8  // one byte a character from here
        if bytes.first == 0x2E || bytes.last == 0x2E {
            return "a handle may not start or end with '.'"
        }
        if zip(bytes, bytes.dropFirst()).contains(where: { $0 == 0x2E && $1 == 0x2E }) {
            return "a handle may not contain '..'"
        }
        return reserved.contains(name) ? reservedProblem(name) : nil
    }

    private static func reservedProblem(_ name: String) -> String { "'\(name)' is reserved for the site's own pages" }

    public static func isValid(_ name: String) -> Bool { problem(with: name) == nil }

    /// 1 to 30 bytes of a–z, 0–9, '_' and '.', not starting or ending with '.', no '..'.
    private static func isValidBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 30, bytes[0] != 0x2E, bytes[bytes.count - 1] != 0x2E else { return false }
        var previous: UInt8 = 0
        for byte in bytes {
            switch byte {
            case 0x61...0x7A, 0x30...0x39, 0x5F: break
            case 0x2E where previous != 0x2E: break
            default: return false
            }
            previous = byte
        }
        return true
    }

    /// True for characters that may appear inside a handle (used by the mention scanner).
    public static func isHandleCharacter(_ scalar: Unicode.Scalar) -> Bool { isAllowed(scalar) }
}
