import Foundation
import GramgenCore

/// A post as the templates draw it, its links relative to the site's root, which starts as
/// `InternalLink.rootMark` (`TemplateValue.rooted`). A class: one post's view is shared by every
/// page that shows it, whatever its depth, and passing it to a template copies no fields.
final class PostView {
    let id: String
    /// A short name for the post's slides on a page (`#p1a2b3c4d-2`), the same on every page. Made
    /// once: the template reads it for every slide and dot of the carousel.
    let anchor: String
    let href: String
    let author: UserView
    let dateISO: String
    let dateText: String
    let location: String?
    let captionHTML: String
    let captionText: String
    let images: [ImageView]
    /// The first image's "width/height": the whole carousel takes this shape (CSS `aspect-ratio`),
    /// and later images of another shape are cropped to it, as on Instagram.
    let aspect: String
    let isCarousel: Bool
    let imageCount: Int
    /// "3 photos", in the site's language.
    let imageCountText: String
    /// Its grid tile, made when a template first asks for it: a feed's card reads it only for a
    /// sensitive post, and two cards of each page a new post moves are drawn anew (their views
    /// made: the tile was a fifth of a view's making).
    var tile: ImageView? { tileWhenAsked.value }
    private let tileWhenAsked: MadeWhenAsked<ImageView?>
    let likes: LikesView?
    let comments: [CommentView]
    let commentCount: Int
    /// "View comments (3)", in the site's language.
    let commentsLinkText: String
    let hasComments: Bool
    let tags: [TagLinkView]
    let sensitive: Bool
    /// Camera settings per photo, when `show_exif` is on and the photo has any.
    let exif: Section<ExifPhotoView>?
    /// For a repost: the original's author, link and caption (its media are `images`).
    let repost: RepostView?
    /// "2 reposts" when others reposted this post.
    let repostsText: String?
    /// The action row (`actions.mustache`): who liked it, its comments, the first photo's (or
    /// video's) largest file to save (nil for a sensitive post), the location's search.
    var actions: PostActionsView
    /// The last two comments, shown under a card; `commentsLinkText` links to all of them.
    var recentComments: [CommentView] { Array(comments.suffix(2)) }
    /// More comments than a card shows.
    var hasMoreComments: Bool { commentCount > 2 }
    /// A caption long enough to be cut to two lines under a card, with "… more".
    let captionLong: Bool
    /// Shown over the post's tile on hover and focus.
    let counts: TileCountsView

    init(id: String, href: String, author: UserView, dateISO: String, dateText: String, location: String?, captionHTML: String, captionText: String, images: [ImageView], aspect: String, isCarousel: Bool, imageCount: Int, imageCountText: String, tile: MadeWhenAsked<ImageView?>, likes: LikesView?, comments: [CommentView], commentCount: Int, commentsLinkText: String, hasComments: Bool, tags: [TagLinkView], sensitive: Bool, exif: Section<ExifPhotoView>?, repost: RepostView?, repostsText: String?, actions: PostActionsView, counts: TileCountsView, captionLong: Bool) {
        self.id = id
        anchor = "p" + ContentHash.hex(Data((author.handle + "/" + id).utf8)).prefix(8)
        self.href = href
        self.author = author
        self.dateISO = dateISO
        self.dateText = dateText
        self.location = location
        self.captionHTML = captionHTML
        self.captionText = captionText
        self.images = images
        self.aspect = aspect
        self.isCarousel = isCarousel
        self.imageCount = imageCount
        self.imageCountText = imageCountText
        tileWhenAsked = tile
        self.likes = likes
        self.comments = comments
        self.commentCount = commentCount
        self.commentsLinkText = commentsLinkText
        self.hasComments = hasComments
        self.tags = tags
        self.sensitive = sensitive
        self.exif = exif
        self.repost = repost
        self.repostsText = repostsText
        self.actions = actions
        self.captionLong = captionLong
        self.counts = counts
    }
}

extension PostView {
    /// The same post with its first picture loaded as `load` (a page's first cards load theirs at
    /// once): a copy sharing every other field with this view, not a view made again (two of each
    /// page's cards were, a fifth of a pages-only build's views). A sensitive post's stays lazy.
    func loading(_ load: ImageView.Loading) -> PostView {
        guard !sensitive, let first = images.first, first.load != load else { return self }
        return PostView(id: id, href: href, author: author, dateISO: dateISO, dateText: dateText, location: location,
                        captionHTML: captionHTML, captionText: captionText, images: [first.loading(load)] + images.dropFirst(),
                        aspect: aspect, isCarousel: isCarousel, imageCount: imageCount, imageCountText: imageCountText,
                        tile: tileWhenAsked, likes: likes, comments: comments, commentCount: commentCount,
                        commentsLinkText: commentsLinkText, hasComments: hasComments, tags: tags, sensitive: sensitive,
                        exif: exif, repost: repost, repostsText: repostsText, actions: actions, counts: counts,
                        captionLong: captionLong)
    }
}

/// A post's like and comment counts as a tile shows them.
struct TileCountsView {
    let likes: String
    let comments: String
}

/// Links of a post's action row and the count beside them.
struct PostActionsView {
    /// The likers page.
    let likesHref: String
    /// "12 likes", in the site's language; nil when nobody liked the post.
    let likeCountText: String?
    /// The post's comments (its page, at `#comments` when it has any).
    let commentsHref: String
    /// The post page, to copy or share.
    let shareHref: String
    /// The largest file of the first photo (or the video), to download; nil for a sensitive post.
    let saveHref: String?
    /// The search page for the post's location.
    let locationHref: String?
}

/// The post a repost shows.
struct RepostView {
    let author: UserView
    let href: String
    let captionHTML: String
    /// "Reposted from <a>ann</a>", in the site's language.
    let fromHTML: String
}

struct ExifPhotoView {
    let label: String
    let items: [ExifItemView]
}

struct ExifItemView {
    let label: String
    let value: String
}

struct LikesView {
    let first: UserView
    /// "3 others", linked to the likers page; nil when one user liked the post.
    let othersLabel: String?
    /// The page listing everyone who liked the post.
    let href: String
    let users: [UserView]
    let count: Int
    /// "Liked by <a>alfred</a> and <a>3 others</a>", in the site's language.
    let textHTML: String
}

struct CommentView {
    let author: UserView
    let html: String
    let dateISO: String
    let dateText: String
}

/// A value made the first time it is asked for, once, whichever thread asks first (a view is
/// shared by the pages of its depth, drawn on every core).
final class MadeWhenAsked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: Value?
    private var make: (() -> Value)?

    init(_ make: @escaping () -> Value) {
        self.make = make
    }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let value = make!()
        made = value
        make = nil
        return value
    }
}
