import Foundation
import GramgenCore

/// What happened to a user, derived from the content: followers, likes, comments and mentions.
/// Follows and likes carry no date of their own; likes take their post's date, follows come last.
struct Activity {
    enum Kind: String { case follow, like, comment, mention }

    let kind: Kind
    let actor: String
    let post: Post?
    let date: PostDate?

    static func events(for handle: String, in site: Site) -> [Activity] {
        var events: [Activity] = []
        for post in site.posts {
            if post.author == handle {
                events += post.likedBy.filter { $0 != handle }.map { Activity(kind: .like, actor: $0, post: post, date: post.date) }
                events += post.comments.filter { $0.author != handle }.map {
                    Activity(kind: .comment, actor: $0.author, post: post, date: DateText.utc($0.date))
                }
            } else if post.caption.mentions.contains(handle) {
                events.append(Activity(kind: .mention, actor: post.author, post: post, date: post.date))
            }
            for comment in post.comments where comment.author != handle && comment.text.mentions.contains(handle) {
                events.append(Activity(kind: .mention, actor: comment.author, post: post, date: DateText.utc(comment.date)))
            }
        }
        events.sort { a, b in
            guard let da = a.date, let db = b.date else { return false }
            return da.instant != db.instant ? da.instant > db.instant : a.actor < b.actor
        }
        events += (site.followers[handle] ?? []).map { Activity(kind: .follow, actor: $0, post: nil, date: nil) }
        return events
    }

    func view(_ factory: ViewFactory) -> ActivityView {
        let text: String
        switch kind {
        case .follow: text = "started following you."
        case .like: text = "liked your post."
        case .comment: text = "commented on your post."
        case .mention: text = "mentioned you."
        }
        let postView = post.map { post in
            PostRefView(href: factory.root + SitePaths.post(post), tile: factory.post(post).tile)
        }
        return ActivityView(kind: kind.rawValue, actor: factory.user(actor), text: text, post: postView,
                            dateISO: date.map(DateText.iso), dateText: date.map(DateText.readable))
    }
}
