import GramgenCore

/// Turns the site graph into view models for a page at a given depth (links are relative to it).
///
/// A class, made once per page: held by the closures that make a page's post views and handed to
/// every view, a struct of its size (the site, the images, the texts: some twenty counted
/// references) was copied each time, every count shared by both threads drawing pages (2% of a
/// pages-only build's samples at 10,000 posts).
final class ViewFactory: @unchecked Sendable {
    let site: Site
    let images: [String: ProcessedImage]
    let root: String
    let messages: Messages
    /// User views already made for pages at this depth (a user appears on nearly every page: as
    /// author, liker, commenter); nil makes a new one each time.
    let users: ViewCache<UserView>?

    init(site: Site, images: [String: ProcessedImage], root: String, messages: Messages, users: ViewCache<UserView>? = nil) {
        (self.site, self.images, self.root, self.messages, self.users) = (site, images, root, messages, users)
    }

    var formats: [ImageFormat] { site.config.images.formats }

    func user(_ handle: String) -> UserView {
        guard let users else { return makeUser(handle) }
        return users.value(for: root + "\u{0}" + handle) { makeUser(handle) }
    }

    private func makeUser(_ handle: String) -> UserView {
        let profile = site.usersByHandle[handle]
        let avatar = profile?.avatar.flatMap { source in images[source.path] }.map {
            // Beside the handle it shows (cards, comments, lists), the avatar says nothing more: its
            // alt is empty. The profile's own header describes it (`avatarAlt`).
            ImageView(square: $0, alt: "", root: root, sizes: "44px", formats: formats)
        }
        let name = profile?.name ?? handle
        return UserView(handle: handle, name: name, href: root + SitePaths.profile(handle), avatar: avatar,
                        initial: String(name.first.map { String($0).uppercased() } ?? "?"))
    }

    /// The avatar's description: "Alice Kim's profile picture", in the site's language.
    func avatarAlt(_ profile: Profile) -> String {
        messages.text("avatar_alt", ["name": profile.name])
    }

    /// - Parameter load: how the post's first photo loads (the first cards of a page: at once).
    func post(_ post: Post, load: ImageView.Loading = .lazy) -> PostView {
        // A repost draws the original's media (and cover), under its own author, caption and likes.
        let media = site.mediaPost(post)
        let count = media.images.count
        let authorName = site.usersByHandle[media.author]?.name ?? media.author
        // A sensitive post's photo stays behind its cover until asked for: never fetched up front.
        let sensitive = site.isSensitive(post)
        let first = media.images.first.flatMap { images[$0.path] }
        let views: [ImageView] = media.images.enumerated().compactMap { index, source in
            images[source.path].map {
                ImageView($0, alt: altText(source, index: index, count: count, author: authorName), root: root,
                          sizes: Self.slideSizes(scale: first.map($0.slideScale(inBoxOf:)) ?? 1), index: index + 1, count: count,
                          dotLabel: messages.text("photo_of", ["index": messages.language.number(index + 1),
                                                               "count": messages.language.number(count)]),
                          load: index == 0 && !sensitive ? load : .lazy, formats: formats)
            }
        }
        let repost = post.repostOf == nil ? nil : RepostView(
            author: user(media.author), href: root + SitePaths.post(media),
            captionHTML: InternalLink.resolve(media.caption.html, root: root),
            fromHTML: messages.html("reposted_from", ["user": Self.link(root + SitePaths.post(media), media.author)]))
        let reposts = site.reposts[post.key]?.count ?? 0
        let href = root + SitePaths.post(post)
        let actions = PostActionsView(
            likesHref: root + SitePaths.likes(post),
            likeCountText: post.likedBy.isEmpty ? nil : messages.count("like_count", post.likedBy.count),
            commentsHref: post.comments.isEmpty ? href : href + "#comments", shareHref: href,
            saveHref: sensitive ? nil : views.first.map { $0.video?.src ?? $0.src },
            locationHref: post.location.map { root + SitePaths.search(query: $0) })
        return PostView(
            id: post.id, href: href, author: user(post.author),
            dateISO: post.date.rfc3339, dateText: messages.date(post.date), location: post.location,
            captionHTML: InternalLink.resolve(post.caption.html, root: root), captionText: post.caption.plainText,
            images: views, aspect: views.first.map { "\($0.width)/\($0.height)" } ?? "1/1", isCarousel: count > 1,
            imageCount: count, imageCountText: messages.count("photo_count", count), tile: MadeWhenAsked { [self] in tile(post, author: authorName) }, likes: likes(post),
            comments: post.comments.map(comment), commentCount: post.comments.count,
            commentsLinkText: messages.count("view_all_comments", post.comments.count), hasComments: !post.comments.isEmpty,
            tags: post.tagKeys.compactMap(tagLink), sensitive: sensitive, exif: exif(media),
            repost: repost, repostsText: reposts == 0 ? nil : messages.count("reposts", reposts), actions: actions,
            counts: tileCounts(post), captionLong: Self.isLong(post.caption.plainText))
    }

