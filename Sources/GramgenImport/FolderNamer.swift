import GramgenCore

/// Hands out post folder names that are unique in the user's `posts/` folder: the first post
/// gets `2021-03-04-beach`, the next one with that name `2021-03-04-beach-2`, and so on.
/// Compared case-insensitively, so the names also stay apart on macOS disks.
struct FolderNamer {
    private var taken: Set<String>

    init(existing: [String]) {
        taken = Set(existing.map { $0.lowercased() })
    }

    mutating func name(timestamp: Int64, caption: String) -> String {
        let base = "\(ExportDate.day(timestamp))-\(PostSlug.slug(for: caption))"
        var name = base
        var n = 2
        while taken.contains(name.lowercased()) {
            name = "\(base)-\(n)"
            n += 1
        }
        taken.insert(name.lowercased())
        return name
    }
}
