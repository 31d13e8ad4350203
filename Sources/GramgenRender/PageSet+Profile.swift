import GramgenCore

/// The profile pages: grid (paginated), list, tagged, following feed, activity and liked posts,
/// joined by tabs, and the followers and follows lists the header's counts link to.
extension PageSet {
    mutating func addProfile(_ user: Profile) {
        let handle = user.handle
        let t = renderer.messages
        let everything = renderer.postsByAuthor[handle] ?? []
        // The grid and list hold the user's own posts; reposts have a tab of their own.
        let own = everything.filter { $0.repostOf == nil }
        let reposts = everything.filter { $0.repostOf != nil }
        let size = site.config.postsPerPage
        addPages(own, size: size, folder: SitePaths.profile(handle), inputs: { .posts($0, $1, "\(own.count)").showing([handle]) }) { [renderer] posts, path, number, pagination in
            let view = renderer.profileLayout(user, path: path, tab: "posts", title: t.pageSuffix(number))
            view.grid = renderer.tiles(posts, for: path)
            view.pagination = pagination(view.root)
            if own.isEmpty { view.empty = t.text("empty_posts") }
            return view
        }

        // The list and the following feed are drawn later, across the users (`addCardTabs`).

        addGridTab(renderer.postsMentioning[handle] ?? [], user: user, tab: "tagged", folder: SitePaths.tagged(handle),
                   empty: t.text("empty_tagged", ["handle": handle]))

        let events = renderer.activities[handle] ?? []
        addPages(events, size: Self.activityPageSize, folder: SitePaths.activity(handle),
                 inputs: { [site] events, total in Activity.inputs(events, site: site, notes: [total, "\(own.count)"]).showing([handle]) }) { [renderer] events, path, number, pagination in
            let activity = renderer.profileLayout(user, path: path, tab: "activity", title: " · " + t.text("title_activity") + t.pageSuffix(number))
            let factory = renderer.views(for: path)
            activity.activity = .of(events.map { $0.view(factory, owner: handle) })
            activity.pagination = pagination(activity.root)
            if activity.activity == nil { activity.empty = t.text("empty_activity") }
            return activity
        }

        addGridTab(reposts, user: user, tab: "reposts", folder: SitePaths.reposts(handle),
                   empty: t.text("empty_reposts", ["handle": handle]))
        addGridTab(renderer.postsLikedBy[handle] ?? [], user: user, tab: "liked", folder: SitePaths.liked(handle),
                   empty: t.text("empty_liked", ["handle": handle]))

        // Followers, marked when the user follows them back; follows, marked when they follow back.
        let followers = site.followers[handle] ?? []
        let follows = Set(user.following)
        let mutual = t.text("mutual"), followsYou = t.text("follows_you")
        addPeople(followers, folder: SitePaths.followers(handle), user: user, title: "followers",
                  empty: t.text("empty_followers")) { follows.contains($0) ? mutual : nil }
        let followerSet = Set(followers)
        addPeople(user.following, folder: SitePaths.follows(handle), user: user, title: "following",
                  empty: t.text("empty_following", ["handle": handle])) { followerSet.contains($0) ? followsYou : nil }
    }

    /// A user's profile pages (`addProfile`) as a group (`addGroup`), taken over whole when
    /// nothing any of them shows changed: after a caption edit, those of the users the post
    /// shows on (its author's, whom it mentions, who liked it) are queued, not the 3,000 pages
    /// of the others (at 10,000 posts). Its inputs: what each of its pages reads (the site, the
    /// user's profile and post count, their posts and reposts, the posts that mention them and
    /// those they liked, their activity's events and posts), which also make its pages.
    mutating func addProfileGroup(_ user: Profile, sink: PageSink) {
        guard let digests else { return addProfile(user) }
        let handle = user.handle, name = PageGroupKind.profile.name(handle)
        var inputs = Self.userGroupInputs(digests, name: name, handle: handle, site: site)
        func add(_ posts: [Post]) {
            inputs.add(UInt64(posts.count))
            for post in posts { inputs.add(digests.digest(of: post)) }
        }
        add(renderer.postsByAuthor[handle] ?? [])
        add(renderer.postsMentioning[handle] ?? [])
        add(renderer.postsLikedBy[handle] ?? [])
        let events = Activity.inputs(renderer.activities[handle] ?? [], site: site, notes: [])
        for note in events.notes { inputs.add(note) }
        if case .posts(let posts) = events.scope { add(posts) }
        addGroup(name, inputs: inputs.value, sink: sink) { $0.addProfile(user) }
    }

