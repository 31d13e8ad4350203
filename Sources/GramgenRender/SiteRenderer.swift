import Foundation
import GramgenCore

/// Stage 4: every page and feed of the site as files in memory. Nothing is written to disk here.
/// A class: each of a big site's tens of thousands of page jobs captures it, and a struct of this
/// many fields was copied into every one, a retain and a release per field and job (reference
/// counting was the largest item of a serve rebuild's profile).
public final class SiteRenderer: @unchecked Sendable {
    let site: Site
    let images: [String: ProcessedImage]
    let theme: Theme
    let webApp: WebApp
    /// Digests of what the build read; with them, unchanged pages are taken over from the last
    /// build. Set before the first render.
    public var inputs: RenderInputs?
    /// How pages are drawn in parallel (`--jobs`).
    let parallel: Parallel
    let postViewCache = ViewCache<PostView>()
    let userViewCache = ViewCache<UserView>()
    /// Makes the views shared by pages of every depth (`postView`, explore's items): their links
    /// are `rooted`.
    let sharedViews: ViewFactory
    /// Each user's activity, newest first.
    let activities: [String: [Activity]]
    /// Each author's posts, and the posts mentioning each handle (caption or comment), newest first.
    let postsByAuthor: [String: [Post]]
    let postsMentioning: [String: [Post]]
    /// Where each post stands among its author's posts (0 = newest).
    let authorPosition: [String: Int]
    /// Each author's posts as places in `site.posts` (ascending, so newest first).
    let postIndexesByAuthor: [String: [Int]]
    /// The posts each user liked, newest post first (likes carry no date of their own).
    let postsLikedBy: [String: [Post]]
    /// The theme's texts, dates and numbers in the site's language.
    let messages: Messages
    /// Make the search index while the pages are drawn: a second thread's work at the price of
    /// holding the index all along (`BuildPipeline` decides by the site's size).
    public var searchAhead = false
    /// What the last build of this process made of each post for the search index (`gramgen serve`).
    public var searchMemo: SearchMemo?

    /// `prepared`: `Prepared(site)`, made ahead (while the images are taken, by a one-off build);
    /// made here when nil.
    public init(site: Site, images: [String: ProcessedImage], theme: Theme, inputs: RenderInputs? = nil,
                parallel: Parallel = Parallel(), webApp: WebApp = WebApp(), prepared: Prepared? = nil) {
        self.site = site
        self.webApp = webApp
        self.parallel = parallel
        self.images = images
        self.theme = theme
        self.inputs = inputs
        messages = Messages(config: site.config)
        sharedViews = ViewFactory(site: site, images: images, root: InternalLink.rootMark, messages: messages, users: userViewCache)
        let made = prepared ?? Prepared(site, parallel: parallel)
        activities = made.activities
        (postsByAuthor, postIndexesByAuthor, postsMentioning, postsLikedBy, authorPosition) = made.tables
        let messages = messages
        frames = PerThread(name: "gramgen.pageFrame") { [site, theme, webApp] in Frame(config: site.config, messages: messages, theme: theme, webApp: webApp) }
    }

    /// The deepest page whose frame's links are made ahead (`FrameLinks`): a post's likers' page,
    /// `handle/p/id/likes/`, is four folders deep.
    fileprivate static let frameDepths = 6
    /// What every page's frame shows, each thread's own (`PerThread`).
    private let frames: PerThread<Frame>

    /// What the frame of every page shows, made once by each thread that draws pages: the links
    /// that depend on a page's depth alone, for each depth (`FrameLinks`), the texts templates
    /// read (`{{t.…}}`), the site's address, title and description. Each its own copy: shared by both
    /// threads of a build, each of a page's look-ups of these strings was a count taken and dropped
    /// on a cache line the other core had just written (5.5 million a pages-only build at 10,000
    /// posts; with them, two threads spent 37% more CPU than one on the same build).
    final class Frame {
        let links: [FrameLinks]
        let texts: MessagesView
        let baseURL: String
        let siteTitle: String
        let description: String
        let faviconType: String

        init(config: SiteConfig, messages: Messages, theme: Theme, webApp: WebApp) {
            links = (0...SiteRenderer.frameDepths).map {
                FrameLinks(root: String(repeating: "../", count: $0), config: config, theme: theme, webApp: webApp)
            }
            texts = MessagesView(messages: messages)
            baseURL = Self.own(config.baseURL)
            siteTitle = Self.own(config.title)
            description = Self.own(config.description)
            faviconType = Self.own(webApp.faviconType)
        }

