import Foundation

/// Links users put in their profile and the site's base URL must be http(s): never `javascript:`
/// or `data:`, and nothing a URL cannot hold unescaped (spaces, quotes, `<`, control characters).
enum WebLink {
    static func isSafe(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard hasOnlyURLCharacters(trimmed), let url = URL(string: trimmed),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return false }
        return true
    }

    /// Printable characters only, and none of the ASCII ones RFC 3986 never allows as they are;
    /// letters of other scripts (`https://bücher.example/`) are fine.
    static func hasOnlyURLCharacters(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0...0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return false
            default: return !"\"<>\\^`{|}".unicodeScalars.contains(scalar)
            }
        }
    }
}
