import GramgenCore

/// Pages that list people rather than posts: the people directory and each post's likers.
extension PageSet {
    /// `explore/people/` (+ `page/N/`): every user with avatar, name, counts and the start of the
    /// bio, by handle: the way to find someone without script.
    mutating func addPeople() {
        let users = site.users.map(\.handle)
        let counts = users.map { "\($0) \(site.postCounts[$0] ?? 0)" }.joined(separator: " ")
        addPages(users, size: Self.peoplePageSize, folder: SitePaths.people, template: "users",
                 inputs: { _, total in .posts([], counts, total) }) { [renderer, site] handles, path, number, pagination in
            var view = renderer.layout(path: path, title: "People" + Self.pageSuffix(number),
                                       description: "Everyone on \(site.config.title)", nav: "explore")
            view.heading = "Explore"
            view.subnav = Self.exploreTabs(root: view.root, current: "people")
            let factory = renderer.views(for: path)
            view.people = .of(handles.map { factory.person($0, details: true) })
            view.pagination = pagination(view.root)
            if handles.isEmpty { view.empty = "No users yet." }
            return view
        }
    }

    /// `search/` and its index: users, hashtags and posts, searched in the browser.
    mutating func addSearch() {
        add("search", path: SitePaths.search, inputs: .everything) { [renderer, site] in
            var view = renderer.layout(path: SitePaths.search, title: "Search",
                                       description: "Search people, hashtags and posts on \(site.config.title)", nav: "search")
            view.heading = "Search"
            return view
        }
        let index = SearchIndex(site: site, images: renderer.images, formats: site.config.images.formats)
        for (path, contents) in index.files() {
            addFile(path, inputs: .everything) { contents }
        }
    }

    /// The explore pages' two tabs: posts and people.
    static func exploreTabs(root: String, current: String) -> Section<TabView>? {
        .of([TabView(label: "Posts", href: root + SitePaths.explore, current: current == "posts"),
             TabView(label: "People", href: root + SitePaths.people, current: current == "people")])
    }

    /// `<handle>/p/<id>/likes/`: who liked the post, linked from "Liked by … and N others".
    mutating func addLikes(_ post: Post) {
        let folder = SitePaths.likes(post)
        addPages(post.likedBy, size: Self.peoplePageSize, folder: folder, template: "users",
                 inputs: { _, total in .posts([post], total) }) { [renderer, site] handles, path, number, pagination in
            let author = site.usersByHandle[post.author]?.name ?? post.author
            var view = renderer.layout(path: path, title: "Likes of a post by \(author)" + Self.pageSuffix(number),
                                       description: "Who liked \(author)'s post")
            view.heading = "Likes"
            let factory = renderer.views(for: path)
            view.backHref = factory.root + SitePaths.post(post)
            view.backLabel = "Back to the post by @\(post.author)"
            view.people = .of(handles.map { factory.person($0) })
            view.pagination = pagination(view.root)
            if handles.isEmpty { view.empty = "No likes yet." }
            return view
        }
    }
}
