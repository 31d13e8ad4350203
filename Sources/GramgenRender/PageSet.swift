import Foundation
import GramgenCore

/// Collects the HTML pages of the site, one method per page kind of the spec's section 3.
/// Each page is a job that builds its view and renders it; `render` runs the jobs on all cores.
/// A job names what it reads (`PageInputs`), so a page whose inputs did not change since the
/// last build is taken over from it instead of being drawn again.
struct PageSet {
    struct Job {
        let file: String
        let inputs: PageInputs
        /// No browser lands on it first (a list's later page, a feed, the sitemap): `gramgen serve`
        /// may draw it after the reload (`PageSink.leaveForLater`).
        var deferrable = false
        let body: Body

        enum Body {
            /// Drawn by a template from its view, into the drawing task's buffer.
            case page(template: String, view: () -> PageView)
            /// A file made whole by other means (feeds, the sitemap, the search index).
            case file(() throws -> [UInt8])
        }
    }

    let renderer: SiteRenderer
    /// Jobs queued and not yet drawn: `flush` draws them, so the list stays bounded however large
    /// the site (all of a big site's jobs at once held hundreds of megabytes).
    var jobs: [Job] = []
    /// Pages listed in sitemap.xml (the 404 page is not).
    var sitemapPaths: [String] = []
    /// The inputs' digests, made once for all the flushes.
    let digests: PageDigests?
    /// Thrown by `flush` and `render` when the sink stops the build early (`PageSink.stopsEarly`).
    struct Stopped: Error {}
    /// Jobs drawn together: enough to keep every worker busy.
    static let batchSize = 2048

    init(renderer: SiteRenderer, digests: PageDigests?) {
        self.renderer = renderer
        self.digests = digests
    }

    var site: Site { renderer.site }

    /// Queues a page at `path` (a folder, "" for the root) drawn by `template` from `view()`.
    /// `page`: its number in a paginated list (those after the first are `deferrable`).
    mutating func add(_ template: String, path: String, inSitemap: Bool = true, file: String? = nil, page: Int = 1,
                      inputs: PageInputs, view: @escaping () -> PageView) {
        jobs.append(Job(file: file ?? SitePaths.file(path), inputs: inputs.adding(template), deferrable: page > 1,
                        body: .page(template: template, view: view)))
        if inSitemap { sitemapPaths.append(path) }
    }

    /// Queues a file that is not drawn by a template (feeds, sitemap).
    mutating func addFile(_ file: String, inputs: PageInputs, deferrable: Bool = false, make: @escaping () throws -> [UInt8]) {
        jobs.append(Job(file: file, inputs: inputs, deferrable: deferrable, body: .file(make)))
    }

    /// Draws the queued jobs once there are `batchSize` of them (`force`: whatever there is).
    mutating func flush(into sink: PageSink, force: Bool = false) throws {
        guard force || jobs.count >= Self.batchSize else { return }
        if sink.stopsEarly() { throw Stopped() }
        try render(into: sink)
        jobs.removeAll(keepingCapacity: true)
        sink.batchDone()
    }

    /// Renders every queued job, in parallel, into `sink`; the first failure is reported.
    func render(into sink: PageSink) throws {
        let failure = FirstFailure()
        let chunk = 16
        let chunks = (jobs.count + chunk - 1) / chunk
        let jobs = jobs
        renderer.parallel.forEach(count: chunks) { c in
            let buffer = PageBytes.forDrawing()
            for index in c * chunk..<min((c + 1) * chunk, jobs.count) {
                failure.run { try draw(jobs[index], into: sink, buffer: buffer) }
            }
        }
        try failure.rethrow()
        if sink.stopsEarly() { throw Stopped() }
    }