        /// `text` in storage of its own (a short text is held in place and has none).
        static func own(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }
    }

    /// What the renderer makes of the site alone, before any image: each user's events and the
    /// tables by author, mention and like.
    public struct Prepared: @unchecked Sendable {
        let activities: [String: [Activity]]
        let tables: (byAuthor: [String: [Post]], indexes: [String: [Int]], mentioning: [String: [Post]],
                     liked: [String: [Post]], position: [String: Int])

        /// The events beside the tables by author (each a pass over every post, on one thread
        /// while the other core waited: a twentieth of a `gramgen serve` rebuild at 10,000 posts).
        /// With one worker, one after the other (made ahead on a thread of its own).
        public init(_ site: Site, parallel: Parallel = Parallel(jobs: 1)) {
            (activities, tables) = parallel.both({ Activity.all(in: site) }, { SiteRenderer.tables(site) })
        }
    }

    /// Each author's posts and their places in `site.posts`, the posts mentioning each handle and
    /// those each user liked, and where each post stands among its author's.
    fileprivate static func tables(_ site: Site) -> (byAuthor: [String: [Post]], indexes: [String: [Int]], mentioning: [String: [Post]],
                                                 liked: [String: [Post]], position: [String: Int]) {
        var mentioning: [String: [Post]] = [:], liked: [String: [Post]] = [:]
        // Each author's lists by a slot found with one look-up a post (a site has few authors).
        var slots: [String: Int] = [:], authors: [String] = [], ownPosts: [[Post]] = [], ownIndexes: [[Int]] = []
        for (index, post) in site.posts.enumerated() {
            let author = post.author
            if let slot = slots[author] {
                ownPosts[slot].append(post)
                ownIndexes[slot].append(index)
            } else {
                slots[author] = authors.count
                authors.append(author)
                ownPosts.append([post])
                ownIndexes.append([index])
            }
            for handle in post.likedBy { liked[handle, default: []].append(post) }
            // Most posts mention no one: no set made for them.
            let comments = post.comments, mentions = post.caption.mentions
            guard !mentions.isEmpty || comments.contains(where: { !$0.text.mentions.isEmpty }) else { continue }
            var mentioned = Set(mentions)
            for comment in comments { mentioned.formUnion(comment.text.mentions) }
            // The tagged tab shows others' posts that mention the user, not the user's own.
            mentioned.remove(author)
            for handle in mentioned { mentioning[handle, default: []].append(post) }
        }
        let byAuthor = Dictionary(uniqueKeysWithValues: zip(authors, ownPosts))
        let indexes = Dictionary(uniqueKeysWithValues: zip(authors, ownIndexes))
        var position: [String: Int] = [:]
        position.reserveCapacity(site.posts.count)
        for posts in ownPosts {
            for (index, post) in posts.enumerated() { position[post.key] = index }
        }
        return (byAuthor, indexes, mentioning, liked, position)
    }

    /// Every file of the site, in memory (for tests and small sites).
    public func render() throws -> [OutputFile] {
        let sink = CollectingSink()
        try render(into: sink)
        return sink.files
    }

    /// Renders every page, feed and asset into `sink`, on all cores, unless the sink stops it
    /// early (`PageSink.stopsEarly`).
    public func render(into sink: PageSink) throws {
        do {
            try renderAll(into: sink)
        } catch is PageSet.Stopped {
            return
        }
    }

