import Foundation

/// Links users put in their profile must be http(s): never `javascript:` or `data:`.
enum WebLink {
    static func isSafe(_ text: String) -> Bool {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return false }
        return true
    }
}
