import Foundation
import GramgenCore

/// The site's feeds: JSON Feed for the site, each user and each tag; Atom for the site. A class,
/// so that each feed file's job holds one reference rather than a copy of every field.
final class FeedSet {
    /// Items per JSON Feed archive file (`split`).
    static let pageSize = 50

    let site: Site
    let images: [String: ProcessedImage]
    /// Each author's posts as places in `site.posts`, newest first (from `SiteRenderer`).
    let postIndexesByAuthor: [String: [Int]]
    /// The site's texts (Atom entries without a caption are titled "Photo by …").
    let messages: Messages
    /// A post's item is the same in every feed it appears in: made once.
    let items = ViewCache<[UInt8]>()
    /// Where items are kept between builds, with the cards (`FragmentMemo`), under `memoKey`
    /// (what the post's view is made from: `SiteRenderer.memoKey`); none: each is made.
    let memo: FragmentMemo?
    let memoKey: ((Post) -> UInt64)?

    init(site: Site, images: [String: ProcessedImage], postIndexesByAuthor: [String: [Int]] = [:], messages: Messages,
         memo: FragmentMemo? = nil, memoKey: ((Post) -> UInt64)? = nil) {
        self.site = site
        self.images = images
        self.postIndexesByAuthor = postIndexesByAuthor
        self.messages = messages
        self.memo = memo
        self.memoKey = memoKey
    }

    var base: String { site.config.baseURL }

    /// A JSON feed: the site's, a user's or a tag's, its posts as places in `site.posts`.
    private struct JSONFeedSource {
        let posts: [Int]
        let folder: String
        let title: String
        let home: String
        /// `folder`, percent-encoded for URLs.
        let urlFolder: String
    }

    /// Queues every feed file as a job of `pages`, drawn into `sink` batch by batch, on all
    /// cores (`addEach`). The JSON feeds' files (the site's, each user's, each tag's, and their
    /// archives) are queued in the order of the newest post each holds, across the feeds: a
    /// post's item, the same in every feed, is then made once for its author's feed, the site's
    /// and its tags' while `items` still holds it. Feed by feed, it came back a whole feed later
    /// each time, long dropped on a big site (the items were a sixth of a 50,000-post build's
    /// user CPU and grew 8.6 times for 5 times the posts).
    func add(to pages: inout PageSet, sink: PageSink) throws {
        let feeds = [JSONFeedSource(posts: Array(site.posts.indices), folder: "", title: site.config.title, home: "", urlFolder: "")]
            + site.users.map { user in
                JSONFeedSource(posts: postIndexesByAuthor[user.handle] ?? [], folder: SitePaths.profile(user.handle),
                               title: "\(user.name) (@\(user.handle)) · \(site.config.title)", home: SitePaths.profile(user.handle),
                               urlFolder: SitePaths.profile(user.handle))
            }
            + site.tags.map { tag in
                JSONFeedSource(posts: tag.postIndexes, folder: SitePaths.tagFolder(tag.key),
                               title: "#\(tag.display) · \(site.config.title)", home: SitePaths.tag(tag.key), urlFolder: SitePaths.tag(tag.key))
            }
        var files: [(newest: Int, feed: Int, archive: Int)] = []
        for (index, feed) in feeds.enumerated() {
            for archive in 0...Self.archiveCount(feed.posts.count) {
                files.append((Self.file(of: feed.posts, archive: archive == 0 ? nil : archive).first ?? -1, index, archive))
            }
        }
        files.sort { ($0.newest, $0.feed, $0.archive) < ($1.newest, $1.feed, $1.archive) }
        try pages.addEach(files, into: sink) { [self] pages, file in
            jsonFeedFile(feeds[file.feed], archive: file.archive == 0 ? nil : file.archive, to: &pages)
        }
        let newest = Array(site.posts.prefix(Self.pageSize))
        pages.addFile(SitePaths.atomFeed, inputs: .posts(newest), deferrable: true) { [site, images, messages] in
            Array(AtomFeed(site: site, images: images, items: newest, messages: messages).file().contents)
        }
    }

