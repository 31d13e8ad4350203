import GramgenCore

/// The profile pages: grid (paginated), list, tagged, following feed and activity, joined by tabs.
extension PageSet {
    mutating func addProfile(_ user: Profile) {
        let handle = user.handle
        let own = renderer.postsByAuthor[handle] ?? []
        let pages = SiteRenderer.paginate(own, size: site.config.postsPerPage)
        for (index, posts) in pages.enumerated() {
            let number = index + 1
            let path = SitePaths.profile(handle, page: number)
            add("profile", path: path, inputs: .posts(posts, "\(pages.count)", "\(own.count)")) { [self] in
                var view = profileLayout(user, path: path, tab: "posts", title: number == 1 ? "" : " · page \(number)")
                view.grid = .of(posts.map(renderer.postViews(for: path)))
                view.pagination = SiteRenderer.pagination(current: number, total: pages.count, root: view.root) {
                    SitePaths.profile(handle, page: $0)
                }
                if own.isEmpty { view.empty = "No posts yet." }
                return view
            }
        }

        let listPath = SitePaths.list(handle)
        add("profile", path: listPath, inputs: .posts(own)) { [self] in
            var list = profileLayout(user, path: listPath, tab: "list", title: " · all posts")
            list.posts = .of(own.map(renderer.postViews(for: listPath)))
            if own.isEmpty { list.empty = "No posts yet." }
            return list
        }

        let taggedPath = SitePaths.tagged(handle)
        let mentioning = renderer.postsMentioning[handle] ?? []
        add("profile", path: taggedPath, inputs: .posts(mentioning, "\(own.count)")) { [self] in
            var tagged = profileLayout(user, path: taggedPath, tab: "tagged", title: " · tagged")
            tagged.grid = .of(mentioning.map(renderer.postViews(for: taggedPath)))
            if mentioning.isEmpty { tagged.empty = "No posts mention @\(handle) yet." }
            return tagged
        }

        let followingPath = SitePaths.following(handle)
        let followed = Set(user.following + [handle])
        let feed = Array(site.posts.lazy.filter { followed.contains($0.author) }.prefix(Self.followingFeedLimit))
        add("profile", path: followingPath, inputs: .posts(feed, "\(own.count)")) { [self] in
            var following = profileLayout(user, path: followingPath, tab: "following", title: " · feed")
            following.posts = .of(feed.map(renderer.postViews(for: followingPath)))
            if feed.isEmpty { following.empty = "Nothing here yet." }
            return following
        }

        let activityPath = SitePaths.activity(handle)
        add("profile", path: activityPath, inputs: .everything) { [self] in
            var activity = profileLayout(user, path: activityPath, tab: "activity", title: " · activity")
            let factory = renderer.views(for: activityPath)
            activity.activity = .of((renderer.activities[handle] ?? []).prefix(Self.activityLimit).map { $0.view(factory) })
            if activity.activity == nil { activity.empty = "No activity yet." }
            return activity
        }
    }

    /// A user's feed shows the newest posts of the people they follow; older ones are on the profiles.
    static let followingFeedLimit = 60
    /// The activity page lists the newest events.
    static let activityLimit = 200

    private func profileLayout(_ user: Profile, path: String, tab: String, title: String) -> PageView {
        let handle = user.handle
        var view = renderer.layout(
            path: path, title: "\(user.name) (@\(handle))\(title)",
            description: user.bio.plainText.isEmpty ? "Photos by \(user.name)" : user.bio.plainText,
            extraFeeds: [FeedLinkView(href: "\(handle)/feed.json", type: "application/feed+json",
                                      title: "\(user.name) (JSON Feed)")])
        let factory = renderer.views(for: path)
        var header = ProfileHeaderView(
            user: factory.user(handle), bioHTML: InternalLink.resolve(user.bio.html, root: view.root),
            website: user.website, websiteLabel: user.website.map(Self.websiteLabel), location: user.location,
            postCount: renderer.postsByAuthor[handle]?.count ?? 0, followerCount: site.followers[handle]?.count ?? 0,
            followingCount: user.following.count, feedHref: view.root + "\(handle)/feed.json")
        if let avatar = user.avatar.flatMap({ renderer.images[$0.path] }) {
            header.user = UserView(handle: handle, name: user.name, href: header.user.href,
                                   avatar: ImageView(square: avatar, alt: user.avatar?.alt ?? "", root: view.root,
                                                     sizes: "(min-width: 640px) 150px, 88px", formats: factory.formats),
                                   initial: header.user.initial)
        }
        view.profile = header
        let tabs: [(String, String, String)] = [
            ("posts", "Posts", SitePaths.profile(handle)), ("list", "List", SitePaths.list(handle)),
            ("tagged", "Tagged", SitePaths.tagged(handle)), ("following", "Feed", SitePaths.following(handle)),
            ("activity", "Activity", SitePaths.activity(handle)),
        ]
        view.tabs = tabs.map { TabView(label: $0.1, href: view.root + $0.2, current: $0.0 == tab) }
        return view
    }

    /// `https://www.example.com/me/` → `example.com/me`.
    static func websiteLabel(_ url: String) -> String {
        var text = url
        for prefix in ["https://", "http://", "www."] where text.lowercased().hasPrefix(prefix) {
            text = String(text.dropFirst(prefix.count))
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}
