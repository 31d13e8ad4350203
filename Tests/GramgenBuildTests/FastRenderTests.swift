import Foundation
import Testing
@testable import GramgenBuild
@testable import GramgenRender

/// `gramgen serve`'s fast render: a build after an edit draws what a browser lands on first and
/// leaves the rest of what changed for a catch-up build, which completes the output.
struct FastRenderTests {
    struct Fixture {
        let site: URL, output: URL, cache: URL
        let fastRender = FastRender()
        let memory: BuildMemory
        let pipeline: BuildPipeline

        init(recordsQuiet: TimeInterval = 0) throws {
            site = try IncrementalEditKindsTests.makeSite()
            output = try TestSupport.temporaryFolder()
            cache = try TestSupport.temporaryFolder()
            memory = BuildMemory(fastRender: fastRender, recordsQuiet: recordsQuiet)
            var options = BuildOptions(siteRoot: site, output: output)
            options.cacheDirectory = cache
            options.publishInPlace = true
            pipeline = BuildPipeline(options: options, console: Console(verbosity: .quiet, isTerminal: false), memory: memory)
        }

        func remove() { TestSupport.remove(site, output, cache) }

        /// The mark of a rebuild in place whose records are not written yet (`Publisher`).
        var recordsPending: Bool {
            FileManager.default.fileExists(atPath: UpToDateCheck(options: pipeline.options).manifestURL.path + ".unfinished")
        }

        /// Builds, adds a post and builds again with no pages drawn beyond the first of each
        /// list: the second build's report, and the output's files before it.
        func newPostLeavingPages() throws -> (report: BuildReport, before: [String: Data]) {
            let first = pipeline.run()
            #expect(first.published && first.pagesLeftForLater == 0, "a first build has nothing to leave: \(first.diagnostics.items)")
            memory.settle()
            let before = contents()
            try IncrementalEditKindsTests.apply(.addPost, to: site)
            let edited = pipeline.run()
            #expect(edited.published && edited.pagesLeftForLater > 0, "\(edited.diagnostics.items)")
            return (edited, before)
        }

        /// Every file of the output by path (spares aside).
        func contents() -> [String: Data] {
            var files: [String: Data] = [:]
            for path in TestSupport.files(in: output) where !Publisher.isSpare(path) {
                files[path] = FileManager.default.contents(atPath: output.appendingPathComponent(path).path)
            }
            return files
        }
    }

