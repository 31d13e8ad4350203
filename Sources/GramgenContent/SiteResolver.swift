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

    /// A repost must name a published post of the site that is neither itself nor a repost.
    /// - Parameter every: every post read, drafts included, by key.
    static func checkReposts(_ posts: [LoadedPost], every: [String: Post], diagnostics: inout Diagnostics) {
        for loaded in posts {
            guard let key = loaded.post.repostOf else { continue }
            let location = loaded.repostLocation ?? SourceLocation(loaded.post.sourcePath)
            if key == loaded.post.key {
                diagnostics.error(location, "a post cannot repost itself", hint: "name another post, or remove `repost:`")
            } else if let original = every[key] {
                if original.isDraft {
                    diagnostics.error(location, "'\(key)' is a draft, which cannot be reposted",
                                      hint: "publish it first (remove `draft: true` in \(original.sourcePath)), or remove `repost:`")
                } else if let first = original.repostOf {
                    diagnostics.error(location, "'\(key)' is itself a repost", hint: "repost the original instead: `repost: \(first)`")
                }
            } else {
                diagnostics.error(location, "'\(key)' is not a post of this site",
                                  hint: "check the handle and the folder name: content/users/\(key.split(separator: "/").first ?? "")/posts/…/")
            }
        }
    }

    /// What a load ends with, on one thread while the other waits (a one-off build's): the order,
    /// the tags' spellings and the site's tables are made two at a time with `parallel`.
    static func resolve(config: SiteConfig, profiles: [Profile], posts loaded: [LoadedPost],
                        parallel: Parallel = Parallel(jobs: 1)) -> Site {
        // Newest first, then by key. Keys are unique, so this order is total and sorting positions
        // gives the same order as sorting the posts; it spares building a key for each comparison
        // and moving whole posts around.
        let keys = loaded.map(\.post.key)
        let (order, spellings) = parallel.both({
            let instants = loaded.map(\.post.date.instant)
            return loaded.indices.sorted { a, b in
                instants[a] != instants[b] ? instants[a] > instants[b] : keys[a] > keys[b]
            }
        }, { spellingCounts(loaded.flatMap(\.tagSpellings) + profiles.flatMap(\.bio.tags)) })
        let posts = order.map { loaded[$0].post }
        let tags = hashtags(posts: posts, keys: order.map { keys[$0] }, spellings: spellings)
        // A tag no published post carries (one only a bio or a draft names) has no page: a bio's
        // #hashtag of it stays text.
        let tagKeys = Set(tags.map(\.key))
        let users = profiles.sorted { $0.handle < $1.handle }.map { profile in
            var profile = profile
            for spelling in profile.bio.tags where !tagKeys.contains(TagKey.key(for: spelling)) {
                profile.bio.html = InternalLink.unlink(profile.bio.html, path: SitePaths.tag(TagKey.key(for: spelling)))
            }
            return profile
        }
        return Site(config: config, users: users, posts: posts, tags: tags, parallel: parallel)
    }

    /// How often each spelling of each tag is written, by tag key: each spelling counted first,
    /// then keyed once (a site writes the same few hundred tags over and over: 30,000 spellings at
    /// 10,000 posts).
    static func spellingCounts(_ spellings: [String]) -> [String: [String: Int]] {
        var bySpelling: [String: Int] = [:]
        for spelling in spellings { bySpelling[spelling, default: 0] += 1 }
        var counts: [String: [String: Int]] = [:]
        for (spelling, count) in bySpelling {
            counts[TagKey.key(for: spelling), default: [:]][TagKey.precomposed(spelling), default: 0] += count
        }
        return counts
    }

    /// Groups tags by key; each shows its most used spelling (ties: the smallest in code-point order).
    /// Only tags some post carries are kept (a bio's spelling still counts for the display).
    /// - Parameters:
    ///   - keys: `posts.map(\.key)`.
    ///   - spellings: `spellingCounts` of the posts' and bios' spellings.
    static func hashtags(posts: [Post], keys: [String], spellings counts: [String: [String: Int]]) -> [Hashtag] {
        // Each tag's posts, keys and places, in lists found by one look-up per tag of a post.
        var slots: [String: Int] = [:]
        var postKeys: [[String]] = [], postIndexes: [[Int]] = []
        for (index, (post, postKey)) in zip(posts, keys).enumerated() {
            for key in post.tagKeys {
                if let slot = slots[key] {
                    postKeys[slot].append(postKey)
                    postIndexes[slot].append(index)
                } else {
                    slots[key] = postKeys.count
                    postKeys.append([postKey])
                    postIndexes.append([index])
                }
            }
        }
        return counts.keys.sorted().compactMap { key in
            guard let slot = slots[key] else { return nil }
            let display = counts[key, default: [:]].max { a, b in
                a.value != b.value ? a.value < b.value : a.key > b.key
            }?.key ?? key
            return Hashtag(key: key, display: display, postKeys: postKeys[slot], postIndexes: postIndexes[slot])
        }
    }
}
