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
    public let postsByKey: [String: Post]
    public let tagsByKey: [String: Hashtag]
    /// Handles following each user, sorted.
    public let followers: [String: [String]]
    /// Posts by each user.
    public let postCounts: [String: Int]

    public init(config: SiteConfig, users: [Profile], posts: [Post], tags: [Hashtag]) {
        self.config = config
        self.users = users
        self.posts = posts
        self.tags = tags
        usersByHandle = Dictionary(users.map { ($0.handle, $0) }, uniquingKeysWith: { a, _ in a })
        postsByKey = Dictionary(posts.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        tagsByKey = Dictionary(tags.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        var followers: [String: [String]] = [:]
        for user in users {
            for followed in user.following { followers[followed, default: []].append(user.handle) }
        }
        self.followers = followers.mapValues { $0.sorted() }
        var counts: [String: Int] = [:]
        for post in posts { counts[post.author, default: 0] += 1 }
        postCounts = counts
    }

    public func posts(by handle: String) -> [Post] { posts.filter { $0.author == handle } }
}