    private func renderAll(into sink: PageSink) throws {
        for asset in theme.assets where sink.wants(asset.path) { try sink.put(asset.path, Array(asset.contents), inputs: nil) }
        for (path, bytes) in webApp.files(config: config, messages: messages, theme: theme) where sink.wants(path) {
            try sink.put(path, bytes, inputs: nil)
        }
        // Drawn in batches as they are queued (`flush`), so no list of jobs grows with the site.
        let digests = pageDigests
        var pages = PageSet(renderer: self, digests: digests)
        // The search index is made from the site alone, on one thread: with `searchAhead` beside
        // the pages (queueing them is one thread's work too), else after them, so a big site's
        // build does not hold it all the while. Not at all when the sink wants none of it (its
        // search page aside) or leaves it for later.
        let search = sink.wants(SitePaths.searchMeta) && !sink.leaveSearchForLater()
        fragments?.startBuild()
        let (drawn, ahead) = parallel.both({
            Result {
                // A user stands for a dozen pages or more (tabs, pages of each): four to a task, so
                // that the one whose posts changed does not leave the other core idle at the end.
                try pages.addEach(site.users, weight: 8, into: sink) { $0.addProfileGroup($1, sink: sink) }
                // Right after the profiles' grids, whose tiles they show again while the memo still
                // keeps them (`FragmentMemo`): after the cards and the post pages, as they were,
                // they found them on a 10,000-post site and drew every tile again on a larger one.
                try pages.addTags(into: sink)
                try pages.addCardTabs(into: sink)
                try pages.addPostPages(into: sink)
                pages.addExplore()
                pages.addPeople()
                try pages.flush(into: sink, force: true)
            }
        }, { searchAhead && search ? searchIndex(digests: digests) : nil })
        try drawn.get()
        // A build that may stop early makes the index after the pages, and not once it stops.
        if search, ahead == nil, sink.stopsEarly() { throw PageSet.Stopped() }
        pages.addSearch(search ? ahead ?? searchIndex(digests: digests) : nil)
        try pages.flush(into: sink, force: true)
        pages.addNotFound()
        // The sitemap lists page paths under the base URL (a site-wide input): redrawn when a page
        // comes or goes, not after every edit of a post (at 10,000 posts it is 2 MB). Every page it
        // lists is queued by now (not the 404 page nor the feeds), so it is drawn beside the feeds
        // rather than after them: alone at the end, its 27,000 paths sorted and written held one
        // core for some 15 ms of a new post's build while the other waited.
        var sitemap = PageSet(renderer: self, digests: digests)
        SitemapRenderer.add(site: site, pagePaths: pages.sitemapPaths, to: &sitemap)
        let feeds = FeedSet(site: site, images: images, postIndexesByAuthor: postIndexesByAuthor, messages: messages,
                            memo: fragments, memoKey: memoKey)
        fragments?.widen()
        let (sitemapDrawn, feedsDrawn) = parallel.both({
            Result { try sitemap.flush(into: sink, force: true) }
        }, {
            Result {
                try feeds.add(to: &pages, sink: sink)
                try pages.flush(into: sink, force: true)
            }
        })
        try sitemapDrawn.get()
        try feedsDrawn.get()
    }

    var config: SiteConfig { site.config }

    /// The pages' input digests, made once for every render of this site (a catch-up build
    /// renders again from the same renderer). One render at a time.
    private lazy var pageDigests = inputs.map { PageDigests($0, site: site, tagCounts: theme.showsTagCounts, parallel: parallel) }

    /// The search index and its word files; its document files are drawn as pages are (`PageSet.addSearch`).
    typealias MadeSearch = (index: SearchIndex, words: [(path: String, contents: [UInt8])])

    func searchIndex(digests: PageDigests?) -> MadeSearch {
        let index = SearchIndex(site: site, images: images, formats: site.config.images.formats, messages: messages,
                                memo: searchMemo, digests: digests)
        return (index, index.wordFiles())
    }

    /// The posts of `user`'s following feed (theirs and those of whom they follow) as places in
    /// `site.posts`, newest first: their own lists merged, not the whole site filtered (a
    /// following feed per user would otherwise cost users × posts).
    func feedIndexes(_ user: Profile) -> [Int] {
        var indexes: [Int] = []
        for author in Set(user.following + [user.handle]) { indexes += postIndexesByAuthor[author] ?? [] }
        indexes.sort()
        return indexes
    }

    /// The layout fields every page has; `path` is the page's folder relative to the root ("" for home).
    func layout(path: String, title: String, description: String, share: ShareImageView? = nil,
                extraFeeds: [FeedLinkView] = [], nav: String = "", root: String? = nil) -> PageView {
        let root = root ?? SitePaths.root(from: path)
        let frame = frames.value
        let depth = root.utf8.count / 3
        let links = depth < frame.links.count && frame.links[depth].root == root ? frame.links[depth]
            : FrameLinks(root: root, config: config, theme: theme, webApp: webApp)
        let feeds = extraFeeds.isEmpty ? links.feeds
            : links.feeds + extraFeeds.map { FeedLinkView(href: root + $0.href, type: $0.type, title: $0.title) }
        let pageTitle = title.isEmpty ? frame.siteTitle : "\(title) · \(frame.siteTitle)"
        return PageView(
            lang: config.language, dir: messages.direction, t: frame.texts, siteTitle: frame.siteTitle, title: pageTitle,
            description: description.isEmpty ? frame.description : Self.shorten(description, to: 200),
            canonical: frame.baseURL + path, root: root, stylesheet: links.stylesheet, script: links.script,
            feeds: feeds, share: share, navHome: nav == "home", navExplore: nav == "explore",
            navTags: nav == "tags", navSearch: nav == "search", navPeople: nav == "people",
            searchScript: links.searchScript, pagesStylesheet: links.pagesStylesheet,
            faviconHref: links.faviconHref, faviconType: frame.faviconType,
            touchIconHref: links.touchIconHref, manifestHref: links.manifestHref, logo: links.logo,
            serviceWorker: links.serviceWorker)
    }

