import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

/// A view with whatever fields a test needs; `shared` names the fields that are the same on every page.
private struct Fields: TemplateObject {
    var values: [String: TemplateValue]
    var shared: [String] = []
    var context: UInt64 = 0
    func field(_ name: String) -> TemplateValue { values[name] ?? .missing }
    var sharedMask: FieldMask { FieldMask(shared.map { FieldName($0).number }) }
    var memoContext: UInt64 { context }
}

/// A list whose items have memo keys.
private struct Keyed: TemplateObjectList {
    let names: [String]
    var count: Int { names.count }
    func item(_ index: Int) -> TemplateValue { .object(Fields(values: ["name": .text(names[index])])) }
    func memoKey(_ index: Int) -> UInt64? {
        var digest = DigestBuilder()
        digest.add(names[index])
        return digest.value
    }
}

/// A list whose items hold a link of a view shared by pages of every depth (`TemplateValue.rooted`).
private struct Linked: TemplateObjectList {
    let names: [String]
    var count: Int { names.count }
    func item(_ index: Int) -> TemplateValue {
        .object(Fields(values: ["name": .text(names[index]), "href": .rooted(InternalLink.rootMark + names[index] + "/")]))
    }
    func memoKey(_ index: Int) -> UInt64? { Keyed(names: names).memoKey(index) }
}

