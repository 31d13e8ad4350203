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
    let isCarousel: Bool
    /// "3 photos", for the carousel badge.
    let imageCountText: String
    let counts: TileCountsView
}
