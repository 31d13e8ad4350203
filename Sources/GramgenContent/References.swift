import GramgenCore

/// Reading handles and file names that front matter refers to.
enum References {
    /// A list of handles (`following`, `liked_by`), each checked against the handle rule.
    /// Whether the users exist is checked later, when every user is known.
    static func handles(_ key: String, in fields: FrontMatterFields, diagnostics: inout Diagnostics) -> [Reference] {
        var handles: [Reference] = []
        for (text, location) in fields.stringList(key, diagnostics: &diagnostics) ?? [] {
            let handle = text.hasPrefix("@") ? String(text.dropFirst()) : text
            if let problem = Handle.problem(with: handle), !Handle.reserved.contains(handle) {
                diagnostics.error(location, "'\(text)' in '\(key)' is not a valid handle: \(problem)",
                                  hint: "write the user's folder name")
            } else if !handles.contains(where: { $0.handle == handle }) {
                handles.append(Reference(handle: handle, location: location, role: key))
            }
        }
        return handles
    }

    /// File names in front matter name a file in the same folder: no paths.
    static func fileNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "the file name is empty" }
        if name.contains("/") || name.contains("\\") || name == "." || name == ".." {
            return "'\(name)' must be a file name in the same folder, not a path"
        }
        return nil
    }
}

/// A handle named in front matter, checked against the users once all are known.
struct Reference {
    var handle: String
    var location: SourceLocation
    /// What the handle is for, as the key reads: `following`, `liked_by`, `comment author`.
    var role: String
}

/// A post as read, with what still has to be checked against the rest of the site.
struct LoadedPost {
    var post: Post
    /// Every hashtag as written, for choosing each tag's most used spelling.
    var tagSpellings: [String]
    var references: [Reference]
    /// Where `repost:` stands, to report a repost that cannot be.
    var repostLocation: SourceLocation? = nil
}
