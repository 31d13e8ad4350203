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
///
/// After an edit, only what it changed is made again: each post's words are taken from the last
/// build's (`SearchMemo`, by the post's digest), and each document file is a job whose inputs are
/// its posts (`PageSet.addSearch`), taken over without its documents being made. A caption edit
/// at 10,000 posts read every caption and made all 460 files of the index (a tenth of the
/// build's CPU); now it reads one caption and makes the word files and one document file.
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

    /// One `d/` file: the documents of some posts, then of some users and hashtags (`others`).
    /// A job of its own (`PageSet.addSearch`) whose inputs are its posts, taken over when they
    /// did not change: its documents are made only when it is drawn.
    struct Chunk {
        let path: String
        let posts: ArraySlice<Post>
        let others: ArraySlice<Document>
    }

    private let site: Site
    private let images: [String: ProcessedImage]
    private let fallback: ImageFormat
    /// The posts, oldest first: documents 0 ..< `postCount`.
    let posts: [Post]
    /// The users' documents (by handle), then the hashtags' (most used first), numbered after the posts.
    let others: [Document]
    let userCount: Int
    let tagCount: Int
    /// Every word of the index, by number, and each one's documents, ascending.
    let words: [String]
    let wordPostings: [[Int32]]
    /// About how many bytes the word files will hold, for the number of shards.
    private let postingBytes: Int

    var postCount: Int { posts.count }

    /// `memo`: each post's words as the last build made them, by the post's digest (`PageDigests`),
    /// which covers everything they are made from; a post whose digest is there is not read again.
    init(site: Site, images: [String: ProcessedImage], formats: [ImageFormat], messages: Messages,
         memo: SearchMemo? = nil, digests: PageDigests? = nil) {
        self.site = site
        self.images = images
        fallback = formats.last ?? .jpeg
        posts = site.posts.reversed()
        var table = WordTable()
        var postings: [[Int32]] = []
        /// The document's words (numbers) listed once each, in the order first met.
        func add(_ number: Int, _ ids: [Int32]) -> [Int32] {
            var unique: [Int32] = []
            unique.reserveCapacity(ids.count)
            for id in ids {
                if Int(id) == postings.count { postings.append([]) }
                guard postings[Int(id)].last != Int32(number) else { continue }
                postings[Int(id)].append(Int32(number))
                unique.append(id)
            }
            return unique
        }
        let kept = digests.flatMap { memo?.begin(site: $0.site) }
        // A kept word's number in this build, made when it is first met (-1 until then).
        var renumbered = [Int32](repeating: -1, count: kept?.words.count ?? 0)
        // Each post's words by its digest, for the memo (a table only when the memo takes it).
        var made: [(digest: UInt64, words: [Int32])] = [], reused = 0
        if memo != nil { made.reserveCapacity(posts.count) }
        for (number, post) in posts.enumerated() {
            let digest = digests?.digest(of: post)
            let ids: [Int32]
            if let digest, let kept, let old = kept.posts[digest] {
                ids = old.map { word in
                    if renumbered[Int(word)] < 0 { renumbered[Int(word)] = table.number(kept.words[Int(word)]) }
                    return renumbered[Int(word)]
                }
                reused += 1
            } else {
                let media = site.mediaPost(post)
                let text = [post.caption.plainText, post.location ?? "", media.images.map(\.alt).joined(separator: " ")]
                    .joined(separator: " ")
                ids = SearchText.words(text).map { table.number($0) }
            }
            let unique = add(number, ids)
            if memo != nil, let digest { made.append((digest, unique)) }
        }
        var others: [Document] = []
        for user in site.users {
            let count = site.postCounts[user.handle] ?? 0
            _ = add(posts.count + others.count, SearchText.words(user.handle + " " + user.name).map { table.number($0) })
            others.append(Document(kind: "u", title: user.handle, detail: user.name + " · " + messages.count("posts_count", count),
                                   href: SitePaths.profile(user.handle), image: Self.square(user.avatar.flatMap { images[$0.path] }, fallback)))
        }
        let tags = site.tags.filter { !$0.postKeys.isEmpty }
            .sorted { $0.postKeys.count != $1.postKeys.count ? $0.postKeys.count > $1.postKeys.count : $0.key < $1.key }
        for tag in tags {
            _ = add(posts.count + others.count, SearchText.words(tag.display).map { table.number($0) })
            others.append(Document(kind: "t", title: "#" + tag.display, detail: messages.count("posts_count", tag.postKeys.count),
                                   href: SitePaths.tag(tag.key), image: nil))
        }
        // Every post's words from the memo, and as many posts as it holds: it holds this build's
        // words already (under its own numbers), and is not written again.
        if let digests, let memo {
            let unchanged = reused == posts.count && reused == kept?.posts.count
            memo.keep(unchanged ? nil : .init(words: table.words, posts: Dictionary(made, uniquingKeysWith: { first, _ in first })),
                      site: digests.site, reused: reused)
        }
        self.others = others
        words = table.words
        wordPostings = postings
        postingBytes = zip(table.words, postings).reduce(0) { $0 + $1.0.utf8.count + 8 + 4 * $1.1.count }
        userCount = site.users.count
        tagCount = tags.count
    }

    /// Words by number, each given the next number when first met.
    private struct WordTable {
        var words: [String] = []
        var numbers: [String: Int32] = [:]

        mutating func number(_ word: String) -> Int32 {
            if let number = numbers[word] { return number }
            let number = Int32(words.count)
            numbers[word] = number
            words.append(word)
            return number
        }
    }

    /// The square picture of the fallback format (every browser shows it), by its path under the root.
    private static func square(_ image: ProcessedImage?, _ format: ImageFormat) -> String? {
        image?.squares.first { $0.format == format }.map { SitePaths.media($0.file) }
    }

    /// A post's document: a sensitive post has no picture.
    func document(of post: Post) -> Document {
        let media = site.mediaPost(post)
        let image = site.isSensitive(post) ? nil : media.images.first.flatMap { Self.square(images[$0.path], fallback) }
        return Document(kind: "p", title: post.author, detail: SiteRenderer.shorten(post.caption.plainText, to: 90),
                        href: SitePaths.post(post), image: image)
    }

    /// Every document, in number order.
    var documents: [Document] { posts.map(document(of:)) + others }

    /// Each word's documents, by word.
    var postings: [String: [Int]] {
        Dictionary(uniqueKeysWithValues: zip(words, wordPostings.map { $0.map(Int.init) }))
    }

    /// `items` written one after the other, separated by commas (the index is compact JSON).
    private static func join<Item>(_ items: some Collection<Item>, into out: inout [UInt8], _ write: (Item, inout [UInt8]) -> Void) {
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            write(item, &out)
        }
    }

    /// The word files, by path.
    func wordFiles() -> [(path: String, contents: [UInt8])] {
        let shardCount = max(1, min(4096, postingBytes / Self.shardTarget + 1))
        var shards = Array(repeating: [Int](), count: shardCount)
        for (number, word) in words.enumerated() { shards[SearchText.shard(of: word, count: shardCount)].append(number) }
        return shards.enumerated().map { shard, numbers in
            let sorted = numbers.sorted { words[$0] < words[$1] }
            var out = Array("{\"w\":[".utf8)
            Self.join(sorted, into: &out) { JSONWriter.writeString(words[$0], into: &$1) }
            out += Array("],\"p\":[".utf8)
            Self.join(sorted, into: &out) { number, out in
                out.append(UInt8(ascii: "["))
                var previous: Int32 = 0
                Self.join(wordPostings[number], into: &out) { value, out in
                    JSONWriter.writeInteger(Int(value - previous), into: &out)
                    previous = value
                }
                out.append(UInt8(ascii: "]"))
            }
            out += Array("]}".utf8)
            return (SitePaths.searchWords(shard), out)
        }
    }

    /// The document files, `chunkSize` documents each.
    var chunks: [Chunk] {
        stride(from: 0, to: posts.count + others.count, by: Self.chunkSize).map { start in
            let end = min(posts.count + others.count, start + Self.chunkSize)
            return Chunk(path: SitePaths.searchDocuments(start / Self.chunkSize),
                         posts: posts[min(start, posts.count)..<min(end, posts.count)],
                         others: others[max(0, start - posts.count)..<max(0, end - posts.count)])
        }
    }

    /// What a document file shows: its posts (their digests cover their documents) and the
    /// other documents as they are.
    func inputs(of chunk: Chunk) -> PageInputs {
        PageInputs(scope: .posts(Array(chunk.posts)),
                   notes: chunk.others.map { [$0.kind, $0.title, $0.detail, $0.href, $0.image ?? "-"].joined(separator: "\u{0}") })
    }

    /// What a document file is made from, for the index's version: its posts' digests (their
    /// own content, which the site-wide inputs' digest is not: it names this very gramgen, and
    /// the version would differ between two builds of the same site) and its other documents;
    /// without digests, its bytes.
    func addVersion(of chunk: Chunk, digests: PageDigests?, to version: inout DigestBuilder) {
        guard let digests else { return version.add(contents(of: chunk)) }
        for post in chunk.posts { version.add(digests.digest(of: post)) }
        for note in inputs(of: chunk).notes { version.add(note) }
    }

    /// A document file's bytes: `[kind, title, detail, href, image]` for each of its documents.
    func contents(of chunk: Chunk) -> [UInt8] {
        var out = Array("[".utf8)
        Self.join(chunk.posts.map(document(of:)) + chunk.others, into: &out) { document, out in
            out.append(UInt8(ascii: "["))
            Self.join([document.kind, document.title, document.detail, document.href], into: &out) {
                JSONWriter.writeString($0, into: &$1)
            }
            out.append(UInt8(ascii: ","))
            if let image = document.image { JSONWriter.writeString(image, into: &out) } else { out += Array("null".utf8) }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// `search/meta.json`: counts, and `version`, a digest of what every other file of the index
    /// is made from (see `PageSet.addSearch`).
    func meta(version: DigestBuilder, shards: Int) -> [UInt8] {
        Array(("{\"version\":\"\(version.hex.prefix(12))\",\"users\":\(userCount),\"tags\":\(tagCount),"
            + "\"posts\":\(postCount),\"shards\":\(shards),\"chunk\":\(Self.chunkSize)}").utf8)
    }

    /// Every file of the index, by path, the version made from their bytes (for a caller
    /// without digests; `PageSet.addSearch` draws the document files as jobs).
    func files() -> [(path: String, contents: [UInt8])] {
        var files = wordFiles()
        let shards = files.count
        files += chunks.map { ($0.path, contents(of: $0)) }
        var version = DigestBuilder()
        for file in files { version.add(file.contents) }
        files.append((SitePaths.searchMeta, meta(version: version, shards: shards)))
        return files
    }
}

/// What the search index made of each post in the last build: its words, by the post's digest
/// (`PageDigests`), which covers everything they are made from (its post.md, its images and
/// their processing, a repost's original). All of it is dropped when the site-wide inputs
/// change. `gramgen serve` keeps it in memory; a one-off build reads it from the cache folder and
/// writes it back (`save`), so an edit reads the words of the posts it changed, not of 10,000.
/// Used from one thread at a time (the index is made on one).
public final class SearchMemo: @unchecked Sendable {
    /// Every word, by number, and each post's words as those numbers.
    struct Kept {
        var words: [String]
        var posts: [UInt64: [Int32]]
    }

    private let lock = NSLock()
    private var site: UInt64?
    private var kept = Kept(words: [], posts: [:])
    private var lastReused = 0
    /// `keep` was called since the memo was read or written.
    private var changed = false

    public init() {}

    /// Posts the last build took from here.
    public var reused: Int { lock.withLock { lastReused } }

    /// What the last build kept, when its site-wide digest was `site`.
    func begin(site: UInt64) -> Kept? {
        lock.withLock { self.site == site ? kept : nil }
    }

    /// This build's words, for the next one (`site` as given to `begin`); nil when they are the
    /// ones `begin` gave.
    func keep(_ kept: Kept?, site: UInt64, reused: Int) {
        lock.withLock {
            lastReused = reused
            guard let kept else { return }
            self.site = site
            self.kept = kept
            changed = true
        }
    }

    public func clear() {
        lock.withLock {
            site = nil
            kept = Kept(words: [], posts: [:])
            lastReused = 0
        }
    }

    private static let magic = "gramgen search 1"
    /// 256 MiB: far beyond the words of a million posts.
    static let maxBytes = 1 << 28

    /// Reads what `save` wrote with the same `salt` (`KeptFile`); anything else, or a file with a
    /// word number out of range, leaves the memo empty.
    public func restore(from path: String, salt: String) {
        guard var reader = KeptFile.reader(atPath: path, limit: Self.maxBytes, magic: Self.magic, salt: salt),
              let (site, kept) = try? Self.decode(&reader) else { return }
        lock.withLock {
            self.site = site
            self.kept = kept
            changed = false
        }
    }

    private static func decode(_ reader: inout ByteReader) throws -> (UInt64, Kept) {
        let site = try reader.word()
        let words = try reader.strings()
        let count = try reader.count()
        var posts: [UInt64: [Int32]] = [:]
        posts.reserveCapacity(count)
        for _ in 0..<count {
            let digest = try reader.word()
            posts[digest] = try reader.list { reader in
                let number: Int = try reader.int()
                guard number >= 0, number < words.count else { throw ByteReader.Malformed() }
                return Int32(number)
            }
        }
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return (site, Kept(words: words, posts: posts))
    }

    /// Writes what the last build kept, when it kept anything since the memo was read.
    public func save(to path: String, salt: String) {
        let taken = lock.withLock { () -> (site: UInt64, kept: Kept)? in
            guard changed, let site else { return nil }
            changed = false
            return (site, kept)
        }
        guard let (site, kept) = taken else { return }
        var writer = KeptFile.writer(magic: Self.magic, salt: salt)
        writer.word(site)
        writer.strings(kept.words)
        writer.int(kept.posts.count)
        for (digest, words) in kept.posts {
            writer.word(digest)
            writer.list(words) { $0.int(Int($1)) }
        }
        KeptFile.write(writer, toPath: path)
    }
}