    /// Queues and draws the pages of every item on all cores, a few items per task: each task
    /// queues its items' pages (`add`) into a set of its own and draws them at once. The pages of
    /// a site's 10,000 posts were queued on one thread while the other waited, then drawn:
    /// the queueing was most of what a serve rebuild's render took. `add` must only read shared state.
    /// Memory is handed back (`PageSink.batchDone`) after every `batchSize / 2` items.
    /// `weight`: an item stands for this many (a group of posts), in tasks and batches alike.
    mutating func addEach<Item>(_ items: [Item], weight: Int = 1, into sink: PageSink, add: (inout PageSet, Item) -> Void) throws {
        try flush(into: sink, force: true)
        let chunk = max(1, 32 / weight), perBatch = max(1, Self.batchSize / 2 / weight)
        for batch in stride(from: 0, to: items.count, by: perBatch) {
            let end = min(batch + perBatch, items.count)
            let failure = FirstFailure()
            let paths = renderer.parallel.map(count: (end - batch + chunk - 1) / chunk) { [renderer, digests] c -> [String] in
                var part = PageSet(renderer: renderer, digests: digests)
                // A build that stops early queues nothing more either.
                for index in batch + c * chunk..<min(batch + (c + 1) * chunk, end) where !sink.stopsEarly() {
                    add(&part, items[index])
                }
                let buffer = PageBytes.forDrawing()
                for job in part.jobs { failure.run { try part.draw(job, into: sink, buffer: buffer) } }
                return part.sitemapPaths
            }
            try failure.rethrow()
            for part in paths { sitemapPaths += part }
            sink.batchDone()
            if sink.stopsEarly() { throw Stopped() }
        }
    }

    /// Queues a group of pages (`add`) unless the sink takes over all of them as the last build
    /// made them (`PageSink.takeOverGroup`): `inputs` is a digest of everything any of them
    /// reads, so the group is not even queued when it did not change (20,000 post and likes
    /// pages at 10,000 posts, of which an edit changes a handful).
    mutating func addGroup(_ name: String, inputs: UInt64, sink: PageSink, add: (inout PageSet) -> Void) {
        if let sitemap = sink.takeOverGroup(name, inputs: inputs) {
            sitemapPaths += sitemap
            return
        }
        let (firstJob, firstPath) = (jobs.count, sitemapPaths.count)
        add(&self)
        sink.queuedGroup(name, inputs: inputs, files: jobs[firstJob...].map(\.file), sitemap: Array(sitemapPaths[firstPath...]))
    }

    /// Posts per group of post pages (`addPostPages`).
    static let postGroupSize = 32

    /// Every post's page and likes pages, a group (`addGroup`) per run of `postGroupSize` posts
    /// of one author: a post's page shows only posts of its author's within `morePostsCount` of
    /// it, so the group's inputs are those posts and their neighbours, and an edit of a post
    /// queues only its own author's pages again.
    mutating func addPostPages(into sink: PageSink) throws {
        let size = Self.postGroupSize, reach = Self.morePostsCount
        let runs = renderer.postsByAuthor.keys.sorted().flatMap { author in
            stride(from: 0, to: renderer.postsByAuthor[author]?.count ?? 0, by: size).map { (author: author, start: $0) }
        }
        try addEach(runs, weight: size, into: sink) { [renderer, digests] pages, run in
            let own = renderer.postsByAuthor[run.author] ?? []
            let end = min(run.start + size, own.count)
            func addAll(_ pages: inout PageSet) {
                for post in own[run.start..<end] {
                    pages.addPost(post)
                    pages.addLikes(post)
                }
            }
            guard let digests else { return addAll(&pages) }
            var inputs = DigestBuilder()
            inputs.add(digests.site)
            inputs.add(UInt64(own.count))
            for post in own[max(0, run.start - reach)..<min(own.count, end + reach)] { inputs.add(digests.digest(of: post)) }
            pages.addGroup(PageGroupKind.posts.name("\(run.author) \(run.start)"), inputs: inputs.value, sink: sink, add: addAll)
        }
    }

    /// One job: taken over when its inputs are as the last build's, left for later when the sink
    /// says so, else drawn. A build that draws only some pages stops between any two of them.
    /// A page is drawn into `buffer`, the drawing task's, and handed to the sink from there.
    private func draw(_ job: Job, into sink: PageSink, buffer: PageBytes) throws {
        guard sink.wants(job.file), !sink.stopsEarly() else { return }
        let digest = digests.map { $0.digest(job.file, job.inputs, site: site) }
        if let digest, sink.reuse(job.file, inputs: digest) { return }
        if job.deferrable, sink.leaveForLater(job.file) { return }
        switch job.body {
        case .page(let template, let view):
            buffer.removeSuffix(from: 0)
            try renderer.theme.render(template, view(), into: buffer, memo: renderer.fragments)
            try sink.put(job.file, buffer.bytes(from: 0), inputs: digest)
        case .file(let make):
            try sink.put(job.file, try make(), inputs: digest)
        }
    }