    /// The links of a page's frame that depend on its depth alone (`root`): made once for each
    /// depth a page can have (every page asked for them, a dozen strings joined a page). A class:
    /// a page takes one count of it, where a struct was copied with its dozen strings' counts.
    final class FrameLinks {
        let root: String
        let feeds: [FeedLinkView]
        let stylesheet, script, searchScript, pagesStylesheet, faviconHref, manifestHref: String
        let touchIconHref, serviceWorker: String?
        let logo: LogoView?

        init(root: String, config: SiteConfig, theme: Theme, webApp: WebApp) {
            self.root = root
            feeds = [
                FeedLinkView(href: root + SitePaths.jsonFeed(""), type: "application/feed+json", title: "\(config.title) (JSON Feed)"),
                FeedLinkView(href: root + SitePaths.atomFeed, type: "application/atom+xml", title: "\(config.title) (Atom)"),
            ]
            stylesheet = root + (theme.assetPaths["style.css"] ?? "style.css")
            script = theme.assetPaths["gramgen.js"].map { root + $0 } ?? ""
            searchScript = theme.assetPaths["search.js"].map { root + $0 } ?? ""
            pagesStylesheet = theme.assetPaths["pages.css"].map { root + $0 } ?? ""
            faviconHref = root + webApp.faviconPath
            touchIconHref = webApp.touchIconPath.map { root + $0 }
            manifestHref = root + WebApp.manifest
            logo = webApp.headerLogo(config).map { LogoView(src: root + $0.0, src2x: root + $0.1) }
            serviceWorker = webApp.offline && theme.serviceWorker != nil ? root + WebApp.serviceWorker : nil
        }
    }

    /// A post's view, shared by every page that shows it: the home feed, its profile, list, tag
    /// pages and feeds of followers, its own page, at any depth, made once for all. Its links are
    /// `rooted` (`InternalLink.rootMark` for the way back to the root, written by the template
    /// renderer as the page's): made for each depth of page, a post's view was made four or five
    /// times, 11% of a pages-only build's instructions.
    func postView(_ post: Post) -> PostView {
        postViewCache.value(for: post.key) { sharedViews.post(post) }
    }

    /// A feed of cards: the first two cards' first photos load at once (a phone's first screen
    /// shows them), the first with priority; the rest lazily. Those two views are the page's own
    /// copies of the shared ones (`PostView.loading`), the others are shared.
    func cards(_ posts: [Post], for path: String) -> PostList? {
        .of(posts, view: postView, eager: 2, key: memoKey, poster: views(for: path).firstPoster)
    }

    /// A grid of tiles.
    func tiles(_ posts: [Post], for path: String) -> PostList? {
        .of(posts, view: postView, key: memoKey, poster: views(for: path).firstPoster)
    }

    /// Where drawn cards and tiles are kept (`FragmentMemo`); none: each is drawn.
    public var fragments: FragmentMemo?

    /// Each post's key for `fragments`: what its view is made from (the site-wide inputs, the
    /// post's own), as pages are compared between builds (`PageDigests`). Not the page's depth:
    /// an item is kept with a mark for the way back to the root (`TemplateRenderer.drawKept`).
    /// None without digests.
    var memoKey: ((Post) -> UInt64)? {
        guard fragments != nil, let digests = pageDigests else { return nil }
        return { post in
            var key = DigestBuilder()
            key.add(digests.site)
            key.add(digests.digest(of: post))
            return key.value
        }
    }

    func views(for path: String) -> ViewFactory {
        ViewFactory(site: site, images: images, root: SitePaths.root(from: path), messages: messages, users: userViewCache)
    }

