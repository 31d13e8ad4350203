import Foundation
import GramgenCore

/// What happened to a user, derived from the content: followers, likes, comments, mentions and reposts.
/// Follows and likes carry no date of their own; likes take their post's date, follows come last.
/// The page is public, so it speaks of the user in the third person ("ann liked bo's post"); the
/// likes of one post are one line ("ann and 2 others liked …"), and a comment is quoted.
struct Activity {
    enum Kind: String { case follow, like, comment, mention, repost }

    let kind: Kind
    let actor: String
    /// The post's key.
    let post: String?
    let date: PostDate?
    /// A comment's text, plain, for the quote.
    var text: String? = nil
    /// Who else liked the post (likes of one post are one event).
    var others: [String] = []

    /// The longest quote of a comment, in characters; longer ones end in "…".
    static let quoteLength = 80

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
                                                            date: PostDate.utc(comment.date), text: comment.text.plainText))
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
            list = grouped(list)
            list += (site.followers[handle] ?? []).map { Activity(kind: .follow, actor: $0, post: nil, date: nil) }
            events[handle] = list
        }
        return events
    }

    /// The likes of each post as one event, at the place of its first like (they share the post's date).
    static func grouped(_ events: [Activity]) -> [Activity] {
        var result: [Activity] = []
        var likeOf: [String: Int] = [:]
        for event in events {
            if event.kind == .like, let post = event.post {
                if let index = likeOf[post] {
                    result[index].others.append(event.actor)
                    continue
                }
                likeOf[post] = result.count
            }
            result.append(event)
        }
        return result
    }

    /// What a page of events reads: the posts they are about (their digests cover likes, comments
    /// and photos), the events themselves and `notes` (what else the page shows: the number of
    /// pages, the profile's post count), so a page is drawn again only when something on it would
    /// change, not on every edit anywhere in the site.
    /// The events go in as one digest of their fields, not a line of text each: the lines, their
    /// dates written out, were a twentieth of a `gramgen serve` rebuild's work at 10,000 posts.
    static func inputs(_ events: [Activity], site: Site, notes: [String]) -> PageInputs {
        var posts: [Post] = [], seen = Set<String>()
        var digest = DigestBuilder()
        digest.add(UInt64(events.count))
        for event in events {
            if let key = event.post, seen.insert(key).inserted, let post = site.postsByKey[key] { posts.append(post) }
            digest.add(event.kind.rawValue)
            digest.add(event.actor)
            digest.add(UInt64(event.others.count))
            for other in event.others { digest.add(other) }
            // Each optional field as a mark of whether it is there, then its value.
            digest.add(event.post == nil ? 0 : 1)
            if let post = event.post { digest.add(post) }
            digest.add(event.date == nil ? 0 : 1)
            if let date = event.date {
                digest.add(date.instant.timeIntervalSince1970.bitPattern)
                digest.add(UInt64(bitPattern: Int64(date.utcOffsetSeconds)))
            }
            digest.add(event.text == nil ? 0 : 1)
            if let text = event.text { digest.add(text) }
        }
        return PageInputs(scope: .posts(posts), notes: notes + ["events " + digest.hex])
    }

    /// The event as a line of `owner`'s activity page.
    func view(_ factory: ViewFactory, owner: String) -> ActivityView {
        let actorView = factory.user(actor), ownerView = factory.user(owner)
        let messages = factory.messages
        let post = self.post.flatMap { factory.site.postsByKey[$0] }
        var values: KeyValuePairs<String, String> = [
            "user": ViewFactory.link(actorView.href, actorView.handle, className: "handle"),
            "owner": ViewFactory.link(ownerView.href, ownerView.handle, className: "handle"),
            "text": Escape.html(text.map { SiteRenderer.shorten($0, to: Self.quoteLength) } ?? ""),
        ]
        var key = "activity_" + kind.rawValue
        if !others.isEmpty, let post {
            key = "activity_like_others"
            values = ["user": values[0].value, "owner": values[1].value,
                      "others": ViewFactory.link(factory.root + SitePaths.likes(post), messages.count("others", others.count))]
        }
        let textHTML = messages.html(key, values)
        let postView = post.map { post in
            PostRefView(href: factory.root + SitePaths.post(post), tile: factory.tile(post), sensitive: factory.site.isSensitive(post))
        }
        return ActivityView(kind: kind.rawValue, actor: actorView, textHTML: textHTML, post: postView,
                            dateISO: date.map(\.rfc3339), dateText: date.map(factory.messages.date))
    }
}
