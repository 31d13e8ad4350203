struct TagLinkView {
    let name: String
    let href: String
    let count: Int
    /// The count in the language's digits.
    let countText: String
    /// The tag's place in alphabetical order (the tags page lists them by count; CSS `order`
    /// puts them by name when the reader asks, without script).
    var nameRank: Int = 0
}

/// Links between numbered pages of a list.
struct PaginationView {
    let current: Int
    let total: Int
    /// "Page 2 of 5", in the site's language.
    let label: String
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
