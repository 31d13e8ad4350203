import Foundation
import GramgenCore

/// The search index under `search/`, written at build time and read by `search.js`, split so a
/// query downloads only what it needs (the way Pagefind splits its index):
///
/// - `search/meta.json`: counts, the number of word files, the size of a document chunk, and a
///   version that changes with the index (appended to every fetch, so caches never mix builds).
/// - `search/w/<n>.json`: `{"w": [words, sorted], "p": [postings]}` for the words whose first two
///   characters hash to `n` (`SearchText.shard`); a posting lists document numbers, ascending,
///   each as the difference from the one before.
/// - `search/d/<k>.json`: documents `k × chunk` … as `[kind, title, detail, href, image]`, kind
///   `p` (post), `u` (user) or `t` (hashtag); `href` and `image` relative to the site root.
///
/// Documents are numbered posts (oldest first), then users (by handle), then hashtags (most used
/// first), so the number alone ranks a result within its kind (a later post is a newer one). A
/// new post, numbered after every other, moves only the few users and hashtags after it: with
/// the newest post first, every document moved by one and a new post rewrote every chunk file
/// (420 at 10,000 posts).
struct SearchIndex {
    /// About this many bytes of words and postings per word file.
    static let shardTarget = 24_000
    /// Documents per `d/` file: a page of results needs a few of them.
    static let chunkSize = 24

    struct Document {
        let kind: String
        let title: String
        let detail: String
        let href: String
        let image: String?
    }

    let documents: [Document]
    let postCount: Int
    let userCount: Int
    let tagCount: Int
    /// Each word's documents, ascending; made as documents are added, so no document keeps its
    /// words (on a big site they were the index's largest part in memory).
    let postings: [String: [Int]]
    /// About how many bytes the word files will hold, for the number of shards.
    private let postingBytes: Int

    init(site: Site, images: [String: ProcessedImage], formats: [ImageFormat], messages: Messages,
         memo: SearchMemo? = nil, digests: PageDigests? = nil) {
        let fallback = formats.last ?? .jpeg
        func square(_ image: ProcessedImage?) -> String? {
            image?.squares.first { $0.format == fallback }.map { SitePaths.media($0.file) }
        }
        var documents: [Document] = []
        var postings: [String: [Int]] = [:]
        /// A word met again in the same document is listed once (its postings end with this
        /// document already): no set of each document's words is made. Returns the words
        /// without repeats.
        @discardableResult
        func add(_ document: Document, words: [String]) -> [String] {
            let number = documents.count
            documents.append(document)
            var unique: [String] = []
            unique.reserveCapacity(words.count)
            for word in words where postings[word, default: []].appendUnlessLast(number) { unique.append(word) }
            return unique
        }
        // A post's document and words come from its own inputs and the site-wide ones: with the
        // same digests as in the last build of this process, they are taken from `memo`.
        let kept = digests.flatMap { memo?.begin(site: $0.site) }
        var made: [String: SearchMemo.Entry] = [:], reused = 0
        if kept != nil { made.reserveCapacity(site.posts.count) }
        for post in site.posts.reversed() {
            let digest = digests?.digest(of: post)
            if let digest, let entry = kept?[post.key], entry.digest == digest {
                add(entry.document, words: entry.words)
                made[post.key] = entry
                reused += 1
                continue
            }
            let media = site.mediaPost(post)
            let text = [post.caption.plainText, post.location ?? "", media.images.map(\.alt).joined(separator: " ")]
                .joined(separator: " ")
            let image = site.isSensitive(post) ? nil : media.images.first.flatMap { square(images[$0.path]) }
            let document = Document(kind: "p", title: post.author, detail: SiteRenderer.shorten(post.caption.plainText, to: 90),
                                    href: SitePaths.post(post), image: image)
            let words = add(document, words: SearchText.words(text))
            if kept != nil, let digest { made[post.key] = .init(digest: digest, document: document, words: words) }
        }
        for user in site.users {
            let count = site.postCounts[user.handle] ?? 0
            add(Document(kind: "u", title: user.handle, detail: user.name + " · " + messages.count("posts_count", count),
                         href: SitePaths.profile(user.handle), image: square(user.avatar.flatMap { images[$0.path] })),
                words: SearchText.words(user.handle + " " + user.name))
        }
        let tags = site.tags.filter { !$0.postKeys.isEmpty }
            .sorted { $0.postKeys.count != $1.postKeys.count ? $0.postKeys.count > $1.postKeys.count : $0.key < $1.key }
        for tag in tags {
            add(Document(kind: "t", title: "#" + tag.display, detail: messages.count("posts_count", tag.postKeys.count),
                         href: SitePaths.tag(tag.key), image: nil),
                words: SearchText.words(tag.display))
        }
        if let digests, kept != nil { memo?.keep(made, site: digests.site, reused: reused) }
        self.documents = documents
        self.postings = postings
        postingBytes = postings.reduce(0) { $0 + $1.key.utf8.count + 8 + 4 * $1.value.count }
        postCount = site.posts.count
        userCount = site.users.count
        tagCount = tags.count
    }