    /// The first error thrown on any of several threads.
    private final class FirstFailure: @unchecked Sendable {
        private let lock = NSLock()
        private var error: Error?

        func run(_ body: () throws -> Void) {
            do {
                try body()
            } catch {
                lock.withLock { if self.error == nil { self.error = error } }
            }
        }

        func rethrow() throws {
            if let error = lock.withLock({ error }) { throw error }
        }
    }

    /// Page `number` of `total` of `index.html` and `page/N/`: every post, newest first. Drawn
    /// in the card tabs' run (`addCardTabs`), which lists it in the sitemap.
    mutating func addHomePage(_ number: Int, of total: Int) {
        let size = site.config.postsPerPage
        let posts = Array(site.posts[min(site.posts.count, (number - 1) * size)..<min(site.posts.count, number * size)])
        let path = SitePaths.home(page: number)
        add("home", path: path, inSitemap: false, page: number, inputs: .posts(posts, "\(total)")) { [renderer] in
            let site = renderer.site
            let t = renderer.messages
            let view = renderer.layout(path: path, title: number == 1 ? "" : t.text("page_title", ["number": t.language.number(number)]),
                                       description: site.config.description, nav: "home")
            view.posts = renderer.cards(posts, for: path)
            view.pagination = renderer.pagination(current: number, total: total, root: view.root,
                                                  path: SitePaths.home)
            if posts.isEmpty { view.empty = t.text("empty_posts") }
            return view
        }
    }

    /// The post's page, with the author's older and newer posts and more of theirs: the posts
    /// nearest in time (not the newest), so a new post changes only the pages of its neighbours.
    mutating func addPost(_ post: Post) {
        let path = SitePaths.post(post)
        let own = renderer.postsByAuthor[post.author] ?? []
        let index = renderer.authorPosition[post.key] ?? 0
        let newer = index > 0 ? own[index - 1] : nil
        let older = index + 1 < own.count ? own[index + 1] : nil
        let more = Self.neighbours(of: index, in: own, count: Self.morePostsCount)
        add("post", path: path, inputs: .posts([post] + more + [newer, older].compactMap { $0 }, newer == nil ? "" : "n",
                                             older == nil ? "" : "o")) { [renderer] in
            let site = renderer.site
            let author = site.usersByHandle[post.author]?.name ?? post.author
            let text = post.caption.plainText
            let t = renderer.messages
            let title = text.isEmpty ? t.text("post_by", ["author": author]) : "\(author): \(SiteRenderer.shorten(text, to: 60))"
            let view = renderer.layout(path: path, title: title, description: text, share: renderer.shareImage(post))
            // Shown on other pages already, most posts' views are made.
            view.post = renderer.postView(post).loading(.priority)
            // The newer and older posts are among `more`: their shared views are made.
            func link(_ post: Post, _ label: String) -> PostLinkView {
                let shared = renderer.postView(post)
                return PostLinkView(href: shared.href, label: label, tile: shared.tile, sensitive: shared.sensitive)
            }
            view.previousPost = older.map { link($0, t.text("older_post")) }
            view.nextPost = newer.map { link($0, t.text("newer_post")) }
            // Tiles as the grids draw them: kept between pages and builds (each is under six
            // post pages), not drawn on every page (4% of a pages-only build's instructions).
            view.more = renderer.tiles(more, for: path)
            view.moreHeading = t.text("more_posts_from", ["author": post.author])
            return view
        }
    }

    /// Tiles under a post of more posts by its author.
    static let morePostsCount = 6

    /// Up to `count` items around `index` (not itself): as many newer as older, shifted at either end.
    static func neighbours<Item>(of index: Int, in items: [Item], count: Int) -> [Item] {
        guard items.count > 1 else { return [] }
        let wanted = min(count, items.count - 1)
        var start = max(0, index - wanted / 2)
        start = min(start, items.count - wanted - 1)
        return (start...(start + wanted)).filter { $0 != index }.prefix(wanted).map { items[$0] }
    }