    /// The post's first image at its largest size, as an absolute URL for `og:image`. None for a
    /// sensitive post: a share preview would show the photo uncovered, so it shows text only.
    func shareImage(_ post: Post) -> ShareImageView? {
        guard !site.isSensitive(post), let source = site.mediaPost(post).images.first, let image = images[source.path],
              let best = image.variants(in: image.variants.contains { $0.format == .jpeg } ? .jpeg : config.images.fallbackFormat).last
        else { return nil }
        return ShareImageView(url: frames.value.baseURL + SitePaths.media(best.file), width: best.width, height: best.height,
                              alt: source.alt)
    }

    /// Posts per page of the grids that are not a profile (tag pages, explore): three rows of
    /// `posts_per_page` tiles, as a grid shows three a row.
    var gridPageSize: Int { site.config.postsPerPage * 3 }

    static func shorten(_ text: String, to length: Int) -> String {
        // No more bytes than the limit, so no more characters either: most captions, no count.
        guard text.utf8.count > length else { return text }
        if let cut = shortenASCII(text, to: length) { return cut }
        guard text.count > length else { return text }
        let kept = text.prefix(length - 1).unicodeScalars
        guard let first = kept.firstIndex(where: { !isSpace($0) }), let last = kept.lastIndex(where: { !isSpace($0) }) else {
            return "…"
        }
        return String(kept[first...last]) + "…"
    }

    /// `shorten` of a text of ASCII bytes without a carriage return before a line feed, where each
    /// byte is a character (those two together are one): cut and trimmed on its bytes, without
    /// walking its characters twice (to count them, then to cut). The search index and every
    /// post page's description shorten a long caption: 9,000 instructions each that way. Nil for
    /// any other text.
    private static func shortenASCII(_ text: String, to length: Int) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var previous: UInt8 = 0
            for byte in bytes {
                if byte >= 0x80 || (previous == 0x0D && byte == 0x0A) { return nil }
                previous = byte
            }
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            var (start, end) = (0, length - 1)
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) + "…"
        }
    }

    /// Foundation's `CharacterSet.whitespaces` (tab, the space separators and U+200B), tested by
    /// hand: the search index shortens every caption on every build, and Foundation's trimming
    /// was a fifth of the index's time.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// How many pages `count` items fill, `size` a page (at least one, possibly empty), as `paginate` splits them.
    static func pageCount(_ count: Int, size: Int) -> Int {
        max(1, (count + size - 1) / size)
    }

    /// Splits items into pages of `size` (at least one page, possibly empty).
    static func paginate<T>(_ items: [T], size: Int) -> [[T]] {
        guard !items.isEmpty else { return [[]] }
        return stride(from: 0, to: items.count, by: size).map { Array(items[$0..<min($0 + size, items.count)]) }
    }

    func pagination(current: Int, total: Int, root: String, path: (Int) -> String) -> PaginationView? {
        guard total > 1 else { return nil }
        let label = messages.text("page_of", ["current": messages.language.number(current), "total": messages.language.number(total)])
        return PaginationView(current: current, total: total, label: label,
                              previousHref: current > 1 ? root + path(current - 1) : nil,
                              nextHref: current < total ? root + path(current + 1) : nil)
    }
}

/// A thread-safe memo of view models, keyed by page depth and model, bounded: a big site has a
/// view of every post at every page depth, which held together grew with the site (about 8 KB a
/// post view, 400 MB at 10,000 posts). Two generations of at most `limit` entries each: a value
/// found in the older one moves to the newer; when the newer is full it becomes the older and the
/// older is dropped. Pages list posts in runs (a feed, a profile, a tag), so recent views are the
/// ones asked for again.
final class ViewCache<Value>: @unchecked Sendable {
    private var newer: [String: Value] = [:]
    private var older: [String: Value] = [:]
    private let lock = NSLock()
    let limit: Int

    init(limit: Int = 4096) {
        self.limit = limit
    }

    func value(for key: String, make: () -> Value) -> Value {
        lock.lock()
        if let value = newer[key] ?? older[key] {
            if newer[key] == nil { insert(key, value) }
            lock.unlock()
            return value
        }
        lock.unlock()
        let value = make()
        lock.lock()
        insert(key, value)
        lock.unlock()
        return value
    }

    /// Values held now (at most twice `limit`).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return newer.count + older.count
    }

    private func insert(_ key: String, _ value: Value) {
        if newer.count >= limit {
            older = newer
            newer = [:]
            newer.reserveCapacity(limit)
        }
        newer[key] = value
    }
}
