import Foundation
import Testing
@testable import GramgenBuild

/// A rebuild after an edit draws only the pages that read what changed, and its output is
/// exactly what a build from scratch makes.
struct IncrementalBuildTests {
    /// 3 users and 36 posts (one shared photo, so images are processed once), 6 posts a page.
    static func makeSite() throws -> URL {
        let site = try TestSupport.temporaryFolder("gramgen-incremental")
        let content = site.appendingPathComponent("content")
        let photo = GoldenSiteTests.site.appendingPathComponent("content/users/alice/posts/2024-06-01-market/1.jpg")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try Data("""
            title: "Incremental"
            base_url: "https://example.com/"
            posts_per_page: 6
            images:
              widths: [160]
              formats: [webp, jpeg]
              thumbnail: 120

            """.utf8).write(to: content.appendingPathComponent("site.yml"))
        for (index, handle) in ["ana", "ben", "cleo"].enumerated() {
            let user = content.appendingPathComponent("users/\(handle)")
            try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
            let following = index == 2 ? "following: [ana]\n" : ""
            try Data("---\nname: \(handle.capitalized)\n\(following)---\nHello from \(handle).\n".utf8)
                .write(to: user.appendingPathComponent("profile.md"))
            for number in 1...12 {
                let post = user.appendingPathComponent("posts/2024-0\(index + 1)-\(10 + number)-walk")
                try FileManager.default.createDirectory(at: post, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: photo, to: post.appendingPathComponent("1.jpg"))
                let tag = ["#river", "#city", "#food"][number % 3]
                try Data("---\ndate: 2024-0\(index + 1)-\(10 + number)T10:00:00Z\n---\nWalk \(number) by @\(handle) \(tag)\n".utf8)
                    .write(to: post.appendingPathComponent("post.md"))
            }
        }
        return site
    }

    static func assertSameAsFreshBuild(_ site: URL, _ output: URL) throws {
        let fresh = try TestSupport.temporaryFolder("gramgen-fresh")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let report = try TestSupport.build(site: site, output: fresh)
        #expect(report.published)
        let files = TestSupport.files(in: fresh)
        // Published in place, a rewritten file keeps its spare beside it (hidden, never served).
        #expect(TestSupport.files(in: output).filter { !Publisher.isSpare($0) } == files)
        for path in files {
            #expect(FileManager.default.contents(atPath: output.appendingPathComponent(path).path)
                == FileManager.default.contents(atPath: fresh.appendingPathComponent(path).path), "\(path)")
        }
    }

    @Test("a caption edit redraws the pages showing that post and nothing else; the result equals a fresh build")
    func captionEdit() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let first = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(first.published && first.pagesReused == 0)

        let post = site.appendingPathComponent("content/users/ben/posts/2024-02-15-walk/post.md")
        try Data("---\ndate: 2024-02-15T10:00:00Z\n---\nA new caption #food\n".utf8).write(to: post)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published)
        #expect(second.imagesProcessed == 0)
        // Redrawn: the post, its home page, ben's grid page, list and feed pages, the #river pages,
        // and the pages that show every post (explore, tags, activity, 404, sitemap).
        let redrawn = second.pageCount - second.pagesReused
        #expect(second.pagesReused > second.pageCount / 2, "redrew \(redrawn) of \(second.pageCount) pages")
        let page = try String(contentsOf: output.appendingPathComponent("ben/p/2024-02-15-walk/index.html"), encoding: .utf8)
        #expect(page.contains("A new caption"))
        try Self.assertSameAsFreshBuild(site, output)
    }

    @Test("a template change redraws every page and processes no image")
    func templateChange() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        let templates = site.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let foot = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("templates/foot.mustache"), encoding: .utf8)
        try Data(foot.replacingOccurrences(of: "</footer>", with: "<p>custom foot</p></footer>").utf8)
            .write(to: templates.appendingPathComponent("foot.mustache"))
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published)
        #expect(second.imagesProcessed == 0)
        #expect(second.pagesReused == 0)
        let home = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(home.contains("custom foot"))
        try Self.assertSameAsFreshBuild(site, output)
    }

    @Test("an output page changed by hand is drawn again, not trusted")
    func handEditedOutput() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        let page = output.appendingPathComponent("ana/p/2024-01-11-walk/index.html")
        try Data("changed by hand".utf8).write(to: page)
        let post = site.appendingPathComponent("content/users/cleo/posts/2024-03-12-walk/post.md")
        try Data("---\ndate: 2024-03-12T10:00:00Z\n---\nEdited\n".utf8).write(to: post)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published && second.pagesReused > 0)
        try Self.assertSameAsFreshBuild(site, output)
    }

    @Test("a build with nothing changed leaves every output file as it was, static files included")
    func noOpKeepsFiles() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let staticFolder = site.appendingPathComponent("static")
        try FileManager.default.createDirectory(at: staticFolder, withIntermediateDirectories: true)
        try Data("User-agent: *\n".utf8).write(to: staticFolder.appendingPathComponent("robots.txt"))
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        func identities() -> [String: [Int64]] {
            var result: [String: [Int64]] = [:]
            for path in TestSupport.files(in: output) {
                var info = stat()
                if lstat(output.appendingPathComponent(path).path, &info) == 0 {
                    result[path] = [Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
                }
            }
            return result
        }
        let before = identities()
        #expect(before["robots.txt"] != nil)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published && second.upToDate)
        #expect(identities() == before)
    }

    @Test("an edit made while a build runs is not recorded as built: the next build draws it")
    func editDuringBuild() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let report = try TestSupport.build(site: site, output: output, cache: cache)
        var options = BuildOptions(siteRoot: site, output: output)
        options.cacheDirectory = cache
        let check = UpToDateCheck(options: options)
        let started = check.check()
        #expect(started.upToDate != nil)
        // The caption changes after the build took its inputs' digest, then the build finishes.
        let post = site.appendingPathComponent("content/users/ana/posts/2024-01-11-walk/post.md")
        try Data("---\ndate: 2024-01-11T10:00:00Z\n---\nEdited while building\n".utf8).write(to: post)
        check.save(report, inputs: started.inputs)
        #expect(check.check().upToDate == nil)
        let next = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(next.published && !next.upToDate)
        let page = try String(contentsOf: output.appendingPathComponent("ana/p/2024-01-11-walk/index.html"), encoding: .utf8)
        #expect(page.contains("Edited while building"))
    }
}
