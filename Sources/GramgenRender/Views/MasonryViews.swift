import GramgenCore

/// One column of the explore page's masonry: its posts, each one's view made only when a template
/// draws it (a kept item is copied without it, `FragmentMemo`, by `key`).
struct MasonryColumnView: TemplateObjectList {
    let posts: [Post]
    let item: (Post) -> MasonryItemView
    let key: ((Post) -> UInt64)?

    var count: Int { posts.count }
    func item(_ index: Int) -> TemplateValue { .object(item(posts[index])) }
    func memoKey(_ index: Int) -> UInt64? { key?(posts[index]) }
}

struct MasonryItemView {
    let href: String
    let image: ImageView
    let author: String
    /// The post is `sensitive`: the tile shows a cover, never the photo.
    let sensitive: Bool
    let isCarousel: Bool
    /// "3 photos", for the carousel badge.
    let imageCountText: String
    let counts: TileCountsView
}
