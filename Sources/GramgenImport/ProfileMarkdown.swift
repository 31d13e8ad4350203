import Foundation
import GramgenCore

/// The text of the `profile.md` written by the import.
struct ProfileMarkdown {
    var name: String?
    var avatar: String?
    var website: String?
    /// Valid handles of users of the site only: the build refuses unknown ones.
    var following: [String]
    var bio: String?

    var text: String {
        var lines = ["---"]
        if let name { lines.append("name: \(YAMLQuote.quoted(name))") }
        if let avatar { lines.append("avatar: \(YAMLQuote.quoted(avatar))") }
        if let website { lines.append("website: \(YAMLQuote.quoted(website))") }
        if !following.isEmpty { lines.append("following: [\(following.joined(separator: ", "))]") }
        lines.append("---")
        let body = bio.map(CaptionMarkdown.body) ?? ""
        if !body.isEmpty { lines.append(body) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Instagram lets people type `example.com`; the site needs an http(s) URL, and anything
    /// else (a `javascript:` link, free text) is left out rather than failing the build.
    static func website(from text: String?) -> String? {
        guard var text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty, !text.contains(" ") else { return nil }
        if !text.contains("://") { text = "https://" + text }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, host.contains(".") else { return nil }
        return text
    }
}
