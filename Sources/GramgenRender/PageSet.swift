import GramgenCore

/// Collects the HTML pages of the site, one method per page kind of the spec's section 3.
struct PageSet {
    let renderer: SiteRenderer
    var files: [OutputFile] = []
    /// Pages listed in sitemap.xml (the 404 page is not).
    var sitemapPaths: [String] = []

    init(renderer: SiteRenderer) { self.renderer = renderer }

    var site: Site { renderer.site }

    mutating func add(_ template: String, _ view: PageView, path: String, inSitemap: Bool = true) throws {
        files.append(try renderer.page(template, view, path: path))
        if inSitemap { sitemapPaths.append(path) }
    }

    /// `index.html` and `page/N/`: every post, newest first.
    mutating func addHome() throws {
        let pages = SiteRenderer.paginate(site.posts, size: site.config.postsPerPage)
        for (index, posts) in pages.enumerated() {
            let number = index + 1
            let path = SitePaths.home(page: number)
            var view = renderer.layout(path: path, title: number == 1 ? "" : "Page \(number)",
                                       description: site.config.description, nav: "home")
            let factory = renderer.views(for: path)
            view.posts = .of(posts.map(factory.post))
            view.pagination = SiteRenderer.pagination(current: number, total: pages.count, root: view.root,
                                                      path: SitePaths.home)
            if posts.isEmpty { view.empty = "No posts yet." }
            try add("home", view, path: path)
        }
    }

    mutating func addPost(_ post: Post) throws {
        let path = SitePaths.post(post)
        let author = site.usersByHandle[post.author]?.name ?? post.author
        let title = post.caption.plainText.isEmpty ? "Post by \(author)" : "\(author): \(SiteRenderer.shorten(post.caption.plainText, to: 60))"
        var view = renderer.layout(path: path, title: title, description: post.caption.plainText,
                                   share: renderer.shareImage(post))
        view.post = renderer.views(for: path).post(post)
        try add("post", view, path: path)
    }

    /// `tags/` and one page (grid) per tag.
    mutating func addTags() throws {
        var index = renderer.layout(path: SitePaths.tags, title: "Hashtags",
                                    description: "Every hashtag on \(site.config.title)", nav: "tags")
        let indexFactory = renderer.views(for: SitePaths.tags)
        index.tags = site.tags.compactMap { indexFactory.tagLink($0.key) }
        index.heading = "Hashtags"
        if site.tags.isEmpty { index.empty = "No hashtags yet." }
        try add("tags", index, path: SitePaths.tags)
        for tag in site.tags {
            let folder = SitePaths.tagFolder(tag.key)
            var view = renderer.layout(path: folder, title: "#\(tag.display)",
                                       description: "Posts tagged #\(tag.display) on \(site.config.title)",
                                       extraFeeds: [FeedLinkView(href: folder + "feed.json", type: "application/feed+json",
                                                                 title: "#\(tag.display) (JSON Feed)")])
            let factory = renderer.views(for: folder)
            view.heading = "#\(tag.display)"
            view.grid = .of(tag.postKeys.compactMap { site.postsByKey[$0] }.map(factory.post))
            if tag.postKeys.isEmpty { view.empty = "No posts with this hashtag yet." }
            try add("tag", view, path: folder)
        }
    }

    /// `explore/`: every post's first image in a masonry laid out from aspect ratios.
    mutating func addExplore() throws {
        let path = SitePaths.explore
        var view = renderer.layout(path: path, title: "Explore", description: "Explore \(site.config.title)",
                                   nav: "explore")
        view.heading = "Explore"
        view.columns = Masonry.columns(for: site.posts, images: renderer.images, factory: renderer.views(for: path),
                                       count: Masonry.columnCount)
        if site.posts.isEmpty { view.empty = "No posts yet." }
        try add("explore", view, path: path)
    }

    mutating func addNotFound() throws {
        // The 404 page is served at any depth, so its links are absolute from the base URL's path.
        var view = renderer.layout(path: "", title: "Page not found", description: "",
                                   root: SitePaths.absoluteRoot(site.config.baseURL))
        view.heading = "Page not found"
        files.append(OutputFile(path: "404.html", text: try renderer.theme.render("404", view)))
    }
}