    /// The poster of the post's first slide when that is a video, as its view (`post`) has it;
    /// nil for a photo and for a sensitive post (its cover is drawn, nothing fetched up front).
    func firstPoster(_ post: Post) -> String? {
        guard !site.isSensitive(post), let first = site.mediaPost(post).images.lazy.compactMap({ self.images[$0.path] }).first else { return nil }
        return ImageView.poster(of: first, root: root, formats: formats)
    }

    /// A tile's like and comment counts, shown over it on hover and focus, shortened from 10,000
    /// ("12.3K") in the site's language.
    func tileCounts(_ post: Post) -> TileCountsView {
        TileCountsView(likes: messages.language.compact(post.likedBy.count), comments: messages.language.compact(post.comments.count))
    }

    /// Whether a caption is cut under a card: more than about two lines of a phone's width (as on
    /// Instagram, where a caption past 125 characters is cut), or more than two paragraphs or lines.
    static func isLong(_ text: String) -> Bool {
        // ASCII (most captions) by its bytes, in place: each is a character, but for "\r\n", which
        // is one; the newlines among them are LF, VT, FF and CR. Any other byte: by characters,
        // from the start.
        var bytes = text
        let ascii: Bool? = bytes.withUTF8 { bytes in
            var characters = 0, lines = 1, previous: UInt8 = 0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                defer { previous = byte }
                if byte == 0x0A && previous == 0x0D { continue }
                characters += 1
                if byte >= 0x0A && byte <= 0x0D { lines += 1 }
                if characters > 125 || lines > 2 { return true }
            }
            return false
        }
        return ascii ?? isLong(characters: text)
    }

    static func isLong(characters text: String) -> Bool {
        var characters = 0, lines = 1
        for character in text {
            characters += 1
            if character.isNewline { lines += 1 }
            if characters > 125 || lines > 2 { return true }
        }
        return false
    }

    /// `sizes` of a post's picture: as wide as the carousel (600 CSS pixels at most), or `scale`
    /// times that for a slide cropped to a narrower carousel, so the browser picks a file as wide
    /// as the slide is drawn.
    static func slideSizes(scale: Double) -> String {
        let box = ImageSettings.carouselWidth
        guard scale > 1 else { return "(min-width: 640px) \(box)px, 100vw" }
        return "(min-width: 640px) \(Int((Double(box) * scale).rounded(.up)))px, \(Int((100 * scale).rounded(.up)))vw"
    }

    /// The post's first image (the original's, for a repost) as a square grid tile.
    func tile(_ post: Post, author: String? = nil) -> ImageView? {
        let media = site.mediaPost(post)
        let author = author ?? site.usersByHandle[media.author]?.name ?? media.author
        return media.images.first.flatMap { source in images[source.path] }.map {
            ImageView(square: $0, alt: altText(media.images[0], index: 0, count: media.images.count, author: author),
                      root: root, sizes: "(min-width: 640px) 300px, 33vw", formats: formats)
        }
    }

    /// The allow-listed camera settings of each photo, when the post or site shows them.
    func exif(_ post: Post) -> Section<ExifPhotoView>? {
        guard post.showExif ?? site.config.showExif else { return nil }
        let count = post.images.count
        return .of(post.images.enumerated().compactMap { index, source in
            guard let camera = images[source.path]?.camera else { return nil }
            return ExifPhotoView(label: count > 1 ? messages.text("photo_n", ["index": messages.language.number(index + 1)]) : messages.text("photo"),
                                 items: camera.items.map { ExifItemView(label: $0.label, value: $0.value) })
        })
    }

    func altText(_ source: ImageSource, index: Int, count: Int, author: String) -> String {
        if !source.alt.isEmpty { return source.alt }
        guard count > 1 else { return messages.text(source.isVideo ? "alt_video" : "alt_photo", ["author": author]) }
        return messages.text(source.isVideo ? "alt_video_of" : "alt_photo_of",
                             ["index": messages.language.number(index + 1), "count": messages.language.number(count), "author": author])
    }

    /// "Liked by alfred and 3 others", the others linked to the post's likers page.
    func likes(_ post: Post) -> LikesView? {
        let handles = post.likedBy
        guard let first = handles.first else { return nil }
        let others = handles.count - 1
        let rest = others == 0 ? nil : messages.count("others", others)
        let firstUser = user(first), href = root + SitePaths.likes(post)
        let firstLink = Self.link(firstUser.href, firstUser.handle)
        let text = rest.map { messages.html("liked_by_others", ["user": firstLink, "others": Self.link(href, $0)]) }
            ?? messages.html("liked_by", ["user": firstLink])
        return LikesView(first: firstUser, othersLabel: rest, href: href, users: handles.map(user), count: handles.count, textHTML: text)
    }

    /// A user in a list of people: avatar, handle and name, and what the page adds.
    func person(_ handle: String, mark: String? = nil, details: Bool = false) -> PersonView {
        let profile = site.usersByHandle[handle]
        var counts: String?
        var bio: String?
        if details, let profile {
            let posts = site.postCounts[handle] ?? 0, followers = site.followers[handle]?.count ?? 0
            counts = messages.count("posts_count", posts) + " · " + messages.count("followers_count", followers) + " · "
                + messages.count("following_count", profile.following.count)
            bio = profile.bio.plainText.isEmpty ? nil : SiteRenderer.shorten(profile.bio.plainText, to: 120)
        }
        return PersonView(user: user(handle), mark: mark, counts: counts, bio: bio)
    }

    /// `<a href="…">text</a>`, both escaped: a link to put into a text of `Messages.html`. An
    /// href's `InternalLink.rootMark` is kept (the escaper drops control characters).
    static func link(_ href: String, _ text: String, className: String? = nil) -> String {
        var out: [UInt8] = Array("<a".utf8)
        if let className { out += Array(" class=\"\(className)\"".utf8) }
        out += Array(" href=\"".utf8)
        HTMLBytes.append(href, root: HTMLBytes.rootMark, escaped: true, to: &out)
        out += Array("\">".utf8)
        HTMLBytes.appendEscaped(text, to: &out)
        out += Array("</a>".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    func comment(_ comment: Comment) -> CommentView {
        let date = PostDate.utc(comment.date)
        return CommentView(author: user(comment.author), html: InternalLink.resolve(comment.text.html, root: root),
                           dateISO: date.rfc3339, dateText: messages.date(date))
    }

    func tagLink(_ key: String) -> TagLinkView? {
        guard let tag = site.tagsByKey[key] else { return nil }
        return TagLinkView(name: tag.display, href: root + SitePaths.tag(key), count: tag.postKeys.count,
                           countText: messages.language.number(tag.postKeys.count))
    }
}