    /// `items` written one after the other, separated by commas (the index is compact JSON).
    private static func join<Item>(_ items: [Item], into out: inout [UInt8], _ write: (Item, inout [UInt8]) -> Void) {
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            write(item, &out)
        }
    }

    /// Every file of the index, by path.
    func files() -> [(path: String, contents: [UInt8])] {
        let shardCount = max(1, min(4096, postingBytes / Self.shardTarget + 1))
        var shards = Array(repeating: [String](), count: shardCount)
        for word in postings.keys { shards[SearchText.shard(of: word, count: shardCount)].append(word) }
        var files: [(String, [UInt8])] = []
        var version = DigestBuilder()
        for (number, words) in shards.enumerated() {
            let sorted = words.sorted()
            var out = Array("{\"w\":[".utf8)
            Self.join(sorted, into: &out) { JSONWriter.writeString($0, into: &$1) }
            out += Array("],\"p\":[".utf8)
            Self.join(sorted, into: &out) { word, out in
                out.append(UInt8(ascii: "["))
                var previous = 0
                Self.join(postings[word] ?? [], into: &out) { value, out in
                    JSONWriter.writeInteger(value - previous, into: &out)
                    previous = value
                }
                out.append(UInt8(ascii: "]"))
            }
            out += Array("]}".utf8)
            version.add(out)
            files.append((SitePaths.searchWords(number), out))
        }
        for start in stride(from: 0, to: documents.count, by: Self.chunkSize) {
            var out = Array("[".utf8)
            Self.join(Array(documents[start..<min(documents.count, start + Self.chunkSize)]), into: &out) { document, out in
                out.append(UInt8(ascii: "["))
                Self.join([document.kind, document.title, document.detail, document.href], into: &out) {
                    JSONWriter.writeString($0, into: &$1)
                }
                out.append(UInt8(ascii: ","))
                if let image = document.image { JSONWriter.writeString(image, into: &out) } else { out += Array("null".utf8) }
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
            version.add(out)
            files.append((SitePaths.searchDocuments(start / Self.chunkSize), out))
        }
        let meta = "{\"version\":\"\(version.hex.prefix(12))\",\"users\":\(userCount),\"tags\":\(tagCount),"
            + "\"posts\":\(postCount),\"shards\":\(shardCount),\"chunk\":\(Self.chunkSize)}"
        files.append((SitePaths.searchMeta, Array(meta.utf8)))
        return files
    }
}

private extension Array where Element == Int {
    /// Appends `number` unless it is already the last element; whether it did.
    mutating func appendUnlessLast(_ number: Int) -> Bool {
        guard last != number else { return false }
        append(number)
        return true
    }
}

/// What the search index made of each post in the last build of this process (`gramgen serve`):
/// its document and words, by post key, with the post's page digest (`PageDigests`), which covers
/// everything they are made from (its post.md, its images and their processing, a repost's
/// original). All of it is dropped when the site-wide inputs change. Used from one thread at a
/// time (the index is made on one).
public final class SearchMemo: @unchecked Sendable {
    struct Entry {
        var digest: UInt64
        var document: SearchIndex.Document
        /// Unique, in no particular order.
        var words: [String]
    }

    private let lock = NSLock()
    private var site: UInt64?
    private var entries: [String: Entry] = [:]
    private var lastReused = 0

    public init() {}

    /// Posts the last build took from here.
    public var reused: Int { lock.withLock { lastReused } }

    /// The entries of the last build, when its site-wide digest was `site` (else none).
    func begin(site: UInt64) -> [String: Entry] {
        lock.withLock { self.site == site ? entries : [:] }
    }

    /// This build's entries, for the next one (`site` as given to `begin`).
    func keep(_ made: [String: Entry], site: UInt64, reused: Int) {
        lock.withLock {
            self.site = site
            entries = made
            lastReused = reused
        }
    }

    public func clear() {
        lock.withLock {
            site = nil
            entries = [:]
            lastReused = 0
        }
    }
}
