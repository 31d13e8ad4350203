import GramgenCore

/// The profile pages: grid (paginated), list, tagged, following feed, activity and liked posts,
/// joined by tabs, and the followers and follows lists the header's counts link to.
extension PageSet {
    mutating func addProfile(_ user: Profile) {
        let handle = user.handle
        let everything = renderer.postsByAuthor[handle] ?? []
        // The grid and list hold the user's own posts; reposts have a tab of their own.
        let own = everything.filter { $0.repostOf == nil }
        let reposts = everything.filter { $0.repostOf != nil }
        let size = site.config.postsPerPage
        addPages(own, size: size, folder: SitePaths.profile(handle), inputs: { .posts($0, $1, "\(own.count)") }) { [self] posts, path, number, pagination in
            var view = profileLayout(user, path: path, tab: "posts", title: number == 1 ? "" : " · page \(number)")
            view.grid = .of(posts.map(renderer.postViews(for: path)))
            view.pagination = pagination(view.root)
            if own.isEmpty { view.empty = "No posts yet." }
            return view
        }

        addPages(own, size: size, folder: SitePaths.list(handle), inputs: { .posts($0, $1) }) { [self] posts, path, number, pagination in
            var list = profileLayout(user, path: path, tab: "list", title: " · all posts" + Self.pageSuffix(number))
            list.posts = .of(posts.map(renderer.postViews(for: path)))
            list.pagination = pagination(list.root)
            if own.isEmpty { list.empty = "No posts yet." }
            return list
        }

        addGridTab(renderer.postsMentioning[handle] ?? [], user: user, tab: "tagged", folder: SitePaths.tagged(handle),
                   empty: "No posts mention @\(handle) yet.")

        let followed = Set(user.following + [handle])
        let feed = site.posts.filter { followed.contains($0.author) }
        addPages(feed, size: size, folder: SitePaths.following(handle), inputs: { .posts($0, $1, "\(own.count)") }) { [self] posts, path, number, pagination in
            var following = profileLayout(user, path: path, tab: "following", title: " · feed" + Self.pageSuffix(number))
            following.posts = .of(posts.map(renderer.postViews(for: path)))
            following.pagination = pagination(following.root)
            if feed.isEmpty { following.empty = "Nothing here yet." }
            return following
        }

        let events = renderer.activities[handle] ?? []
        addPages(events, size: Self.activityPageSize, folder: SitePaths.activity(handle), inputs: { _, _ in .everything }) { [self] events, path, number, pagination in
            var activity = profileLayout(user, path: path, tab: "activity", title: " · activity" + Self.pageSuffix(number))
            let factory = renderer.views(for: path)
            activity.activity = .of(events.map { $0.view(factory) })
            activity.pagination = pagination(activity.root)
            if activity.activity == nil { activity.empty = "No activity yet." }
            return activity
        }

        addGridTab(reposts, user: user, tab: "reposts", folder: SitePaths.reposts(handle),
                   empty: "@\(handle) has not reposted anything yet.")
        addGridTab(renderer.postsLikedBy[handle] ?? [], user: user, tab: "liked", folder: SitePaths.liked(handle),
                   empty: "@\(handle) has not liked any posts yet.")

        // Followers, marked when the user follows them back; follows, marked when they follow back.
        let followers = site.followers[handle] ?? []
        let follows = Set(user.following)
        addPeople(followers, folder: SitePaths.followers(handle), user: user, title: "followers",
                  empty: "No followers yet.") { follows.contains($0) ? "Mutual" : nil }
        let followerSet = Set(followers)
        addPeople(user.following, folder: SitePaths.follows(handle), user: user, title: "following",
                  empty: "@\(handle) follows no one yet.") { followerSet.contains($0) ? "Follows you" : nil }
    }

