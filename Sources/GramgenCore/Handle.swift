/// A user's handle: the name of their folder, checked against Instagram's rule.
public enum Handle {
    /// Names that are output paths of the site and so cannot be users.
    public static let reserved: Set<String> = [
        "tags", "explore", "page", "p", "media", "assets", "search", "static", "feed", "about",
    ]

    static let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._".unicodeScalars)

    /// Why a name is not a valid handle, or nil when it is.
    public static func problem(with name: String) -> String? {
        let scalars = name.unicodeScalars
        if scalars.isEmpty || scalars.count > 30 {
            return "a handle is 1 to 30 characters long"
        }
        if !scalars.allSatisfy({ allowed.contains($0) }) {
            return "a handle may only use lower-case letters a–z, digits, '.' and '_'"
        }
        if name.hasPrefix(".") || name.hasSuffix(".") {
            return "a handle may not start or end with '.'"
        }
        if name.contains("..") {
            return "a handle may not contain '..'"
        }
        if reserved.contains(name) {
            return "'\(name)' is reserved for the site's own pages"
        }
        return nil
    }

    public static func isValid(_ name: String) -> Bool { problem(with: name) == nil }

    /// True for characters that may appear inside a handle (used by the mention scanner).
    public static func isHandleCharacter(_ scalar: Unicode.Scalar) -> Bool { allowed.contains(scalar) }
}
