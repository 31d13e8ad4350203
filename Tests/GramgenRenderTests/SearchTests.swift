import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

/// How search cuts text into words, and what the index holds. `search.js` repeats `SearchText`;
/// the browser test (`Tests/browser/check_site.py`) checks the two agree on real queries.
struct SearchTests {
    @Test("Latin: lower case, accents dropped, split at anything not a letter or digit")
    func latin() {
        #expect(SearchText.words("Crème BRÛLÉE, café-au-lait!") == ["creme", "brulee", "cafe", "au", "lait"])
        #expect(SearchText.words("kai.climbs @mina_park #Summer2024") == ["kai", "climbs", "mina", "park", "summer2024"])
        #expect(SearchText.words("Ｆｕｌｌ ｗｉｄｔｈ") == ["full", "width"])
        #expect(SearchText.words("São Paulo · Ελλάδα · Москва́") == ["sao", "paulo", "ελλαδα", "москва"])
    }

    @Test("ASCII words take a short path that gives exactly the tokens of the general one (seeded)")
    func asciiPath() {
        var random = SeededRandom.forTest("SearchTests.asciiPath")
        let ascii = Array("abcXYZ019 .,#@_-'\t\n!?()[]/\\\"~`^|")
        let other: [Character] = ["é", "\u{301}", "Σ", "ς", "İ", "ß", "ﬁ", "Ａ", "１", "노", "을", "東", "京", "ー", "😀", "🇰🇷", "\u{200D}", "\u{00A0}", "·"]
        for _ in 0..<3000 {
            let text = String((0..<Int.random(in: 0...40, using: &random)).map { _ in
                Int.random(in: 0..<5, using: &random) == 0 ? other.randomElement(using: &random)! : ascii.randomElement(using: &random)!
            })
            #expect(SearchText.tokens(text) == SearchText.unicodeTokens(text), "\(text.debugDescription)")
        }
        let all = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(SearchText.tokens(all) == SearchText.unicodeTokens(all))
    }

    @Test("Korean, Japanese and Chinese: two-character pieces, so any part of two or more characters finds the word")
    func cjk() {
        #expect(SearchText.words("서울역에서") == ["서울", "울역", "역에", "에서"])
        #expect(SearchText.words("서울") == ["서울"])
        #expect(SearchText.words("東京タワー") == ["東京", "京タ", "タワ", "ワー"])
        #expect(SearchText.words("北京烤鸭") == ["北京", "京烤", "烤鸭"])
        // Kana voicing marks are part of the letter (が is not か); Hangul stays composed.
        #expect(SearchText.words("がっこう") == ["がっ", "っこ", "こう"])
        // A change of script splits a word: "seoul서울" is two.
        #expect(SearchText.words("seoul서울2024") == ["seoul", "서울", "2024"])
    }

    @Test("a word's file depends only on its first two characters")
    func shards() {
        #expect(SearchText.shard(of: "creme", count: 64) == SearchText.shard(of: "crepe", count: 64))
        #expect(SearchText.shard(of: "서울", count: 64) == SearchText.shard(of: "서울역", count: 64))
        #expect(SearchText.shard(of: "anything", count: 1) == 0)
        // FNV-1a over UTF-16 units, as search.js computes it: "cr" is 1160345184, "서울" 4056577049.
        #expect(SearchText.shard(of: "crepe", count: 1000) == 184)
        #expect(SearchText.shard(of: "서울역", count: 1000) == 49)
    }