    /// A feed's posts (newest first) as its files hold them: `feed.json` the newest, `pageSize` to
    /// twice that less one (all of them when there are fewer), and the older ones archive files of
    /// `pageSize` each, numbered from the oldest (`feed/1.json` holds the first 50 posted), each
    /// linked to the one before it by `next_url`. An archive file keeps its posts whatever is
    /// posted after them (RFC 5005's archived feeds do the same): a new post changes `feed.json`,
    /// and every 50th a new archive file, where pages counted from the newest would all move by
    /// one (200 files at 10,000 posts).
    static func split<Item>(_ posts: [Item]) -> (current: ArraySlice<Item>, archives: [ArraySlice<Item>]) {
        (file(of: posts, archive: nil), (0..<archiveCount(posts.count)).map { file(of: posts, archive: $0 + 1) })
    }

    /// How many archive files a feed of `count` posts has (`split`).
    static func archiveCount(_ count: Int) -> Int {
        count >= 2 * pageSize ? (count - pageSize) / pageSize : 0
    }

    /// The posts of one file of `split(posts)`: `feed.json` (`archive` nil) or archive file
    /// `archive`, the posts `(archive - 1) × pageSize` … counted from the oldest.
    static func file<Item>(of posts: [Item], archive: Int?) -> ArraySlice<Item> {
        let size = pageSize, count = posts.count
        guard let archive else { return posts[..<(count - archiveCount(count) * size)] }
        return posts[(count - archive * size)..<(count - (archive - 1) * size)]
    }

    /// The file of `feed` that `split` makes `feed.json` (`archive` nil) or archive file `archive`.
    private func jsonFeedFile(_ feed: JSONFeedSource, archive: Int?, to set: inout PageSet) {
        // The archive file it links to: the newest one from `feed.json`, else the one before.
        let next = archive.map { $0 - 1 } ?? Self.archiveCount(feed.posts.count)
        let name = SitePaths.jsonFeed("", archive: archive)
        let nextURL = next > 0 ? base + feed.urlFolder + SitePaths.jsonFeed("", archive: next) : nil
        let posts = Self.file(of: feed.posts, archive: archive).map { site.posts[$0] }
        let (title, home, urlFolder) = (feed.title, feed.home, feed.urlFolder)
        set.addFile(feed.folder + name, inputs: .posts(posts, title, "\(next)"), deferrable: true) { [self] in
            let feed = JSONFeed(
                title: title, homePageURL: base + home, feedURL: base + urlFolder + name,
                description: site.config.description.isEmpty ? nil : site.config.description,
                language: site.config.language, icon: nil, nextURL: nextURL,
                items: posts.map { post in items.value(for: post.key) { itemJSON(post) } })
            return feed.encoded()
        }
    }

    /// The post's item as its feeds hold it (`JSONFeed.Item.json`), copied when kept by a build
    /// before. A caption edit redraws the feed files that hold the post (the site's, its author's,
    /// its tags', 50 to 100 items each), and made anew, their items were a sixth of its
    /// instructions; a pages-only build's feeds, 5%. An item's key is its post's for the cards
    /// (the site-wide inputs, which hold the base URL, and the post's own, which hold its images
    /// as processed, its hashtags' display forms and a repost's original) and the item's kind.
    func itemJSON(_ post: Post) -> [UInt8] {
        guard let memo, let memoKey else { return item(post).json }
        var digest = DigestBuilder()
        digest.add(memoKey(post))
        digest.add("JSON Feed item")
        let key = digest.value
        var kept: [UInt8] = []
        if memo.copy(key, into: &kept) { return kept }
        let json = item(post).json
        memo.keep(key, json[...])
        return json
    }

