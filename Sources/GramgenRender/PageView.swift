import GramgenCore

/// Everything one page template sees. The layout fields are always set; the content fields
/// are set by the page kinds that use them (a template shows a section only when it is set).
/// A class: each of a page's seventy look-ups of a field (`FieldTable`) handed the view to the
/// field's reader as a copy, and a copy of a struct of fifty fields is fifty counts taken and
/// dropped (with the copying, 3% of a pages-only build's instructions).
final class PageView {
    // Layout
    let lang: String
    /// `ltr`, or `rtl` for a language written right to left.
    let dir: String
    /// The theme's texts: `{{t.key}}`.
    let t: MessagesView
    let siteTitle: String
    let title: String
    let description: String
    let canonical: String
    let root: String
    /// The home page's link (`./` on the home page itself, where `root` is empty).
    var homeHref: String { SitePaths.home(root: root) }
    let stylesheet: String
    let script: String
    let feeds: [FeedLinkView]
    let share: ShareImageView?
    let navHome: Bool
    let navExplore: Bool
    let navTags: Bool
    let navSearch: Bool
    let navPeople: Bool
    /// `search.js` with its content hash, for the search page.
    let searchScript: String
    /// `pages.css` with its content hash, for every page but the home feed.
    let pagesStylesheet: String
    /// The site's icons and manifest (`WebApp`): the tab's icon and its type, Apple's
    /// home-screen icon (nothing when the site has no picture to make it from), the manifest.
    let faviconHref: String
    let faviconType: String
    let touchIconHref: String?
    let manifestHref: String
    /// The site's logo beside its title, when it has `content/logo.*`.
    let logo: LogoView?
    /// The service worker to register (`offline: true`), or nothing.
    let serviceWorker: String?

    init(lang: String, dir: String, t: MessagesView, siteTitle: String, title: String, description: String, canonical: String, root: String, stylesheet: String, script: String, feeds: [FeedLinkView], share: ShareImageView?, navHome: Bool, navExplore: Bool, navTags: Bool, navSearch: Bool, navPeople: Bool, searchScript: String, pagesStylesheet: String, faviconHref: String, faviconType: String, touchIconHref: String?, manifestHref: String, logo: LogoView?, serviceWorker: String?) {
        self.lang = lang
        self.dir = dir
        self.t = t
        self.siteTitle = siteTitle
        self.title = title
        self.description = description
        self.canonical = canonical
        self.root = root
        self.stylesheet = stylesheet
        self.script = script
        self.feeds = feeds
        self.share = share
        self.navHome = navHome
        self.navExplore = navExplore
        self.navTags = navTags
        self.navSearch = navSearch
        self.navPeople = navPeople
        self.searchScript = searchScript
        self.pagesStylesheet = pagesStylesheet
        self.faviconHref = faviconHref
        self.faviconType = faviconType
        self.touchIconHref = touchIconHref
        self.manifestHref = manifestHref
        self.logo = logo
        self.serviceWorker = serviceWorker
    }

    // Content
    var heading: String? = nil
    /// Posts drawn as full cards (home, list, feed).
    var posts: PostList? = nil
    /// Posts drawn as square tiles (profile, tagged, hashtag).
    var grid: PostList? = nil
    var post: PostView? = nil
    var profile: ProfileHeaderView? = nil
    var tabs: [TabView]? = nil
    var tags: [TagLinkView]? = nil
    var columns: [MasonryColumnView]? = nil
    var activity: Section<ActivityView>? = nil
    /// Users listed (people directory, followers, follows, likers).
    var people: Section<PersonView>? = nil
    /// Tabs below the heading of a page that is not a profile (explore: posts, people).
    var subnav: Section<TabView>? = nil
    /// The post page: the author's previous (older) and next (newer) posts, and more of theirs.
    var previousPost: PostLinkView? = nil
    var nextPost: PostLinkView? = nil
    var more: PostList? = nil
    var moreHeading: String? = nil
    /// A line under the heading (a hashtag's post count).
    var subheading: String? = nil
    /// A hashtag's most liked and commented posts, above its newest (page 1).
    var top: PostList? = nil
    /// A link back to where the list belongs (a post's likers: the post).
    var backHref: String? = nil
    var backLabel: String? = nil
    var pagination: PaginationView? = nil
    var empty: String? = nil
    /// The search page: the script's texts as JSON, and the text shown without script.
    var searchTexts: String? = nil
    var searchNoscriptHTML: String? = nil

    /// When the page's first picture is a video's poster: fetched first (`<link rel="preload">`),
    /// as a `<video>` cannot ask for priority itself.
    var preloadPoster: String? {
        if let post { return post.sensitive ? nil : post.images.first?.video?.poster }
        return posts?.firstPoster
    }
}

/// The logo in the top bar: the 32 px icon, and the 180 px one for 2× screens.
struct LogoView {
    let src: String
    let src2x: String
}

/// The top of a profile page.
struct ProfileHeaderView {
    var user: UserView
    let bioHTML: String
    let website: String?
    let websiteLabel: String?
    let location: String?
    let postCount: Int
    let followerCount: Int
    let followingCount: Int
    /// "<strong>12</strong> posts" and the like, in the site's language (the count compact above 9,999).
    let postsHTML: String
    let followersHTML: String
    let followingHTML: String
    let feedHref: String
    let followersHref: String
    let followsHref: String
}

/// A user in a list of people.
struct PersonView {
    let user: UserView
    /// "Follows you" or "Mutual", on a user's followers and follows lists.
    let mark: String?
    /// "12 posts · 4 followers · 3 following", in the people directory.
    let counts: String?
    /// The start of the bio, in the people directory.
    let bio: String?
}

/// A link to another post with its tile, from the post's shared view (`href` and `tile` rooted).
struct PostLinkView {
    let href: String
    let label: String
    let tile: ImageView?
    /// The tile must be drawn as a cover (`tile.mustache` reads `sensitive`).
    let sensitive: Bool
}

/// Posts a page lists as cards or tiles (a template's `items`), each one's view made only when a
/// template draws it: an item kept from an earlier page or build is copied without it
/// (`FragmentMemo`, by `key`). Views are shared by the pages of every depth (`view`,
/// `SiteRenderer.postView`); the first `eager` cards are copies whose first photo loads at once
/// (`SiteRenderer.cards`).
struct PostList {
    let posts: [Post]
    let view: (Post) -> PostView
    let eager: Int
    let key: ((Post) -> UInt64)?
    /// A post's first video poster (`ViewFactory.firstPoster`): asked of the first card, whose
    /// view a page whose cards are all kept never makes (it took 2% of a new post's build).
    let poster: (Post) -> String?

    /// Nil when empty, so the wrapper is not drawn.
    static func of(_ posts: [Post], view: @escaping (Post) -> PostView, eager: Int = 0, key: ((Post) -> UInt64)?,
                   poster: @escaping (Post) -> String?) -> PostList? {
        posts.isEmpty ? nil : PostList(posts: posts, view: view, eager: eager, key: key, poster: poster)
    }

    func view(at index: Int) -> PostView {
        let shared = view(posts[index])
        guard index < eager else { return shared }
        return shared.loading(index == 0 ? .priority : .eager)
    }

    /// The first card's video poster, to fetch first (`PageView.preloadPoster`).
    var firstPoster: String? { posts.first.flatMap(poster) }
}

/// A list a template wraps in its own element; nil when empty, so the wrapper is not drawn.
struct Section<Item> {
    let items: [Item]

    static func of(_ items: [Item]) -> Section? { items.isEmpty ? nil : Section(items: items) }
}
