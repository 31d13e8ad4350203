import GramgenCore
import GramgenMarkdown

/// Stage 2: cross-checks references and builds the site graph (sorted posts, grouped tags).
enum SiteResolver {
    /// Every handle named in `following`, `liked_by` or as a comment author must be a user.
    static func check(_ references: [Reference], users: Set<String>, diagnostics: inout Diagnostics) {
        let sortedUsers = users.sorted()
        for reference in references where !users.contains(reference.handle) {
            let hint = Suggestion.closest(to: reference.handle, in: sortedUsers).map { "did you mean '\($0)'?" }
                ?? "add content/users/\(reference.handle)/profile.md, or remove the name"
            diagnostics.error(reference.location, "'\(reference.handle)' in '\(reference.role)' is not a user of this site",
                              hint: hint)
        }
    }

    static func resolve(config: SiteConfig, profiles: [Profile], posts loaded: [LoadedPost]) -> Site {
        // Newest first, then by key. Keys are unique, so this order is total and sorting positions
        // gives the same order as sorting the posts; it spares building a key for each comparison
        // and moving whole posts around.
        let keys = loaded.map(\.post.key)
        let instants = loaded.map(\.post.date.instant)
        let order = loaded.indices.sorted { a, b in
            instants[a] != instants[b] ? instants[a] > instants[b] : keys[a] > keys[b]
        }
        let posts = order.map { loaded[$0].post }
        return Site(config: config, users: profiles.sorted { $0.handle < $1.handle }, posts: posts,
                    tags: hashtags(posts: posts, keys: order.map { keys[$0] },
                                   spellings: loaded.flatMap(\.tagSpellings) + profiles.flatMap(\.bio.tags)))
    }

    /// Groups tags by key; each shows its most used spelling (ties: the smallest in code-point order).
    /// - Parameter keys: `posts.map(\.key)`.
    static func hashtags(posts: [Post], keys: [String], spellings: [String]) -> [Hashtag] {
        var counts: [String: [String: Int]] = [:]
        for spelling in spellings {
            counts[TagKeys.key(for: spelling), default: [:]][TagKeys.precomposed(spelling), default: 0] += 1
        }
        var postKeys: [String: [String]] = [:]
        for (post, postKey) in zip(posts, keys) {
            for key in post.tagKeys { postKeys[key, default: []].append(postKey) }
        }
        return counts.keys.sorted().map { key in
            let display = counts[key, default: [:]].max { a, b in
                a.value != b.value ? a.value < b.value : a.key > b.key
            }?.key ?? key
            return Hashtag(key: key, display: display, postKeys: postKeys[key] ?? [])
        }
    }
}
