/// A link to a user, with their avatar when they have one.
final class UserView {
    let handle: String
    let name: String
    let href: String
    let avatar: ImageView?
    let initial: String

    init(handle: String, name: String, href: String, avatar: ImageView?, initial: String) {
        self.handle = handle
        self.name = name
        self.href = href
        self.avatar = avatar
        self.initial = initial
    }
}

/// A post as the templates draw it, with links relative to the page it is on. A class: one post's
/// view is shared by every page at the same depth, and passing it to a template copies no fields.
final class PostView {
    let id: String
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
    let tile: ImageView?
    let likes: LikesView?
    let comments: [CommentView]
    let commentCount: Int
    let hasComments: Bool
    let tags: [TagLinkView]
    let sensitive: Bool
    /// Camera settings per photo, when `show_exif` is on and the photo has any.
    let exif: Section<ExifPhotoView>?
    /// For a repost: the original's author, link and caption (its media are `images`).
    let repost: RepostView?
    /// "2 reposts" when others reposted this post.
    let repostsText: String?

    init(id: String, href: String, author: UserView, dateISO: String, dateText: String, location: String?, captionHTML: String, captionText: String, images: [ImageView], aspect: String, isCarousel: Bool, imageCount: Int, tile: ImageView?, likes: LikesView?, comments: [CommentView], commentCount: Int, hasComments: Bool, tags: [TagLinkView], sensitive: Bool, exif: Section<ExifPhotoView>?, repost: RepostView?, repostsText: String?) {
        self.id = id
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
        self.tile = tile
        self.likes = likes
        self.comments = comments
        self.commentCount = commentCount
        self.hasComments = hasComments
        self.tags = tags
        self.sensitive = sensitive
        self.exif = exif
        self.repost = repost
        self.repostsText = repostsText
    }
}

/// The post a repost shows.
struct RepostView {
    let author: UserView
    let href: String
    let captionHTML: String
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
}

struct CommentView {
    let author: UserView
    let html: String
    let dateISO: String
    let dateText: String
}

struct TagLinkView {
    let name: String
    let href: String
    let count: Int
}

/// Links between numbered pages of a list.
struct PaginationView {
    let current: Int
    let total: Int
    let previousHref: String?
    let nextHref: String?
}

/// A `<link rel="alternate">` for a feed.
struct FeedLinkView {
    let href: String
    let type: String
    let title: String
}

/// Open Graph and Twitter card image.
struct ShareImageView {
    let url: String
    let width: Int
    let height: Int
    let alt: String
}

/// One tab of a profile (Posts, List, Tagged, Following, Activity).
struct TabView {
    let label: String
    let href: String
    let current: Bool
}

/// One line of a user's activity page.
struct ActivityView {
    let kind: String
    let actor: UserView
    let text: String
    let post: PostRefView?
    let dateISO: String?
    let dateText: String?
}

struct PostRefView {
    let href: String
    let tile: ImageView?
    /// The tile must be drawn as a cover (`tile.mustache` reads `sensitive`).
    let sensitive: Bool
}

/// One column of the explore page's masonry.
struct MasonryColumnView {
    let items: [MasonryItemView]
}

struct MasonryItemView {
    let href: String
    let image: ImageView
    let author: String
    /// The post is `sensitive`: the tile shows a cover, never the photo.
    let sensitive: Bool
}