/// `FragmentMemo`: list items drawn once and copied after, on other pages and in later builds.
struct FragmentMemoTests {
    private func render(_ template: String, _ page: Fields, root: String = "", memo: FragmentMemo) throws -> String {
        let renderer = TemplateRenderer(templates: ["page": try TemplateParser(template).parse(),
                                                    "item": try TemplateParser("<{{name}}>").parse()])
        return String(decoding: try #require(renderer.render("page", .object(page), root: root, memo: memo)), as: UTF8.self)
    }

    @Test("an item with links is kept once for pages of every depth, each page's root written into it as it is drawn or copied")
    func everyDepth() throws {
        let page = Fields(values: ["list": .objects(Linked(names: ["ann", "bo"]))])
        let template = "{{#list}}<a href=\"{{href}}\">{{name}}</a>{{/list}}"
        let memo = FragmentMemo()
        #expect(try render(template, page, root: "../../", memo: memo) == "<a href=\"../../ann/\">ann</a><a href=\"../../bo/\">bo</a>")
        #expect(memo.counts == (copied: 0, kept: 2))
        #expect(try render(template, page, memo: memo) == "<a href=\"ann/\">ann</a><a href=\"bo/\">bo</a>")
        #expect(try render(template, page, root: "../", memo: memo) == "<a href=\"../ann/\">ann</a><a href=\"../bo/\">bo</a>")
        #expect(memo.counts == (copied: 4, kept: 2))
        // Drawn without a memo, the same bytes.
        #expect(try render(template, page, root: "../", memo: FragmentMemo(budget: 0)) == "<a href=\"../ann/\">ann</a><a href=\"../bo/\">bo</a>")
    }

    @Test("an item that reads only itself and the page's shared fields is kept and copied; one that reads anything else of the page is drawn on every page")
    func purity() throws {
        let list = TemplateValue.objects(Keyed(names: ["ann", "bo", "cy"]))
        let memo = FragmentMemo()
        let pure = "{{#list}}{{> item}}{{t}}|{{/list}}"
        let a = Fields(values: ["list": list, "t": .text("!"), "title": .text("A")], shared: ["t"])
        #expect(try render(pure, a, memo: memo) == "<ann>!|<bo>!|<cy>!|")
        #expect(memo.counts == (copied: 0, kept: 3))
        memo.startBuild()
        var b = a
        b.values["title"] = .text("B")
        #expect(try render(pure, b, memo: memo) == "<ann>!|<bo>!|<cy>!|")
        #expect(memo.counts == (copied: 3, kept: 0))

        // The page's title read inside the item: each page draws its own.
        let impure = "{{#list}}{{name}}{{title}}|{{/list}}"
        let other = FragmentMemo()
        #expect(try render(impure, a, memo: other) == "annA|boA|cyA|")
        #expect(try render(impure, b, memo: other) == "annB|boB|cyB|")
        #expect(other.counts == (copied: 0, kept: 0))
        // A field not shared, even when the page lacks it, is the page's to answer.
        var unshared = a
        unshared.shared = []
        #expect(try render(pure, unshared, memo: FragmentMemo()) == "<ann>!|<bo>!|<cy>!|")
        let checked = FragmentMemo()
        _ = try render(pure, unshared, memo: checked)
        #expect(checked.counts.kept == 0)

        // A field the page sums up in its context: kept, and copied only onto a page of the same context.
        let flagged = "{{#list}}{{name}}{{#flag}}*{{/flag}}|{{/list}}"
        let on = Fields(values: ["list": list, "flag": .flag(true)], shared: ["flag"], context: 1)
        let off = Fields(values: ["list": list, "flag": .flag(false)], shared: ["flag"], context: 2)
        let contexts = FragmentMemo()
        #expect(try render(flagged, on, memo: contexts) == "ann*|bo*|cy*|")
        #expect(try render(flagged, off, memo: contexts) == "ann|bo|cy|")
        #expect(try render(flagged, on, memo: contexts) == "ann*|bo*|cy*|")
        #expect(contexts.counts == (copied: 3, kept: 6))
    }

    @Test("a server's memo over seven eighths of its budget drops the items used least recently, down to three quarters; the items of a small build's few pages do not push out the rest")
    func leastRecentlyUsed() throws {
        // Items of 13 bytes ("<item00001>!|"), a budget of 1,600: dropped above 1,400, down to 1,200.
        let names = (1...120).map { String(format: "item%05d", $0) }
        let template = "{{#list}}{{> item}}{{t}}|{{/list}}"
        func page(_ range: [String]) -> Fields {
            Fields(values: ["list": .objects(Keyed(names: range)), "t": .text("!")], shared: ["t"])
        }
        let memo = FragmentMemo(budget: 1_600)
        let all = Array(names[0..<100])
        let drawn = try render(template, page(all), memo: FragmentMemo())
        #expect(try render(template, page(all), memo: memo) == drawn)
        #expect(memo.counts == (copied: 0, kept: 100))  // 1,300 bytes: nothing dropped
        memo.startBuild()
        // A small build: five of the items, and twenty new ones (1,560 bytes).
        _ = try render(template, page(Array(names[0..<5]) + Array(names[100..<120])), memo: memo)
        #expect(memo.counts == (copied: 5, kept: 20))
        memo.startBuild()
        // 28 of the 95 items the small build did not use are dropped (1,196 bytes left); the rest are copied.
        #expect(try render(template, page(all), memo: memo) == drawn)
        #expect(memo.counts == (copied: 72, kept: 28))
        memo.startBuild()
        // The 20 items only the small build used are now the least recently used: dropped first.
        // (Which 8 of the 100 the third build used went with them is arbitrary: they tie.)
        _ = try render(template, page(Array(names[100..<120])), memo: memo)
        #expect(memo.counts == (copied: 0, kept: 20))
    }

    @Test("a one-off build's memo, once full, drops the items it kept first to keep new ones; a server's keeps no more until its next build")
    func oneOffDropsOldest() throws {
        // Items of 13 bytes: 650 bytes hold 50 of them.
        let names = (1...100).map { String(format: "item%05d", $0) }
        let template = "{{#list}}{{> item}}{{t}}|{{/list}}"
        func page(_ range: ArraySlice<String>) -> Fields {
            Fields(values: ["list": .objects(Keyed(names: Array(range))), "t": .text("!")], shared: ["t"])
        }
        let oneOff = FragmentMemo(budget: 1_600, memoryBudget: 650, dropsOldest: true)
        let drawn = try render(template, page(names[...]), memo: FragmentMemo())
        #expect(try render(template, page(names[...]), memo: oneOff) == drawn)
        #expect(oneOff.counts == (copied: 0, kept: 100))
        // The last 50 are at hand, the first 50 were dropped for them.
        #expect(try render(template, page(names[50...]), memo: oneOff) == String(drawn.dropFirst(50 * 13)))
        #expect(oneOff.counts == (copied: 50, kept: 100))
        #expect(try render(template, page(names[..<10]), memo: oneOff) == String(drawn.prefix(10 * 13)))
        #expect(oneOff.counts == (copied: 50, kept: 110), "drawn again, and kept in place of the 10 oldest")
        // Without dropping: the first 50 are kept and the rest drawn every time.
        let server = FragmentMemo(budget: 1_600, memoryBudget: 650)
        #expect(try render(template, page(names[...]), memo: server) == drawn)
        #expect(try render(template, page(names[50...]), memo: server) == String(drawn.dropFirst(50 * 13)))
        #expect(server.counts == (copied: 0, kept: 50))
        #expect(try render(template, page(names[..<50]), memo: server) == String(drawn.prefix(50 * 13)))
        #expect(server.counts == (copied: 50, kept: 50))
    }

    /// Records the order pages are put in.
    private final class OrderSink: PageSink, @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        var order: [String] { lock.withLock { paths } }
        func reuse(_ path: String, inputs: UInt64) -> Bool { false }
        func put(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>, inputs: UInt64?) throws { lock.withLock { paths.append(path) } }
        func leaveForLater(_ path: String) -> Bool { false }
        func wants(_ path: String) -> Bool { true }
        func leaveSearchForLater() -> Bool { false }
        func stopsEarly() -> Bool { false }
        func batchDone() {}
        func takeOverGroup(_ name: String, inputs: UInt64) -> [String]? { nil }
        func queuedGroup(_ name: String, inputs: UInt64, files: [String], sitemap: [String]) {}
    }

