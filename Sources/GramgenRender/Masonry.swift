import GramgenCore

/// Lays out the explore page at build time: each image goes to the column that is shortest so far,
/// measured by the images' aspect ratios, so no script is needed and nothing moves while loading.
enum Masonry {
    static let columnCount = 3

    /// `key`: each post's key for kept items (`FragmentMemo`), if any.
    static func columns(for posts: [Post], images: [String: ProcessedImage], factory: ViewFactory,
                        count: Int, key: ((Post) -> UInt64)? = nil) -> [MasonryColumnView] {
        var heights = Array(repeating: 0.0, count: count)
        var columns = Array(repeating: [Post](), count: count)
        for post in posts {
            // Reposts show another post's photos, which explore already has.
            guard post.repostOf == nil, let source = post.images.first, let image = images[source.path] else { continue }
            let shortest = heights.indices.min { heights[$0] < heights[$1] } ?? 0
            heights[shortest] += 1 / max(0.05, image.aspectRatio)
            columns[shortest].append(post)
        }
        return columns.map { MasonryColumnView(posts: $0, item: { item($0, images: images, factory: factory) }, key: key) }
    }

    /// A post `columns` placed: it has a first image, processed.
    private static func item(_ post: Post, images: [String: ProcessedImage], factory: ViewFactory) -> MasonryItemView {
        let source = post.images[0]
        let view = ImageView(images[source.path]!, alt: factory.altText(source, index: 0, count: post.images.count,
                                                                        author: site(factory).usersByHandle[post.author]?.name ?? post.author),
                             root: factory.root, sizes: "(min-width: 960px) 320px, 33vw", formats: factory.formats)
        return MasonryItemView(href: factory.root + SitePaths.post(post), image: view, author: post.author, sensitive: post.isSensitive,
                               isCarousel: post.images.count > 1,
                               imageCountText: factory.messages.count("photo_count", post.images.count),
                               counts: factory.tileCounts(post))
    }

    private static func site(_ factory: ViewFactory) -> Site { factory.site }
}