    @Test("a new post's build draws each list's first page and the page open in a browser, leaves the rest as they were, and the catch-up build completes the output")
    func newPost() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let fastRender = fixture.fastRender
        fastRender.shown = { ["page/3/index.html"] }
        let (edited, before) = try fixture.newPostLeavingPages()
        // The new post moves every post down one place: every home page changes.
        let home = (2...7).map { "page/\($0)/index.html" }
        for page in home where page != "page/3/index.html" {
            #expect(fastRender.isStale(page), "\(page) left for later")
        }
        #expect(edited.pagesLeftForLater >= home.count - 1 + 2, "home pages, feeds: \(edited.pagesLeftForLater)")
        #expect(!fastRender.isStale("index.html") && !fastRender.isStale("page/3/index.html"))
        #expect(fastRender.isStale("feed.json") && fastRender.isStale("sitemap.xml"), "feeds and the sitemap are no browser's first page")
        #expect(fastRender.isStale("search/meta.json") && fastRender.isStale("search/d/0.json"), "the search index is made after the reload")
        let after = fixture.contents()
        let newPost = "cleo/p/2024-03-30-new/"
        #expect(String(decoding: after["index.html"] ?? Data(), as: UTF8.self).contains(newPost))
        #expect(after["page/3/index.html"] != before["page/3/index.html"], "the page open in a browser is drawn")
        for (path, bytes) in after where fastRender.isStale(path) {
            #expect(bytes == before[path], "\(path) is as the last build left it")
        }
        fixture.memory.settle()
        #expect(fixture.recordsPending, "the records wait for the catch-up's own")
        // Never recorded as up to date meanwhile: another process would draw the pages too.
        let elsewhere = try TestSupport.build(site: fixture.site, output: fixture.output, cache: fixture.cache, memory: BuildMemory()) {
            $0.publishInPlace = true
        }
        #expect(!elsewhere.upToDate && elsewhere.pagesDrawn >= edited.pagesLeftForLater)
        try IncrementalBuildTests.assertSameAsFreshBuild(fixture.site, fixture.output)
    }

    @Test("the catch-up build draws only the pages left for later, gives way to a waiting change, and ends with a build from scratch's files")
    func catchUp() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let fastRender = fixture.fastRender, pipeline = fixture.pipeline
        let left = try fixture.newPostLeavingPages().report.pagesLeftForLater
        let before = fixture.contents()

        // A change waits: the catch-up stops before its first batch, and every page stays left.
        fastRender.changeArrived()
        let yielded = pipeline.catchUp()
        #expect(yielded.published && yielded.pagesDrawn == 0 && yielded.pagesLeftForLater == left,
                "drew \(yielded.pagesDrawn), left \(yielded.pagesLeftForLater) of \(left)")
        #expect(fixture.contents() == before)
        // Without a build's state to draw from, it gives way before it loads anything.
        fixture.memory.keepLoaded(nil)
        let stopped = pipeline.catchUp()
        #expect(stopped.stoppedForChange && !stopped.published && fastRender.hasStale)
        fastRender.changeTaken()

        // The change's build (nothing changed after all) leaves them again; its catch-up draws
        // them and nothing else.
        let again = pipeline.run()
        #expect(again.published && again.pagesLeftForLater == left && again.pagesDrawn < left)
        let caught = pipeline.catchUp()
        #expect(caught.published && caught.pagesLeftForLater == 0 && caught.pagesDrawn == left,
                "drew \(caught.pagesDrawn) of \(left)")
        #expect(!fastRender.hasStale)
        try IncrementalBuildTests.assertSameAsFreshBuild(fixture.site, fixture.output)
        fixture.memory.settle()
        #expect(!fixture.recordsPending)
        #expect(pipeline.run().upToDate, "complete, and recorded so")
    }

    @Test("a build stopped by errors in the content keeps the pages left for later held, and the catch-up draws them from the last good build")
    func failedBuild() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let fastRender = fixture.fastRender, pipeline = fixture.pipeline
        _ = try fixture.newPostLeavingPages()
        let post = "content/users/ben/posts/2024-02-15-walk/post.md"
        let good = try String(contentsOf: fixture.site.appendingPathComponent(post), encoding: .utf8)
        try IncrementalEditKindsTests.write(fixture.site, post, "---\ndate: [unclosed\n---\nBroken\n")
        let failed = pipeline.run()
        #expect(!failed.published && fastRender.hasStale, "requests for the pages left still wait")
        let caught = pipeline.catchUp()
        #expect(caught.published && caught.pagesLeftForLater == 0 && !fastRender.hasStale)
        // The preview is the last good build, whole.
        try IncrementalEditKindsTests.write(fixture.site, post, good)
        try IncrementalBuildTests.assertSameAsFreshBuild(fixture.site, fixture.output)
        try IncrementalEditKindsTests.write(fixture.site, post, "---\ndate: 2024-02-15T10:00:00Z\n---\nFixed #food\n")
        #expect(pipeline.run().published && pipeline.catchUp().published)
        try IncrementalBuildTests.assertSameAsFreshBuild(fixture.site, fixture.output)
    }

    @Test("a group of post pages with a likes page left for later is not taken over whole by the next build: the page stays left, and the catch-up draws it")
    func groupWithPageLeftForLater() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let site = fixture.site, pipeline = fixture.pipeline
        // More likers than one likes page shows: its second page is one a build may leave.
        let fans = (1...(PageSet.peoplePageSize + 10)).map { String(format: "fan%02d", $0) }
        for fan in fans { try IncrementalEditKindsTests.write(site, "content/users/\(fan)/profile.md", "---\nname: Fan\n---\n") }
        let liked = "content/users/ana/posts/2024-01-12-walk/post.md"
        func likes(_ likers: [String]) throws {
            try IncrementalEditKindsTests.write(site, liked, "---\ndate: 2024-01-12T10:00:00Z\nliked_by: [\(likers.joined(separator: ", "))]\n---\nWalk 2\n")
        }
        try likes(fans)
        let first = pipeline.run()
        #expect(first.published && first.pagesLeftForLater == 0, "\(first.diagnostics.items)")
        let secondPage = try #require(TestSupport.files(in: fixture.output).first { $0.hasSuffix("likes/page/2/index.html") })
        // The likers in the other order: the second likes page, fan51 to fan60 so far, is left.
        try likes(fans.reversed())
        let edited = pipeline.run()
        #expect(edited.published && fixture.fastRender.hasStale)
        let left = try String(contentsOf: fixture.output.appendingPathComponent(secondPage), encoding: .utf8)
        #expect(left.contains("fan55") && !left.contains("fan05"), "left as it was")
        // Another author's edit: ana's group reads what it read before, but one of its pages is
        // not drawn from that yet.
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let next = pipeline.run()
        #expect(next.published && next.pageGroupsKept > 0, "other groups are taken over")
        #expect(fixture.fastRender.hasStale, "the likes page is still left for later")
        let caught = pipeline.catchUp()
        #expect(caught.published && caught.pagesLeftForLater == 0 && !fixture.fastRender.hasStale)
        let drawn = try String(contentsOf: fixture.output.appendingPathComponent(secondPage), encoding: .utf8)
        #expect(drawn.contains("fan05") && !drawn.contains("fan55"))
        try IncrementalBuildTests.assertSameAsFreshBuild(site, fixture.output)
    }

    @Test("a server's records wait for quiet: not written while a change waits or once another build has started, written after the quiet otherwise",
          .timeLimit(.minutes(2)))
    func recordsWaitForQuiet() throws {
        // Waits longer than any test runs: settle returns only because of what happens meanwhile.
        let fixture = try Fixture(recordsQuiet: 3600)
        defer { fixture.remove() }
        let (fastRender, memory, pipeline, site) = (fixture.fastRender, fixture.memory, fixture.pipeline, fixture.site)
        let pending = { fixture.recordsPending }
        #expect(pipeline.run().published && pending())
        fastRender.changeArrived()
        memory.settle()
        #expect(pending(), "a change waits: its build writes the records")
        fastRender.changeTaken()

        // A build that starts while the records wait: the waiting settle gives up, unwritten.
        let settled = DispatchSemaphore(value: 0)
        Thread { memory.settle(); settled.signal() }.start()
        Thread.sleep(forTimeInterval: 0.3)  // time to write them, were they not waiting
        #expect(pending(), "the records wait for quiet")
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        #expect(pipeline.run().published)
        settled.wait()
        #expect(pending(), "the build that started has records of its own, not yet written")
        memory.settle(writing: true)  // as when the server stops
        #expect(!pending())

        // Quiet: written once it lasted.
        let quickRender = FastRender(), quick = BuildMemory(fastRender: quickRender, recordsQuiet: 0.05)
        let again = BuildPipeline(options: pipeline.options, console: Console(verbosity: .quiet, isTerminal: false), memory: quick)
        try IncrementalEditKindsTests.apply(.captionNewHashtag, to: site)
        #expect(again.run().published && pending())
        quick.settle()
        #expect(pending(), "pages are left for later: the catch-up writes the records")
        #expect(quickRender.hasStale && again.catchUp().published)
        quick.settle()
        #expect(!pending())
        try IncrementalBuildTests.assertSameAsFreshBuild(site, fixture.output)
    }

    @Test("a warm-up after a start that finds the preview up to date leaves nothing for later")
    func warmUp() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        _ = try fixture.newPostLeavingPages()
        #expect(fixture.pipeline.catchUp().published)
        fixture.memory.settle(writing: true)  // as when the server stops
        let fastRender = FastRender()
        let pipeline = BuildPipeline(options: fixture.pipeline.options, console: Console(verbosity: .quiet, isTerminal: false),
                                     memory: BuildMemory(fastRender: fastRender))
        #expect(pipeline.run().upToDate)
        let warm = try #require(pipeline.warmUp())
        #expect(warm.published && warm.pagesLeftForLater == 0 && !fastRender.hasStale)
    }

    @Test("a catch-up build that makes a smaller search index removes the old index's files it did not make again")
    func smallerSearchIndex() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let fastRender = fixture.fastRender, pipeline = fixture.pipeline
        #expect(pipeline.run().published)
        // Documents (users, hashtags, posts) go 24 to a chunk file: posts are added until the last
        // chunk holds one, so that taking one post away leaves one chunk fewer.
        let meta = try String(contentsOf: fixture.output.appendingPathComponent("search/meta.json"), encoding: .utf8)
        let counts = try ["users", "tags", "posts"].map { key in
            try #require(meta.firstMatch(of: try Regex("\"\(key)\":([0-9]+)")).flatMap { Int($0.output[1].substring ?? "") })
        }
        let extra = (25 - counts.reduce(0, +) % 24) % 24
        for number in 0..<extra {
            let folder = "content/users/eve/posts/2024-04-\(10 + number)-more"
            try IncrementalEditKindsTests.write(fixture.site, folder + "/post.md", "More\n")
            try IncrementalEditKindsTests.copyPhoto(fixture.site, to: folder + "/1.jpg")
        }
        #expect(pipeline.run().published && pipeline.catchUp().published)
        let chunks = { TestSupport.files(in: fixture.output).filter { $0.hasPrefix("search/d/") && !Publisher.isSpare($0) } }
        let before = chunks()
        let last = "search/d/\(before.count - 1).json"
        #expect(before.contains(last))
        try FileManager.default.removeItem(at: fixture.site.appendingPathComponent("content/users/eve/posts/2024-03-01-only"))
        let edited = pipeline.run()
        #expect(edited.published && fastRender.isStale(last) && FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent(last).path))
        let caught = pipeline.catchUp()
        #expect(caught.published && caught.pagesLeftForLater == 0 && !fastRender.hasStale)
        #expect(chunks() == Array(before.dropLast()), "\(chunks())")
        try IncrementalBuildTests.assertSameAsFreshBuild(fixture.site, fixture.output)
    }
}