    /// `tags/` and one page (grid) per tag.
    mutating func addTags(into sink: PageSink) throws {
        add("tags", path: SitePaths.tags, inputs: .everything) { [renderer] in
            let site = renderer.site
            let t = renderer.messages
            let index = renderer.layout(path: SitePaths.tags, title: t.text("hashtags"),
                                        description: t.text("hashtags_description", ["site": site.config.title]), nav: "tags")
            let factory = renderer.views(for: SitePaths.tags)
            // By post count, then name; each knows its place by name (site.tags is sorted by key).
            index.tags = site.tags.enumerated().compactMap { rank, tag in
                factory.tagLink(tag.key).map { var link = $0; link.nameRank = rank; return link }
            }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.nameRank < $1.nameRank }
            index.heading = t.text("hashtags")
            if site.tags.isEmpty { index.empty = t.text("empty_hashtags") }
            return index
        }
        // Queued on all cores, a few tags per task (`addEach`), as their pages are drawn.
        try addEach(site.tags, into: sink) { $0.addTag($1) }
    }

    /// A hashtag's pages.
    private mutating func addTag(_ tag: Hashtag) {
        let posts = tag.postIndexes.map { site.posts[$0] }
        let pages = SiteRenderer.paginate(posts, size: renderer.gridPageSize)
        let top = Self.topPosts(posts)
        for (index, pagePosts) in pages.enumerated() {
            let number = index + 1
            let folder = SitePaths.tagFolder(tag.key, page: number)
            let shownTop = number == 1 ? top : []
            add("tag", path: folder, page: number, inputs: .posts(shownTop + pagePosts, "\(tag.display) \(pages.count) \(posts.count)")) { [renderer] in
                let site = renderer.site
                let t = renderer.messages
                let view = renderer.layout(path: folder, title: "#\(tag.display)" + t.pageSuffix(number),
                                           description: t.text("tag_description", ["tag": tag.display, "site": site.config.title]),
                                           extraFeeds: [FeedLinkView(href: SitePaths.jsonFeed(SitePaths.tag(tag.key)),
                                                                     type: "application/feed+json",
                                                                     title: "#\(tag.display) (JSON Feed)")])
                view.heading = "#\(tag.display)"
                view.subheading = t.count("posts_count", posts.count)
                view.top = renderer.tiles(shownTop, for: folder)
                view.grid = renderer.tiles(pagePosts, for: folder)
                view.pagination = renderer.pagination(current: number, total: pages.count, root: view.root) {
                    SitePaths.tag(tag.key, page: $0)
                }
                if posts.isEmpty { view.empty = t.text("empty_tag") }
                return view
            }
        }
    }

    /// A hashtag's top posts: the three with the most likes and comments (the newer first among
    /// equals), shown above its newest when it has more than three.
    static func topPosts(_ posts: [Post]) -> [Post] {
        guard posts.count > 3 else { return [] }
        let scored = posts.enumerated().map { (score: $1.likedBy.count + $1.comments.count, order: $0, post: $1) }
        return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.order < $1.order }.prefix(3).map(\.post)
    }

    /// `explore/` (+ `page/N/`): posts' first images in a masonry laid out from aspect ratios,
    /// `gridPageSize` a page.
    mutating func addExplore() {
        // Reposts show photos explore already has.
        let pages = SiteRenderer.paginate(site.posts.filter { $0.repostOf == nil }, size: renderer.gridPageSize)
        for (index, posts) in pages.enumerated() {
            let number = index + 1
            let path = SitePaths.explore(page: number)
            add("explore", path: path, page: number, inputs: .posts(posts, "explore \(pages.count)")) { [renderer] in
                let site = renderer.site
                let t = renderer.messages
                let view = renderer.layout(path: path, title: t.text("explore") + t.pageSuffix(number),
                                           description: t.text("explore_description", ["site": site.config.title]), nav: "explore")
                view.heading = t.text("explore")
                view.subnav = Self.exploreTabs(root: view.root, current: "posts", messages: t)
                view.columns = Masonry.columns(for: posts, images: renderer.images, factory: renderer.sharedViews,
                                               count: Masonry.columnCount, key: renderer.memoKey)
                view.pagination = renderer.pagination(current: number, total: pages.count, root: view.root,
                                                          path: SitePaths.explore(page:))
                if posts.isEmpty { view.empty = t.text("empty_posts") }
                return view
            }
        }
    }

    /// `404.html` is served at any depth, so its links start from the base URL's path.
    mutating func addNotFound() {
        add("404", path: "", inSitemap: false, file: SitePaths.notFound, inputs: .everything) { [renderer] in
            let site = renderer.site
            let view = renderer.layout(path: "", title: renderer.messages.text("not_found"), description: "",
                                       root: SitePaths.absoluteRoot(site.config.baseURL))
            view.heading = renderer.messages.text("not_found")
            return view
        }
    }
}