    /// A profile tab drawn as a grid of posts (tagged, liked, reposts), `posts_per_page` a page.
    private mutating func addGridTab(_ posts: [Post], user: Profile, tab: String, folder: String, empty: String) {
        let count = "\(site.postCounts[user.handle] ?? 0)"
        addPages(posts, size: site.config.postsPerPage, folder: folder, inputs: { .posts($0, $1, count) }) { [self] items, path, number, pagination in
            var view = profileLayout(user, path: path, tab: tab, title: " · \(tab)" + Self.pageSuffix(number))
            view.grid = .of(items.map(renderer.postViews(for: path)))
            view.pagination = pagination(view.root)
            if posts.isEmpty { view.empty = empty }
            return view
        }
    }

    /// A paginated list of users below a profile's header.
    private mutating func addPeople(_ handles: [String], folder: String, user: Profile, title: String, empty: String,
                                    mark: @escaping (String) -> String?) {
        let counts = "\(site.postCounts[user.handle] ?? 0)"
        addPages(handles, size: Self.peoplePageSize, folder: folder, inputs: { _, total in .posts([], counts, total) }) { [self] handles, path, number, pagination in
            var view = profileLayout(user, path: path, tab: "", title: " · \(title)" + Self.pageSuffix(number))
            view.heading = title.prefix(1).uppercased() + title.dropFirst()
            let factory = renderer.views(for: path)
            view.people = .of(handles.map { factory.person($0, mark: mark($0)) })
            view.pagination = pagination(view.root)
            if handles.isEmpty { view.empty = empty }
            return view
        }
    }

    /// Events on one page of the activity tab.
    static let activityPageSize = 50
    /// Users on one page of a list of people.
    static let peoplePageSize = 50

    static func pageSuffix(_ number: Int) -> String { number == 1 ? "" : " · page \(number)" }

    /// Queues `folder` and its `page/N/` pages, `size` items each (one empty page when there are
    /// none). `page` gets the items, the page's path, its number, and the pagination view for a root.
    mutating func addPages<Item>(
        _ items: [Item], size: Int, folder: String, template: String = "profile", inputs: ([Item], String) -> PageInputs,
        page: @escaping ([Item], String, Int, (String) -> PaginationView?) -> PageView
    ) {
        let pages = SiteRenderer.paginate(items, size: size)
        for (index, items) in pages.enumerated() {
            let number = index + 1, path = SitePaths.paged(folder, number), total = pages.count
            add(template, path: path, inputs: inputs(items, "\(total)")) {
                page(items, path, number) { root in
                    SiteRenderer.pagination(current: number, total: total, root: root) { SitePaths.paged(folder, $0) }
                }
            }
        }
    }

    private func profileLayout(_ user: Profile, path: String, tab: String, title: String) -> PageView {
        let handle = user.handle
        var view = renderer.layout(
            path: path, title: "\(user.name) (@\(handle))\(title)",
            description: user.bio.plainText.isEmpty ? "Photos by \(user.name)" : user.bio.plainText,
            extraFeeds: [FeedLinkView(href: SitePaths.jsonFeed(SitePaths.profile(handle)), type: "application/feed+json",
                                      title: "\(user.name) (JSON Feed)")])
        let factory = renderer.views(for: path)
        var header = ProfileHeaderView(
            user: factory.user(handle), bioHTML: InternalLink.resolve(user.bio.html, root: view.root),
            website: user.website, websiteLabel: user.website.map(Self.websiteLabel), location: user.location,
            postCount: site.postCounts[handle] ?? 0, followerCount: site.followers[handle]?.count ?? 0,
            followingCount: user.following.count, feedHref: view.root + SitePaths.jsonFeed(SitePaths.profile(handle)),
            followersHref: view.root + SitePaths.followers(handle), followsHref: view.root + SitePaths.follows(handle))
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
            ("activity", "Activity", SitePaths.activity(handle)), ("liked", "Liked", SitePaths.liked(handle)),
            ("reposts", "Reposts", SitePaths.reposts(handle)),
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