    @Test("the list and following tabs are drawn page by page across the users, in the order of the newest post each page shows")
    func cardTabsByNewestPost() throws {
        var config = SiteConfig()
        config.postsPerPage = 5
        let posts = (0..<40).map { Self.post($0) }
        let site = Site(config: config, users: Self.users, posts: posts.sorted { $0.date.instant > $1.date.instant }, tags: [])
        var diagnostics = Diagnostics()
        let renderer = SiteRenderer(site: site, images: [:], theme: Theme.load(siteRoot: nil, diagnostics: &diagnostics),
                                    parallel: Parallel(jobs: 1))
        let sink = OrderSink()
        try renderer.render(into: sink)
        // Every user follows the other three: a feed of all 40 posts, 8 pages each, page N of
        // each showing the same posts.
        let feeds = sink.order.filter { $0.contains("/following/") }
        let expected = (1...8).flatMap { number in
            (0..<4).map { "user\($0)/following/" + (number == 1 ? "" : "page/\(number)/") + "index.html" }
        }
        #expect(feeds == expected)
        // The newest post (39) is user3's: its list's first page comes among the feeds' first
        // pages; its second page (from post 19) among the feeds' fifth pages (from post 19 too).
        let tabs = sink.order.filter { $0.contains("/following/") || $0.contains("/list/") }
        #expect(Array(tabs.prefix(5)) == ["user0/following/index.html", "user1/following/index.html", "user2/following/index.html",
                                          "user3/list/index.html", "user3/following/index.html"])
        #expect(tabs.firstIndex(of: "user3/list/page/2/index.html") == tabs.firstIndex(of: "user2/following/page/5/index.html")! + 1)
        #expect(tabs.count == 32 + 4 * 2, "each user's 10 posts: two list pages")
        #expect(Set(try renderer.render().map(\.path)).isSuperset(of: tabs), "the same pages as a render of all")
    }

    static let users = (0..<4).map { n in
        Profile(handle: "user\(n)", name: "User \(n)", bio: RichText(), website: nil, location: nil,
                following: (0..<4).filter { $0 != n }.map { "user\($0)" }, avatar: nil, sourcePath: "content/users/user\(n)/profile.md")
    }

    static func post(_ n: Int, _ text: String? = nil) -> Post {
        let date = PostDate(instant: Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 3600), utcOffsetSeconds: 0)
        let caption = text ?? "Walk \(n) by the river"
        return Post(id: "p\(n)", author: "user\(n % 4)", date: date, location: nil, images: [],
                    caption: RichText(html: "<p>\(caption)</p>\n", plainText: caption), tagKeys: [], likedBy: [], comments: [],
                    isDraft: false, isSensitive: false, sourcePath: "content/users/user\(n % 4)/posts/p\(n)/post.md")
    }

    @Test("a post's JSON Feed item is kept with the cards, under the post's key: the same bytes copied by the next build, an edited post's item made anew")
    func feedItemsKept() throws {
        let posts = (0..<6).map { Self.post($0) }
        let site = Site(config: SiteConfig(), users: Self.users, posts: posts, tags: [])
        let messages = Messages(config: site.config)
        let key = { (post: Post) -> UInt64 in
            var digest = DigestBuilder()
            digest.add(post.key)
            digest.add(post.caption.plainText)
            return digest.value
        }
        let unkept = FeedSet(site: site, images: [:], messages: messages)
        let memo = FragmentMemo()
        let first = FeedSet(site: site, images: [:], messages: messages, memo: memo, memoKey: key)
        #expect(posts.map(first.itemJSON) == posts.map(unkept.itemJSON))
        #expect(memo.counts == (copied: 0, kept: 6))
        memo.startBuild()
        let second = FeedSet(site: site, images: [:], messages: messages, memo: memo, memoKey: key)
        #expect(posts.map(second.itemJSON) == posts.map(unkept.itemJSON))
        #expect(memo.counts == (copied: 6, kept: 0))
        // An edited caption is another key: its item is made, and says the new caption.
        memo.startBuild()
        let edited = Self.post(3, "Run 3 in the snow")
        let item = String(decoding: second.itemJSON(edited), as: UTF8.self)
        #expect(item.contains("Run 3 in the snow") && !item.contains("Walk 3"))
        #expect(memo.counts == (copied: 0, kept: 1))
    }

    /// The site's files drawn with `memo` (none: without one), each post's digest made from its caption.
    static func files(_ posts: [Post], memo: FragmentMemo?) throws -> [String: Data] {
        let site = Site(config: SiteConfig(), users: users, posts: posts.sorted { $0.date.instant > $1.date.instant }, tags: [])
        var diagnostics = Diagnostics()
        let theme = Theme.load(siteRoot: nil, diagnostics: &diagnostics)
        let inputs = RenderInputs(site: "site", posts: site.posts.map { DigestBuilder.unordered(CollectionOfOne($0.caption.plainText)) },
                                  profiles: [:])
        let renderer = SiteRenderer(site: site, images: [:], theme: theme, inputs: inputs)
        renderer.fragments = memo
        return Dictionary(uniqueKeysWithValues: try renderer.render().map { ($0.path, $0.contents) })
    }

    /// A new folder for a test's files (the test removes it).
    private static func newFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-fragments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("kept on disk: after a new post and an edit, cards and tiles are copied from the last build's file and every page equals one drawn without it; a damaged item, another salt or a link are not used")
    func onDisk() throws {
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fragments").path
        let posts = (0..<120).map { Self.post($0) }

        let first = FragmentMemo()
        first.restore(from: file, salt: "one")
        _ = try Self.files(posts, memo: first)
        #expect(first.counts.kept > 200, "\(first.counts)")
        first.save(to: file, salt: "one")
        #expect(FileManager.default.fileExists(atPath: file))

        // A new post and an edited one: every other card and tile is copied.
        var next = posts + [Self.post(500)]
        next[7] = Self.post(7, "Run 7 in the snow")
        let expected = try Self.files(next, memo: nil)
        let second = FragmentMemo(saveThreshold: 1)
        second.restore(from: file, salt: "one")
        #expect(try Self.files(next, memo: second) == expected)
        let (copied, kept) = second.counts
        #expect(copied > 4 * kept && kept > 0, "\(second.counts)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        second.save(to: file, salt: "one")
        let grown = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(grown > size, "the new items added at the end")
        let third = FragmentMemo()
        third.restore(from: file, salt: "one")
        #expect(try Self.files(next, memo: third) == expected)
        // Every item found in the file. (At least copied + kept: two threads that draw the same
        // new item at once keep it once, so the second build's counts can fall short.)
        #expect(third.counts.kept == 0 && third.counts.copied >= copied + kept, "\(third.counts)")
        // Each item read from the file at most twice (held from its second read on), however many
        // pages it is on; without room to hold them, once for each page.
        #expect(third.fileReads <= 2 * (first.counts.kept + kept) && third.fileReads < third.counts.copied * 3 / 4,
                "\(third.fileReads) reads for \(third.counts)")
        let unheld = FragmentMemo(checkedBudget: 0)
        unheld.restore(from: file, salt: "one")
        #expect(try Self.files(next, memo: unheld) == expected)
        #expect(unheld.fileReads == unheld.counts.copied && unheld.counts.copied == third.counts.copied, "\(unheld.counts)")

        // Every item's bytes changed on disk (the table left as it was): none is used.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for index in 24..<(bytes.count / 2) where bytes[index] == UInt8(ascii: "<") { bytes[index] = UInt8(ascii: "(") }
        try bytes.write(to: URL(fileURLWithPath: file))
        let damaged = FragmentMemo()
        damaged.restore(from: file, salt: "one")
        #expect(try Self.files(next, memo: damaged) == expected)
        #expect(damaged.counts.kept > kept, "items read back with other bytes are drawn again: \(damaged.counts)")

        let salted = FragmentMemo()
        salted.restore(from: file, salt: "two")
        #expect(try Self.files(next, memo: salted) == expected)
        #expect(salted.counts.kept >= first.counts.kept, "\(salted.counts)")

        // A link in its place, to a sound file elsewhere: not read, and not written through.
        let elsewhere = folder.appendingPathComponent("elsewhere")
        let sound = FragmentMemo()
        sound.restore(from: elsewhere.path, salt: "one")
        _ = try Self.files(next, memo: sound)
        sound.save(to: elsewhere.path, salt: "one")
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: elsewhere.path)
        let before = try Data(contentsOf: elsewhere)
        let linked = FragmentMemo()
        linked.restore(from: file, salt: "one")
        #expect(try Self.files(next + [Self.post(501)], memo: linked) == Self.files(next + [Self.post(501)], memo: nil))
        #expect(linked.counts.kept >= first.counts.kept, "\(linked.counts)")
        linked.save(to: file, salt: "one")
        #expect(try Data(contentsOf: elsewhere) == before)
    }

    @Test("read whole after its first items, mapped or read: every page equals one drawn without the memo, each item read and checked once; damaged, too large or not yet reached, items are read one by one as before",
          arguments: [true, false])
    func readWhole(mapped: Bool) throws {
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fragments").path
        let posts = (0..<120).map { Self.post($0) }
        let first = FragmentMemo()
        _ = try Self.files(posts, memo: first)
        first.save(to: file, salt: "one")
        let kept = first.counts.kept
        let expected = try Self.files(posts, memo: nil)

        // One by one: every copy but those held from their second read is a read of the file.
        let oneByOne = FragmentMemo(checkedBudget: 0, wholeAfter: .max)
        oneByOne.restore(from: file, salt: "one")
        #expect(try Self.files(posts, memo: oneByOne) == expected)
        #expect(oneByOne.fileReads == oneByOne.counts.copied && oneByOne.counts.kept == 0, "\(oneByOne.counts)")

        // Read whole after ten items: each item checked once (twice at most when both threads
        // reach it at once), however many pages it is on; nothing drawn again.
        let whole = FragmentMemo(checkedBudget: 0, wholeAfter: 10, mapsWhole: mapped)
        whole.restore(from: file, salt: "one")
        #expect(try Self.files(posts, memo: whole) == expected)
        #expect(whole.counts.kept == 0 && whole.counts.copied == oneByOne.counts.copied, "\(whole.counts)")
        #expect(whole.fileReads <= 10 + 2 * kept && whole.fileReads < oneByOne.fileReads * 3 / 4,
                "\(whole.fileReads) reads of \(kept) items for \(whole.counts.copied) copies")

        // A file larger than the bound for reading it whole is read one by one.
        let tooLarge = FragmentMemo(checkedBudget: 0, wholeBudget: 1_000, wholeAfter: 10, mapsWhole: mapped)
        tooLarge.restore(from: file, salt: "one")
        #expect(try Self.files(posts, memo: tooLarge) == expected)
        #expect(tooLarge.fileReads == oneByOne.fileReads, "\(tooLarge.fileReads)")

        // The items in the first half of the file changed on disk, the table left as it was: read
        // whole, they are drawn again as when read one by one.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for index in 24..<(bytes.count / 2) where bytes[index] == UInt8(ascii: "<") { bytes[index] = UInt8(ascii: "(") }
        try bytes.write(to: URL(fileURLWithPath: file))
        let damagedOneByOne = FragmentMemo(checkedBudget: 0, wholeAfter: .max)
        damagedOneByOne.restore(from: file, salt: "one")
        #expect(try Self.files(posts, memo: damagedOneByOne) == expected)
        let damaged = FragmentMemo(checkedBudget: 0, wholeAfter: 0, mapsWhole: mapped)
        damaged.restore(from: file, salt: "one")
        #expect(try Self.files(posts, memo: damaged) == expected)
        #expect(damaged.counts.kept > kept / 4 && damaged.counts.kept >= damagedOneByOne.counts.kept * 9 / 10,
                "items read back with other bytes are drawn again: \(damaged.counts), one by one \(damagedOneByOne.counts)")
    }

    @Test("items added to the file, a megabyte at a time, are all read back (seeded)")
    func appendInChunks() throws {
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fragments").path
        let first = FragmentMemo(saveThreshold: 1)
        first.restore(from: file, salt: "one")
        first.keep(1, Array("<first>".utf8)[...])
        first.save(to: file, salt: "one")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        // 3 MB of new items of random sizes: three megabytes written in several steps.
        var random = SeededRandom.forTest("FragmentMemoTests.appendInChunks")
        var items: [UInt64: [UInt8]] = [:]
        for key in UInt64(2)..<600 {
            let count = Int.random(in: 1...10_000, using: &random)
            items[key] = [UInt8](repeating: UInt8(truncatingIfNeeded: key), count: count) + withUnsafeBytes(of: key) { Array($0) }
        }
        let second = FragmentMemo(saveThreshold: 1)
        second.restore(from: file, salt: "one")
        for (key, bytes) in items { second.keep(key, bytes[...]) }
        second.save(to: file, salt: "one")
        let grown = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(grown > size + items.values.map(\.count).reduce(0, +), "added at the end of the file")
        let third = FragmentMemo()
        third.restore(from: file, salt: "one")
        for (key, bytes) in items.sorted(by: { $0.key < $1.key }) + [(1, Array("<first>".utf8))] {
            var out: [UInt8] = []
            #expect(third.copy(key, into: &out) && out == bytes, "item \(key)")
        }
    }

    @Test("every key kept in the file is found and no other, however the keys are spread: evenly, in clusters, at both ends, by powers of two; read one by one and read whole (seeded)")
    func lookUpSpreads() throws {
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededRandom.forTest("FragmentMemoTests.lookUpSpreads")
        let spreads: [(String, () -> UInt64)] = [
            ("even", { UInt64.random(in: .min ... .max, using: &random) }),
            ("clusters", { UInt64.random(in: 0..<4, using: &random) << 62 | UInt64.random(in: 0..<5_000, using: &random) }),
            ("ends", { Bool.random(using: &random) ? UInt64.random(in: 0..<3_000, using: &random) : .max - UInt64.random(in: 0..<3_000, using: &random) }),
            ("powers", { 1 << UInt64.random(in: 0..<64, using: &random) | UInt64.random(in: 0..<2, using: &random) }),
        ]
        for (name, next) in spreads {
            let file = folder.appendingPathComponent("fragments-\(name)").path
            var kept: Set<UInt64> = []
            for _ in 0..<2_000 { kept.insert(next()) }
            let writer = FragmentMemo(saveThreshold: 1)
            writer.restore(from: file, salt: "one")
            for key in kept { writer.keep(key, withUnsafeBytes(of: key) { Array($0) }[...]) }
            writer.save(to: file, salt: "one")
            // Read one by one, and read whole after the first (its keys in a table of places
            // by their low bits, or the sorted table searched when they are not spread).
            for reader in [FragmentMemo(), FragmentMemo(wholeAfter: 0)] {
                reader.restore(from: file, salt: "one")
                for key in kept.sorted() {
                    var out: [UInt8] = []
                    #expect(reader.copy(key, into: &out) && out == withUnsafeBytes(of: key) { Array($0) }, "\(name): \(key)")
                }
                var missing = 0
                for _ in 0..<2_000 {
                    let key = Bool.random(using: &random) ? next() : UInt64.random(in: .min ... .max, using: &random)
                    guard !kept.contains(key) else { continue }
                    var out: [UInt8] = []
                    if reader.copy(key, into: &out) { missing += 1 }
                }
                #expect(missing == 0, "\(name): keys never kept were found")
            }
        }
    }

    @Test("a one-off build holds at most its memory budget of new items; the builds after it add the rest to the file")
    func memoryBudget() throws {
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fragments").path
        let posts = (0..<120).map { Self.post($0) }
        let expected = try Self.files(posts, memo: nil)
        let unbounded = FragmentMemo()
        _ = try Self.files(posts, memo: unbounded)
        // Every item looked up: a second build with everything in memory copies each one. (The
        // first build's copied + kept can fall short of it: two threads that draw the same new
        // item at once keep it once.)
        let firstKept = unbounded.counts.kept
        unbounded.startBuild()
        _ = try Self.files(posts, memo: unbounded)
        #expect(unbounded.counts.kept == 0, "\(unbounded.counts)")
        let lookups = unbounded.counts.copied
        var copied: [Int] = []
        for _ in 0..<30 {
            let memo = FragmentMemo(memoryBudget: 40_000, saveThreshold: 1)
            memo.restore(from: file, salt: "one")
            #expect(try Self.files(posts, memo: memo) == expected)
            #expect(memo.counts.kept < firstKept)
            copied.append(memo.counts.copied)
            if memo.counts.kept == 0 { break }
            memo.save(to: file, salt: "one")
        }
        #expect(copied == copied.sorted() && copied.first! < copied.last!, "\(copied)")
        #expect(copied.last == lookups, "every item from the file in the end: \(copied)")
    }
}
