import GramgenCore

/// What the build read, as digests, so pages can tell whether they would come out the same:
/// `site` covers everything every page may show (configuration, theme, options, every profile and
/// handle, name, avatar and follows), `posts` each post's own sources (its post.md, its images
/// and how they were processed), `profiles` what only a user's profile pages and the people
/// directory show of them (bio, website, location): editing a bio redraws those pages only.
public struct RenderInputs: Sendable {
    public var site: String
    /// Each post's digest by its place in the site's posts (`Site.posts`): not a table by key,
    /// 10,000 texts and look-ups a rebuild at 10,000 posts.
    public var posts: [UInt64]
    public var profiles: [String: String]

    public init(site: String, posts: [UInt64], profiles: [String: String]) {
        self.site = site
        self.posts = posts
        self.profiles = profiles
    }
}

/// What one page or feed file reads beyond the site-wide inputs: some posts (in order) or all of
/// them, the users whose profile details it shows, and any other values it shows (page numbers,
/// counts, titles).
struct PageInputs {
    enum Scope {
        case everything
        case posts([Post])
    }

    var scope: Scope
    var notes: [String]
    var profiles: [String] = []

    static let everything = PageInputs(scope: .everything, notes: [])

    static func posts(_ posts: [Post], _ notes: String...) -> PageInputs {
        PageInputs(scope: .posts(posts), notes: notes)
    }

    func adding(_ note: String) -> PageInputs {
        var inputs = self
        inputs.notes.append(note)
        return inputs
    }

    /// The page shows these users' bios, websites or locations.
    func showing(_ handles: [String]) -> PageInputs {
        var inputs = self
        inputs.profiles += handles
        return inputs
    }
}

/// Digests of page inputs. A post's digest also covers what its views show of other posts:
/// the display form of each of its hashtags, and their post counts when a template shows them
/// (`Theme.showsTagCounts`).
struct PageDigests {
    let site: UInt64
    /// Each post's digest by its place in `Site.posts`.
    private let byPlace: [UInt64]
    /// The same by `Post.identity`: a page job looks up each post it shows, 200,000 look-ups at
    /// 10,000 posts, and hashing a pointer costs a fraction of hashing and comparing a key.
    private let byIdentity: [ObjectIdentifier: UInt64]
    /// `Site.postIndexByKey`, for a post of the site in another copy (`digest(of:)`).
    private let places: [String: Int]
    let profiles: [String: UInt64]
    let everything: UInt64

    /// `parallel`: each post's own digest is made on all cores (an O(site) pass of every rebuild).
    init(_ inputs: RenderInputs, site: Site, tagCounts: Bool, parallel: Parallel = Parallel(jobs: 1)) {
        var base = DigestBuilder()
        base.add(inputs.site)
        self.site = base.value
        var all = DigestBuilder()
        // Digests made for other posts than these are not used: a value of this build alone
        // stands for each source then, so every page comes out changed and is drawn.
        let sources = inputs.posts.count == site.posts.count
            ? inputs.posts : [UInt64](repeating: .random(in: .min ... .max), count: site.posts.count)
        let own = site.posts.withUnsafeBufferPointer { posts in
            parallel.map(count: posts.count) { Self.ownDigest(posts[$0], source: sources[$0], site: site, tagCounts: tagCounts) }
        }
        // Each post's digest by its place in `site.posts`. Originals first: a repost shows its
        // original (media, caption, cover), so its digest covers the original's; an original
        // shows how often it was reposted. `made`: the places given a digest so far.
        var digests = [UInt64](repeating: 0, count: site.posts.count)
        var made = [Bool](repeating: false, count: site.posts.count)
        for (index, post) in site.posts.enumerated() where post.repostOf == nil {
            var digest = own[index]
            digest.add(UInt64(site.reposts[post.key]?.count ?? 0))
            (digests[index], made[index]) = (digest.value, true)
        }
        for (index, post) in site.posts.enumerated() {
            guard let original = post.repostOf else { continue }
            var digest = own[index]
            digest.add(site.postIndexByKey[original].flatMap { made[$0] ? digests[$0] : nil } ?? 0)
            (digests[index], made[index]) = (digest.value, true)
        }
        for digest in digests { all.add(digest) }
        byIdentity = Dictionary(zip(site.posts.lazy.map(\.identity), digests), uniquingKeysWith: { _, last in last })
        byPlace = digests
        places = site.postIndexByKey
        all.add(UInt64(site.tags.count))
        for tag in site.tags {
            all.add(tag.key)
            all.add(UInt64(tag.postKeys.count))
        }
        var profiles: [String: UInt64] = [:]
        for user in site.users {
            var digest = DigestBuilder()
            digest.add(inputs.profiles[user.handle] ?? "")
            profiles[user.handle] = digest.value
            all.add(digest.value)
        }
        self.profiles = profiles
        everything = all.value
    }

    /// A post's own sources and its hashtags' display forms (and counts).
    private static func ownDigest(_ post: Post, source: UInt64, site: Site, tagCounts: Bool) -> DigestBuilder {
        var digest = DigestBuilder()
        digest.add(post.key)
        digest.add(source)
        for key in post.tagKeys {
            let tag = site.tagsByKey[key]
            digest.add(key)
            digest.add(tag?.display ?? "")
            if tagCounts { digest.add(UInt64(tag?.postKeys.count ?? 0)) }
        }
        return digest
    }

    /// The digest of the post at `place` in `Site.posts`.
    func digest(at place: Int) -> UInt64 { byPlace[place] }

    /// The post's digest (0 for a post the site does not have).
    func digest(of post: Post) -> UInt64 {
        byIdentity[post.identity] ?? places[post.key].map { byPlace[$0] } ?? 0
    }

    func digest(_ file: String, _ inputs: PageInputs, site: Site) -> UInt64 {
        var digest = DigestBuilder()
        digest.add(self.site)
        digest.add(file)
        for note in inputs.notes { digest.add(note) }
        digest.add(UInt64(inputs.profiles.count))
        for handle in inputs.profiles { digest.add(profiles[handle] ?? 0) }
        switch inputs.scope {
        case .everything:
            digest.add(everything)
        case .posts(let list):
            digest.add(UInt64(list.count))
            for post in list { digest.add(self.digest(of: post)) }
        }
        return digest.value
    }
}
