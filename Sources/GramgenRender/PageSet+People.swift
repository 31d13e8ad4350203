import GramgenCore

/// Pages that list people rather than posts: the people directory and each post's likers.
extension PageSet {
    /// `explore/people/` (+ `page/N/`): every user with avatar, name, counts and the start of the
    /// bio, by handle: the way to find someone without script.
    mutating func addPeople() {
        let users = site.users.map(\.handle)
        let counts = users.map { "\($0) \(site.postCounts[$0] ?? 0)" }.joined(separator: " ")
        addPages(users, size: Self.peoplePageSize, folder: SitePaths.people, template: "users",
                 inputs: { handles, total in .posts([], counts, total).showing(handles) }) { [renderer] handles, path, number, pagination in
            let site = renderer.site
            let t = renderer.messages
            let view = renderer.layout(path: path, title: t.text("people") + t.pageSuffix(number),
                                       description: t.text("people_description", ["site": site.config.title]), nav: "people")
            view.heading = t.text("explore")
            view.subnav = Self.exploreTabs(root: view.root, current: "people", messages: t)
            let factory = renderer.views(for: path)
            view.people = .of(handles.map { factory.person($0, details: true) })
            view.pagination = pagination(view.root)
            if handles.isEmpty { view.empty = t.text("empty_users") }
            return view
        }
    }

    /// `search/` and its index: users, hashtags and posts, searched in the browser.
    mutating func addSearch(_ made: SiteRenderer.MadeSearch?) {
        add("search", path: SitePaths.search, inputs: .everything) { [renderer] in
            let site = renderer.site
            let t = renderer.messages
            let view = renderer.layout(path: SitePaths.search, title: t.text("search"),
                                       description: t.text("search_description", ["site": site.config.title]), nav: "search")
            view.heading = t.text("search")
            view.searchTexts = t.json(["search_people", "search_hashtags", "search_posts", "search_more", "search_results",
                                       "search_none", "search_unavailable"])
            view.searchNoscriptHTML = t.html("search_noscript", [
                "people": ViewFactory.link(view.root + SitePaths.people, t.text("people_directory")),
                "tags": ViewFactory.link(view.root + SitePaths.tags, t.text("hashtags_index"))])
            return view
        }
        guard let (index, words) = made else { return }
        // The version changes with any file of the index: with the bytes of the word files, and
        // with what each document file is made from (`SearchIndex.addVersion`), so that a
        // document file taken over unchanged is never made to tell.
        var version = DigestBuilder()
        for (path, contents) in words {
            version.add(contents)
            addFile(path, inputs: .everything) { contents }
        }
        for chunk in index.chunks {
            index.addVersion(of: chunk, digests: digests, to: &version)
            addFile(chunk.path, inputs: index.inputs(of: chunk)) { index.contents(of: chunk) }
        }
        let meta = index.meta(version: version, shards: words.count)
        addFile(SitePaths.searchMeta, inputs: .everything) { meta }
    }

    /// The explore pages' two tabs: posts and people.
    static func exploreTabs(root: String, current: String, messages: Messages) -> Section<TabView>? {
        .of([TabView(label: messages.text("tab_posts"), href: root + SitePaths.explore, current: current == "posts"),
             TabView(label: messages.text("people"), href: root + SitePaths.people, current: current == "people")])
    }

    /// `<handle>/p/<id>/likes/`: who liked the post, linked from "Liked by … and N others".
    mutating func addLikes(_ post: Post) {
        let folder = SitePaths.likes(post)
        addPages(post.likedBy, size: Self.peoplePageSize, folder: folder, template: "users",
                 inputs: { _, total in .posts([post], total) }) { [renderer] handles, path, number, pagination in
            let site = renderer.site
            let author = site.usersByHandle[post.author]?.name ?? post.author
            let t = renderer.messages
            let view = renderer.layout(path: path, title: t.text("likes_title", ["author": author]) + t.pageSuffix(number),
                                       description: t.text("likes_description", ["author": author]))
            view.heading = t.text("likes")
            let factory = renderer.views(for: path)
            view.backHref = factory.root + SitePaths.post(post)
            view.backLabel = t.text("likes_back", ["author": post.author])
            view.people = .of(handles.map { factory.person($0) })
            view.pagination = pagination(view.root)
            if handles.isEmpty { view.empty = t.text("empty_likes") }
            return view
        }
    }
}