    func item(_ post: Post) -> JSONFeed.Item {
        let author = site.usersByHandle[post.author]
        let avatar = author?.avatar.flatMap { images[$0.path] }?.squares.last.map { base + SitePaths.media($0.file) }
        let sensitive = site.isSensitive(post)
        let feedImages = site.mediaPost(post).images.compactMap { source -> JSONFeed.Image? in
            guard let image = images[source.path], let best = bestVariant(image) else { return nil }
            let poster = base + SitePaths.media(best.file)
            if let video = image.video, let main = video.main {
                return JSONFeed.Image(url: base + SitePaths.media(main.file), width: main.width, height: main.height,
                                      aspectRatio: Self.ratio(main.width, main.height), alt: source.alt,
                                      mimeType: main.format.mimeType, dominantColor: image.dominantColor,
                                      placeholder: image.placeholder,
                                      video: .init(poster: poster, duration: video.duration, bytes: main.bytes))
            }
            return JSONFeed.Image(url: poster, width: best.width, height: best.height,
                                  aspectRatio: Self.ratio(best.width, best.height),
                                  alt: source.alt, mimeType: best.format.mimeType, dominantColor: image.dominantColor,
                                  placeholder: image.placeholder, video: nil)
        }
        return JSONFeed.Item(
            id: base + SitePaths.post(post), url: base + SitePaths.post(post),
            contentHTML: contentHTML(post, images: feedImages), contentText: post.caption.plainText,
            summary: post.caption.plainText.isEmpty ? nil : SiteRenderer.shorten(post.caption.plainText, to: 200),
            datePublished: post.date.rfc3339,
            authors: [JSONFeed.Author(name: author?.name ?? post.author, url: base + SitePaths.profile(post.author),
                                      avatar: avatar)],
            tags: post.tagKeys.isEmpty ? nil : post.tagKeys.map { site.tagsByKey[$0]?.display ?? $0 },
            image: sensitive ? nil : feedImages.first.map { $0.video?.poster ?? $0.url },
            attachments: sensitive ? [] : feedImages.filter { $0.video != nil },
            gramgen: JSONFeed.Extension(location: post.location, sensitive: sensitive, images: feedImages,
                                        repostOf: post.repostOf.flatMap { site.postsByKey[$0] }.map { base + SitePaths.post($0) }))
    }

    /// Feed readers show content_html: the photos, then the caption, with absolute links.
    /// A sensitive post's photos are left out: a reader would show them uncovered. A link to the
    /// post, where they are behind a click-through, takes their place.
    func contentHTML(_ post: Post, images: [JSONFeed.Image]) -> String {
        var html = ""
        let sensitive = site.isSensitive(post)
        if sensitive, !images.isEmpty {
            html += "<p><a href=\"\(Escape.html(base + SitePaths.post(post)))\">Sensitive content: open the post to see its photos.</a></p>\n"
        }
        if let original = post.repostOf.flatMap({ site.postsByKey[$0] }) {
            html += "<p>Reposted from <a href=\"\(Escape.html(base + SitePaths.post(original)))\">@\(Escape.html(original.author))</a></p>\n"
        }
        for image in images where !sensitive {
            let size = "width=\"\(image.width)\" height=\"\(image.height)\""
            if let video = image.video {
                html += "<p><video src=\"\(Escape.html(image.url))\" poster=\"\(Escape.html(video.poster))\" \(size) controls preload=\"none\"><a href=\"\(Escape.html(image.url))\">Watch the video</a></video></p>\n"
            } else {
                html += "<p><img src=\"\(Escape.html(image.url))\" \(size) alt=\"\(Escape.html(image.alt))\"></p>\n"
            }
        }
        return html + InternalLink.resolve(post.caption.html, root: base)
    }

    /// width / height to four decimals.
    static func ratio(_ width: Int, _ height: Int) -> Double {
        (Double(width) / Double(max(1, height)) * 10000).rounded() / 10000
    }

    /// The largest variant in the most widely supported format (JPEG when there is one).
    func bestVariant(_ image: ProcessedImage) -> ImageVariant? {
        let format: ImageFormat = image.variants.contains { $0.format == .jpeg } ? .jpeg
            : site.config.images.fallbackFormat
        return image.variants(in: format).last
    }
}