    @Test("the index: documents numbered posts (oldest first), users, hashtags; every word's postings point at its documents")
    func index() throws {
        var config = SiteConfig()
        config.images.formats = [.jpeg]
        let date = PostDate(instant: Date(timeIntervalSince1970: 1_700_000_000), utcOffsetSeconds: 0)
        func post(_ id: String, _ author: String, _ text: String, tags: [String], sensitive: Bool = false) -> Post {
            Post(id: id, author: author, date: date, location: "Seoul", images: [], caption: RichText(html: text, plainText: text),
                 tagKeys: tags, likedBy: [], comments: [], isDraft: false, isSensitive: sensitive, sourcePath: "x")
        }
        let users = [Profile(handle: "ann", name: "Ann Lee", bio: RichText(plainText: "Cafés in 서울"), website: nil, location: nil,
                             following: [], avatar: nil, sourcePath: "x")]
        let posts = [post("b", "ann", "Crème brûlée night #dessert", tags: ["dessert"]),
                     post("a", "ann", "Morning walk", tags: [], sensitive: true)]
        let site = Site(config: config, users: users, posts: posts,
                        tags: [Hashtag(key: "dessert", display: "Dessert", postKeys: ["ann/b"])])
        let index = SearchIndex(site: site, images: [:], formats: [.jpeg], messages: Messages(config: site.config))
        // Posts oldest first (b is the newer: the site lists it first), then users, then hashtags.
        #expect(index.documents.map(\.kind) == ["p", "p", "u", "t"])
        #expect(index.documents.map(\.href) == ["ann/p/a/", "ann/p/b/", "ann/", "tags/dessert/"])
        #expect(index.postings.filter { $0.value.contains(2) }.keys.sorted() == ["ann", "lee"], "handle and name; the bio is not searched")
        let files = Dictionary(uniqueKeysWithValues: index.files().map { ($0.path, $0.contents) })
        let meta = try #require(JSONSerialization.jsonObject(with: Data(files["search/meta.json"] ?? [])) as? [String: Any])
        #expect(meta["users"] as? Int == 1 && meta["tags"] as? Int == 1 && meta["posts"] as? Int == 2 && meta["shards"] as? Int == 1)
        let words = try #require(JSONSerialization.jsonObject(with: Data(files["search/w/0.json"] ?? [])) as? [String: Any])
        let list = try #require(words["w"] as? [String]), postings = try #require(words["p"] as? [[Int]])
        #expect(list == list.sorted())
        func documents(_ word: String) -> [Int] {
            guard let i = list.firstIndex(of: word) else { return [] }
            var n = 0
            return postings[i].map { n += $0; return n }
        }
        #expect(documents("dessert") == [1, 3])
        #expect(documents("seoul") == [0, 1])
        #expect(documents("ann") == [2])
        let chunk = try #require(JSONSerialization.jsonObject(with: Data(files["search/d/0.json"] ?? [])) as? [[Any]])
        #expect(chunk.count == 4)
        #expect(chunk[0][4] is NSNull, "a sensitive post has no picture in the results")
    }

