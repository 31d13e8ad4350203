/// One line of a user's activity page.
struct ActivityView {
    let kind: String
    let actor: UserView
    /// "<a class="handle">ann</a> liked your post.", in the site's language.
    let textHTML: String
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
