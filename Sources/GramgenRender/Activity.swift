import Foundation
import GramgenCore

/// What happened to a user, derived from the content: followers, likes, comments, mentions and reposts.
/// Follows and likes carry no date of their own; likes take their post's date, follows come last.
struct Activity {
    enum Kind: String { case follow, like, comment, mention, repost }

    let kind: Kind
    let actor: String
    /// The post's key.
    let post: String?
    let date: PostDate?

    /// Every user's events, newest first, from one pass over the posts.
    static func all(in site: Site) -> [String: [Activity]] {
        var events: [String: [Activity]] = [:]
        for index in site.posts.indices {
            let key = site.posts[index].key, author = site.posts[index].author, date = site.posts[index].date
            for liker in site.posts[index].likedBy where liker != author {
                events[author, default: []].append(Activity(kind: .like, actor: liker, post: key, date: date))
            }
            for comment in site.posts[index].comments where comment.author != author {
                events[author, default: []].append(Activity(kind: .comment, actor: comment.author, post: key,
                                                            date: PostDate.utc(comment.date)))
            }
            if let original = site.posts[index].repostOf.flatMap({ site.postsByKey[$0] }), original.author != author {
                events[original.author, default: []].append(Activity(kind: .repost, actor: author, post: original.key, date: date))
            }
            for handle in Set(site.posts[index].caption.mentions) where handle != author {
                events[handle, default: []].append(Activity(kind: .mention, actor: author, post: key, date: date))
            }
            for comment in site.posts[index].comments {
                for handle in Set(comment.text.mentions) where handle != comment.author {
                    events[handle, default: []].append(Activity(kind: .mention, actor: comment.author, post: key,
                                                                date: PostDate.utc(comment.date)))
                }
            }
        }
        for handle in Set(events.keys).union(site.followers.keys) {
            var list = events[handle] ?? []
            list.sort { a, b in
                guard let da = a.date, let db = b.date else { return false }
                return da.instant != db.instant ? da.instant > db.instant : a.actor < b.actor
            }
            list += (site.followers[handle] ?? []).map { Activity(kind: .follow, actor: $0, post: nil, date: nil) }
            events[handle] = list
        }
        return events
    }

    func view(_ factory: ViewFactory) -> ActivityView {
        let actorView = factory.user(actor)
        let text = factory.messages.html("activity_" + kind.rawValue,
                                         ["user": ViewFactory.link(actorView.href, actorView.handle, className: "handle")])
        let postView = post.flatMap { factory.site.postsByKey[$0] }.map { post in
            PostRefView(href: factory.root + SitePaths.post(post), tile: factory.tile(post), sensitive: factory.site.isSensitive(post))
        }
        return ActivityView(kind: kind.rawValue, actor: actorView, textHTML: text, post: postView,
                            dateISO: date.map(\.rfc3339), dateText: date.map(factory.messages.date))
    }
}