    @Test("the index stays split at scale: 5,000 posts of random words give small word files and chunks (seeded)")
    func sizes() throws {
        var random = SeededRandom.forTest("SearchTests.sizes")
        let syllables = Array("가나다라마바사아자차카타파하서울부산강산바다")
        let latin = (0..<3000).map { n in String((0..<(3 + n % 8)).map { _ in "abcdefghijklmnoprstuvy".randomElement(using: &random)! }) }
        let korean = (0..<800).map { _ in String((0..<3).map { _ in syllables.randomElement(using: &random)! }) }
        let date = PostDate(instant: Date(timeIntervalSince1970: 1_700_000_000), utcOffsetSeconds: 0)
        let users = (0..<200).map { n in
            Profile(handle: "user\(n)", name: "User \(n)", bio: RichText(), website: nil, location: nil, following: [], avatar: nil, sourcePath: "x")
        }
        let posts = (0..<5000).map { n -> Post in
            let words = (0..<20).map { _ in Bool.random(using: &random) ? latin.randomElement(using: &random)! : korean.randomElement(using: &random)! }
            let text = words.joined(separator: " ")
            return Post(id: "p\(n)", author: "user\(n % 200)", date: date, location: nil, images: [],
                        caption: RichText(html: text, plainText: text), tagKeys: [], likedBy: [], comments: [],
                        isDraft: false, isSensitive: false, sourcePath: "x")
        }
        let index = SearchIndex(site: Site(config: SiteConfig(), users: users, posts: posts, tags: []), images: [:], formats: [.jpeg],
                                messages: Messages(config: SiteConfig()))
        let files = index.files()
        let words = files.filter { $0.path.hasPrefix("search/w/") }.map(\.contents.count)
        let chunks = files.filter { $0.path.hasPrefix("search/d/") }.map(\.contents.count)
        #expect(words.count > 16, "split into many word files: \(words.count)")
        #expect((words.max() ?? 0) <= 2 * SearchIndex.shardTarget, "largest word file \(words.max() ?? 0) bytes")
        #expect((chunks.max() ?? 0) <= 6_000, "largest document chunk \(chunks.max() ?? 0) bytes")
        // What search.js downloads for the most common word, and for three words at once: the word
        // files of the query, and the chunks holding the first 8 people and 30 posts it shows.
        let sizes = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.contents.count) })
        let shardCount = words.count
        let postings = index.postings.mapValues(Set.init)
        func downloaded(_ query: [String]) -> Int {
            var matches = postings[query[0]] ?? []
            for word in query.dropFirst() { matches.formIntersection(postings[word] ?? []) }
            let ranked = matches.sorted()
            // People first, then posts, newest (the highest numbers) first, as search.js ranks them.
            let shown = ranked.filter { $0 >= index.postCount }.prefix(8) + ranked.filter { $0 < index.postCount }.reversed().prefix(30)
            let chunkFiles = Set(shown.map { "search/d/\($0 / SearchIndex.chunkSize).json" })
            let wordFiles = Set(query.map { "search/w/\(SearchText.shard(of: $0, count: shardCount)).json" })
            return (chunkFiles.union(wordFiles)).reduce(0) { $0 + (sizes[$1] ?? 0) }
        }
        let common = try #require(postings.max { $0.value.count < $1.value.count }?.key)
        #expect(downloaded([common]) <= 300_000, "'\(common)': \(downloaded([common])) bytes")
        let three = (0..<3).map { _ in latin.randomElement(using: &random)! }
        #expect(downloaded(three) <= 300_000, "\(three): \(downloaded(three)) bytes")
    }

    @Test("a new post changes only the document files from the newest posts on (users and hashtags follow them), not every one")
    func newPostKeepsChunks() {
        let users = (0..<30).map { n in
            Profile(handle: "user\(n)", name: "User \(n)", bio: RichText(), website: nil, location: nil, following: [], avatar: nil, sourcePath: "x")
        }
        func post(_ n: Int) -> Post {
            let date = PostDate(instant: Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 3600), utcOffsetSeconds: 0)
            return Post(id: "p\(n)", author: "user\(n % 30)", date: date, location: nil, images: [],
                        caption: RichText(html: "Walk \(n)", plainText: "Walk \(n)"), tagKeys: [], likedBy: [], comments: [],
                        isDraft: false, isSensitive: false, sourcePath: "x")
        }
        func chunks(_ count: Int) -> [String: [UInt8]] {
            let posts = (0..<count).reversed().map(post)  // newest first, as a site lists them
            let index = SearchIndex(site: Site(config: SiteConfig(), users: users, posts: posts, tags: []), images: [:],
                                    formats: [.jpeg], messages: Messages(config: SiteConfig()))
            return Dictionary(uniqueKeysWithValues: index.files().filter { $0.path.hasPrefix("search/d/") }.map { ($0.path, $0.contents) })
        }
        let before = chunks(500), after = chunks(501)
        let changed = after.filter { before[$0.key] != $0.value }.keys.sorted()
        // 500 posts fill 20 chunks of 24 and 20 places of the 21st; the new post takes the 21st's
        // next place and moves the 30 users after it by one, in the 21st to 23rd chunks.
        #expect(before.count == 23 && after.count == 23)
        #expect(changed == ["search/d/20.json", "search/d/21.json", "search/d/22.json"], "\(changed)")
    }

    @Test("a post's words are taken from the memo by its digest, kept on disk between builds; a changed post is read again; a memo of another salt or with a word out of range is not used")
    func memoOnDisk() throws {
        let users = (0..<5).map { n in
            Profile(handle: "user\(n)", name: "User \(n)", bio: RichText(), website: nil, location: nil, following: [], avatar: nil, sourcePath: "x")
        }
        func post(_ n: Int, _ text: String) -> Post {
            let date = PostDate(instant: Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 3600), utcOffsetSeconds: 0)
            return Post(id: "p\(n)", author: "user\(n % 5)", date: date, location: nil, images: [],
                        caption: RichText(html: text, plainText: text), tagKeys: [], likedBy: [], comments: [],
                        isDraft: false, isSensitive: false, sourcePath: "x")
        }
        let posts = (0..<60).reversed().map { post($0, "Walk \($0) by the river") }
        func site(_ posts: [Post]) -> Site { Site(config: SiteConfig(), users: users, posts: posts, tags: []) }
        func digests(_ posts: [Post]) -> PageDigests {
            // A post's source is its caption here: its digest changes with it.
            let site = site(posts)
            let inputs = RenderInputs(site: "site", posts: site.posts.map { DigestBuilder.unordered(CollectionOfOne($0.caption.plainText)) },
                                      profiles: [:])
            return PageDigests(inputs, site: site, tagCounts: false)
        }
        func index(_ posts: [Post], memo: SearchMemo?) -> SearchIndex {
            SearchIndex(site: site(posts), images: [:], formats: [.jpeg], messages: Messages(config: SiteConfig()),
                        memo: memo, digests: memo == nil ? nil : digests(posts))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-search-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("search-memo").path

        let first = SearchMemo()
        _ = index(posts, memo: first)
        first.save(to: file, salt: "one")
        var edited = posts
        edited[7] = post(52, "Run 52 in the snow")
        let second = SearchMemo()
        second.restore(from: file, salt: "one")
        let again = index(edited, memo: second)
        #expect(second.reused == posts.count - 1, "every post but the edited one from the memo: \(second.reused)")
        let fresh = index(edited, memo: nil)
        #expect(again.postings == fresh.postings)
        #expect(again.postings["snow"] == [52] && again.postings["river"]?.contains(52) == false, "post 52 is document 52 (oldest first)")
        #expect(again.wordFiles().map(\.contents) == fresh.wordFiles().map(\.contents))
        #expect(again.files().map(\.contents) == fresh.files().map(\.contents))
        // Nothing changed since: every post's words from the memo, and the same index.
        let unchanged = index(edited, memo: second)
        #expect(second.reused == posts.count)
        #expect(unchanged.files().map(\.contents) == fresh.files().map(\.contents))

        let otherSalt = SearchMemo()
        otherSalt.restore(from: file, salt: "two")
        _ = index(edited, memo: otherSalt)
        #expect(otherSalt.reused == 0)

        // A word number past the list of words: the file is not used at all.
        var writer = KeptFile.writer(magic: "gramgen search 1", salt: "one")
        writer.word(digests(posts).site)
        writer.strings(["walk"])
        writer.int(2)
        writer.word(digests(posts).digest(of: posts[0]))
        writer.list([0]) { $0.int($1) }
        writer.word(digests(posts).digest(of: posts[1]))
        writer.list([0, 1]) { $0.int($1) }
        KeptFile.write(writer, toPath: file)
        let forged = SearchMemo()
        forged.restore(from: file, salt: "one")
        let fromForged = index(posts, memo: forged)
        #expect(forged.reused == 0)
        #expect(fromForged.postings == index(posts, memo: nil).postings)
    }
}