    /// What every page of a user's group reads first: the site-wide inputs, the user's profile
    /// details and post count; with the group's name.
    private static func userGroupInputs(_ digests: PageDigests, name: String, handle: String, site: Site) -> DigestBuilder {
        var inputs = DigestBuilder()
        inputs.add(digests.site)
        inputs.add(name)
        inputs.add(digests.profiles[handle] ?? 0)
        inputs.add(UInt64(site.postCounts[handle] ?? 0))
        return inputs
    }

    /// A profile tab drawn as a grid of posts (tagged, liked, reposts), `posts_per_page` a page.
    private mutating func addGridTab(_ posts: [Post], user: Profile, tab: String, folder: String, empty: String) {
        let count = "\(site.postCounts[user.handle] ?? 0)"
        addPages(posts, size: site.config.postsPerPage, folder: folder, inputs: { .posts($0, $1, count).showing([user.handle]) }) { [renderer] items, path, number, pagination in
            let view = renderer.profileLayout(user, path: path, tab: tab, title: " · " + renderer.messages.text("title_" + tab) + renderer.messages.pageSuffix(number))
            view.grid = renderer.tiles(items, for: path)
            view.pagination = pagination(view.root)
            if posts.isEmpty { view.empty = empty }
            return view
        }
    }

    /// A paginated list of users below a profile's header.
    private mutating func addPeople(_ handles: [String], folder: String, user: Profile, title: String, empty: String,
                                    mark: @escaping (String) -> String?) {
        let counts = "\(site.postCounts[user.handle] ?? 0)"
        addPages(handles, size: Self.peoplePageSize, folder: folder, inputs: { _, total in .posts([], counts, total).showing([user.handle]) }) { [renderer] handles, path, number, pagination in
            let t = renderer.messages
            let view = renderer.profileLayout(user, path: path, tab: "", title: " · " + t.text("title_" + title) + t.pageSuffix(number))
            view.heading = t.text(title + "_heading")
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


    /// Queues `folder` and its `page/N/` pages, `size` items each (one empty page when there are
    /// none). `page` gets the items, the page's path, its number, and the pagination view for a root.
    mutating func addPages<Item>(
        _ items: [Item], size: Int, folder: String, template: String = "profile", inputs: ([Item], String) -> PageInputs,
        page: @escaping ([Item], String, Int, (String) -> PaginationView?) -> PageView
    ) {
        let pages = SiteRenderer.paginate(items, size: size)
        for (index, items) in pages.enumerated() {
            addPage(items, number: index + 1, of: pages.count, folder: folder, template: template, inputs: inputs, page: page)
        }
    }

    /// Queues page `number` of `total` of `folder` (see `addPages`).
    /// `inSitemap`: false when the caller lists the page in the sitemap itself.
    mutating func addPage<Item>(
        _ items: [Item], number: Int, of total: Int, folder: String, template: String = "profile", inSitemap: Bool = true,
        inputs: ([Item], String) -> PageInputs, page: @escaping ([Item], String, Int, (String) -> PaginationView?) -> PageView
    ) {
        let path = SitePaths.paged(folder, number)
        add(template, path: path, inSitemap: inSitemap, page: number, inputs: inputs(items, "\(total)")) { [renderer] in
            page(items, path, number) { root in
                renderer.pagination(current: number, total: total, root: root) { SitePaths.paged(folder, $0) }
            }
        }
    }

    /// The pages drawn as cards: the home feed's, and every user's list and following feed (the
    /// two profile tabs of cards), page by page in the order of the newest post each page shows,
    /// across the users. A post's card is the same on every page (its links' root written in as
    /// it is placed), and the pages that show a post show it near each other in this order (the
    /// home feed, its author's list, its author's followers' feeds: all newest first), so it is
    /// drawn for the first of them and copied for the others while a one-off build still keeps
    /// it (`FragmentMemo`). User by user, the same card came back a whole feed of pages later for
    /// each follower, long dropped on a big site: at 50,000 posts, 7.8 cards drawn a post instead
    /// of 2.4 (a simulation of the memo over the benchmark's corpus). The home feed drawn in a
    /// run of its own before the others, as it was, left its cards for them on a 10,000-post site,
    /// whose cards the memo holds whole, and not on a larger one: at 50,000 posts each card was
    /// drawn twice, once for the home feed and again for the tabs (`bench/results/scale.md`).
    /// Each list is held as places in `site.posts` (a site's feeds, as posts, would hold
    /// hundreds of megabytes at 100,000 posts).
    mutating func addCardTabs(into sink: PageSink) throws {
        let size = site.config.postsPerPage
        struct Tab {
            let user: Profile
            let name: String
            let folder: String
            let posts: [Int]
            /// The texts of its title and of its empty state.
            let title: String
            let empty: String
        }
        let tabs = site.users.flatMap { user in
            [Tab(user: user, name: "list", folder: SitePaths.list(user.handle),
                 posts: (renderer.postIndexesByAuthor[user.handle] ?? []).filter { site.posts[$0].repostOf == nil },
                 title: "title_list", empty: "empty_posts"),
             Tab(user: user, name: "following", folder: SitePaths.following(user.handle), posts: renderer.feedIndexes(user),
                 title: "title_feed", empty: "empty_feed")]
        }
        // A tab whose inputs are all as the last build's is taken over whole, its pages neither
        // queued nor digested one by one (`addGroup`): after a caption edit, only the tabs that
        // show the post are queued (its author's list, its author's followers' feeds), not the
        // 4,000 pages of the others (at 10,000 posts). Its inputs: what each of its pages reads
        // (the site, the user's profile and post count, the tab's posts, which make its pages).
        // Each tab's pages are listed in the sitemap here, in the tabs' order, taken over or not.
        let queued = renderer.parallel.map(count: tabs.count) { [digests] index -> Bool in
            let tab = tabs[index], handle = tab.user.handle
            guard let digests else { return true }
            let name = PageGroupKind.tab.name(tab.folder)
            var inputs = Self.userGroupInputs(digests, name: name, handle: handle, site: site)
            inputs.add(UInt64(tab.posts.count))
            for place in tab.posts { inputs.add(digests.digest(at: place)) }
            guard sink.takeOverGroup(name, inputs: inputs.value) == nil else { return false }
            let paths = Self.tabPaths(tab.folder, count: tab.posts.count, size: size)
            sink.queuedGroup(name, inputs: inputs.value, files: paths.map(SitePaths.file), sitemap: paths)
            return true
        }
        for tab in tabs { sitemapPaths += Self.tabPaths(tab.folder, count: tab.posts.count, size: size) }
        // The home feed's pages, as tab -1: each taken over or drawn on its own (`draw`).
        let homePages = SiteRenderer.pageCount(site.posts.count, size: size)
        sitemapPaths += (1...homePages).map(SitePaths.home(page:))
        var pages: [(newest: Int, tab: Int, number: Int)] = (1...homePages).map { ((($0 - 1) * size), -1, $0) }
        for (index, tab) in tabs.enumerated() where queued[index] {
            for number in 1...SiteRenderer.pageCount(tab.posts.count, size: size) {
                let start = (number - 1) * size
                pages.append((start < tab.posts.count ? tab.posts[start] : -1, index, number))
            }
        }
        pages.sort { ($0.newest, $0.tab, $0.number) < ($1.newest, $1.tab, $1.number) }
        try addEach(pages, into: sink) { [renderer, site] set, page in
            guard page.tab >= 0 else { return set.addHomePage(page.number, of: homePages) }
            let tab = tabs[page.tab], user = tab.user, handle = user.handle
            let start = (page.number - 1) * size
            let posts = tab.posts[start..<min(start + size, tab.posts.count)].map { site.posts[$0] }
            let count = "\(site.postCounts[handle] ?? 0)"
            set.addPage(posts, number: page.number, of: SiteRenderer.pageCount(tab.posts.count, size: size), folder: tab.folder,
                        inSitemap: false, inputs: { .posts($0, $1, count).showing([handle]) }) { posts, path, number, pagination in
                let t = renderer.messages
                let view = renderer.profileLayout(user, path: path, tab: tab.name, title: " · " + t.text(tab.title) + t.pageSuffix(number))
                view.posts = renderer.cards(posts, for: path)
                view.pagination = pagination(view.root)
                if tab.posts.isEmpty { view.empty = t.text(tab.empty) }
                return view
            }
        }
    }

    /// The paths of a card tab's pages: `folder` and its `page/N/`, `size` posts each (one page
    /// when it has none).
    static func tabPaths(_ folder: String, count: Int, size: Int) -> [String] {
        (1...SiteRenderer.pageCount(count, size: size)).map { SitePaths.paged(folder, $0) }
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

extension SiteRenderer {
    /// The header and tabs every profile page has. A method of the renderer, not of `PageSet`: a
    /// page's closure that captured the page set would hold a copy of its job list, and every job
    /// added after it would copy the whole list again (memory and time growing with the square of
    /// the site).
    func profileLayout(_ user: Profile, path: String, tab: String, title: String) -> PageView {
        let handle = user.handle
        let view = layout(
            path: path, title: "\(user.name) (@\(handle))\(title)",
            description: user.bio.plainText.isEmpty ? messages.text("photos_by", ["name": user.name]) : user.bio.plainText,
            extraFeeds: [FeedLinkView(href: SitePaths.jsonFeed(SitePaths.profile(handle)), type: "application/feed+json",
                                      title: "\(user.name) (JSON Feed)")])
        let factory = views(for: path)
        var header = ProfileHeaderView(
            user: factory.user(handle), bioHTML: InternalLink.resolve(user.bio.html, root: view.root),
            website: user.website, websiteLabel: user.website.map(PageSet.websiteLabel), location: user.location,
            postCount: site.postCounts[handle] ?? 0, followerCount: site.followers[handle]?.count ?? 0,
            followingCount: user.following.count,
            postsHTML: messages.strongCount("profile_posts", site.postCounts[handle] ?? 0),
            followersHTML: messages.strongCount("profile_followers", site.followers[handle]?.count ?? 0),
            followingHTML: messages.strongCount("profile_following", user.following.count), feedHref: view.root + SitePaths.jsonFeed(SitePaths.profile(handle)),
            followersHref: view.root + SitePaths.followers(handle), followsHref: view.root + SitePaths.follows(handle))
        if let avatar = user.avatar.flatMap({ images[$0.path] }) {
            header.user = UserView(handle: handle, name: user.name, href: header.user.href,
                                   avatar: ImageView(square: avatar, alt: factory.avatarAlt(user), root: view.root,
                                                     sizes: "(min-width: 640px) 150px, 88px", load: .priority, formats: factory.formats),
                                   initial: header.user.initial)
        }
        view.profile = header
        let tabs: [(String, String, String)] = [
            ("posts", "tab_posts", SitePaths.profile(handle)), ("list", "tab_list", SitePaths.list(handle)),
            ("tagged", "tab_tagged", SitePaths.tagged(handle)), ("following", "tab_feed", SitePaths.following(handle)),
            ("activity", "tab_activity", SitePaths.activity(handle)), ("liked", "tab_liked", SitePaths.liked(handle)),
            ("reposts", "tab_reposts", SitePaths.reposts(handle)),
        ]
        view.tabs = tabs.map { TabView(label: messages.text($0.1), href: view.root + $0.2, current: $0.0 == tab) }
        return view
    }
}
