/// The resolved site: every user, post and tag, cross-referenced and validated. Input to rendering.
public struct Site: Sendable {
    public var config: SiteConfig
    /// Sorted by handle.
    public var users: [Profile]
    /// Newest first; drafts only when the build asked for them.
    public var posts: [Post]
    /// Sorted by key.
    public var tags: [Hashtag]

    public let usersByHandle: [String: Profile]
    /// Each post's place in `posts`, by key (the first, should two share one).
    public let postIndexByKey: [String: Int]
    /// The posts by key: `posts` seen through `postIndexByKey`, not a second table of them.
    public var postsByKey: PostsByKey { PostsByKey(posts: posts, indexes: postIndexByKey) }
    public let tagsByKey: [String: Hashtag]
    /// Handles following each user, sorted.
    public let followers: [String: [String]]
    /// Posts by each user, reposts not counted.
    public let postCounts: [String: Int]
    /// The reposts of each post, by key, newest first.
    public let reposts: [String: [String]]

    /// `parallel`: the posts' places are found beside the other tables (a build's, on one thread
    /// while the other core waits: a few milliseconds each at 10,000 posts).
    public init(config: SiteConfig, users: [Profile], posts: [Post], tags: [Hashtag], parallel: Parallel = Parallel(jobs: 1)) {
        self.config = config
        self.users = users
        self.posts = posts
        let (indexes, others) = parallel.both({ () -> [String: Int] in
            var indexes: [String: Int] = [:]
            indexes.reserveCapacity(posts.count)
            for (index, post) in posts.enumerated() where indexes[post.key] == nil { indexes[post.key] = index }
            return indexes
        }, { () -> (counts: [String: Int], reposts: [String: [String]], followers: [String: [String]]) in
            var counts: [String: Int] = [:]
            var reposts: [String: [String]] = [:]
            for post in posts {
                if let original = post.repostOf {
                    reposts[original, default: []].append(post.key)
                } else {
                    counts[post.author, default: 0] += 1
                }
            }
            var followers: [String: [String]] = [:]
            for user in users {
                for followed in user.following { followers[followed, default: []].append(user.handle) }
            }
            return (counts, reposts, followers.mapValues { $0.sorted() })
        })
        usersByHandle = Dictionary(users.map { ($0.handle, $0) }, uniquingKeysWith: { a, _ in a })
        postIndexByKey = indexes
        // A tag made without its posts' places (or with others) is given them by key.
        let tags = tags.map { tag in
            guard tag.postIndexes.count != tag.postKeys.count
                    || zip(tag.postIndexes, tag.postKeys).contains(where: { $0 >= posts.count || posts[$0].key != $1 }) else { return tag }
            var placed = tag
            placed.postIndexes = tag.postKeys.compactMap { indexes[$0] }
            placed.postKeys = placed.postIndexes.map { posts[$0].key }
            return placed
        }
        self.tags = tags
        tagsByKey = Dictionary(tags.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        followers = others.followers
        postCounts = others.counts
        reposts = others.reposts
    }

    public func posts(by handle: String) -> [Post] { posts.filter { $0.author == handle } }

    /// The post whose media a post shows: the original of a repost, else itself.
    public func mediaPost(_ post: Post) -> Post {
        post.repostOf.flatMap { postsByKey[$0] } ?? post
    }

    /// Whether a post must be shown behind a cover: it, or the post it reposts, is sensitive.
    public func isSensitive(_ post: Post) -> Bool {
        post.isSensitive || mediaPost(post).isSensitive
    }
}

extension Site {
    /// What the site's icons (favicon, home-screen icon) are made from: `content/logo.*`, else the
    /// avatar of the user with the most posts (the first handle of those with as many); nil when
    /// there is neither.
    public var iconSource: ImageSource? {
        if let logo = config.logo { return logo }
        return users.filter { $0.avatar != nil }.max { a, b in
            let (countA, countB) = (postCounts[a.handle] ?? 0, postCounts[b.handle] ?? 0)
            return countA != countB ? countA < countB : a.handle > b.handle
        }?.avatar
    }
}

/// `Site.postsByKey`: a post by its key.
public struct PostsByKey: Sendable {
    let posts: [Post]
    let indexes: [String: Int]

    public subscript(key: String) -> Post? { indexes[key].map { posts[$0] } }
}
