import Foundation
import GramgenBuild
import GramgenScaffold
import Testing
@testable import GramgenImport

/// Imports a fixture export into a site, checks the files byte for byte, and builds the site
/// with the real pipeline (libvips, cmark-gfm): the imported site must build without a problem.
struct EndToEndTests {
    static let user = "content/users/mina.kim"

    @Test("the imported post.md files are exactly as the site format describes")
    func exactPostFiles() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)

        #expect(try ImportTestSupport.read(site, "\(Self.user)/posts/2024-03-08-cafe-day-in-cafe-with-bob/post.md") == """
            ---
            date: 2024-03-08T05:42:23Z
            images:
              - file: 1.jpg
              - file: 2.jpg
                alt: "Latte art shaped like a tulip"
              - file: 3.jpg
            ---
            Café day in 서울 ☕️🌸 #café #서울 with @bob

            """)
        #expect(try ImportTestSupport.read(site, "\(Self.user)/posts/2024-03-11-post/post.md") == """
            ---
            date: 2024-03-11T23:33:20Z
            images:
              - file: 1.jpg
            ---
            한강 산책 🌙 #한강 #밤

            """)
        #expect(try ImportTestSupport.read(site, "\(Self.user)/posts/2024-03-15-line-one-line-two-o-not-a-heading-b-bold/post.md") == ##"""
            ---
            date: 2024-03-15T10:53:20Z
            images:
              - file: 1.jpg
            ---
            Line one\
            Line two \\o/

            \# not a heading\
            \---\
            \<b\>bold\</b\> \& more

            """##)
        #expect(try ImportTestSupport.read(site, "\(Self.user)/posts/2023-05-02-an-old-one-i-hid/post.md") == """
            ---
            date: 2023-05-02T04:00:00Z
            images:
              - file: 1.jpg
            draft: true  # archived on Instagram; delete this line to publish it
            ---
            An old one I hid

            """)
    }

    @Test("the old layout's post.md carries the repaired caption and the UTC date")
    func exactOldPost() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try ImportTestSupport.runImport(ImportTestSupport.oldLayoutZip, into: site)
        #expect(try ImportTestSupport.read(site, "content/users/jun_park/posts/2021-03-04-first-post-2/post.md") == """
            ---
            date: 2021-03-04T05:06:07Z
            images:
              - file: 1.jpg
            ---
            First post 😊 — 카페에서

            """)
        #expect(try ImportTestSupport.read(site, "content/users/jun_park/profile.md") == """
            ---
            name: "Jun Park"
            ---

            """)
    }

    @Test("the imported site builds with no errors and no warnings, drafts included")
    func builds() throws {
        let site = try ImportTestSupport.makeSite()
        let output = try ImportTestSupport.temporaryFolder("gramgen-import-out")
        let cache = try ImportTestSupport.temporaryFolder("gramgen-import-cache")
        defer {
            let spare = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).spare")
            for url in [site, output, spare, cache] { try? FileManager.default.removeItem(at: url) }
        }
        try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        try ImportTestSupport.runImport(ImportTestSupport.oldLayoutZip, into: site)
        try ImportTestSupport.runImport(ImportTestSupport.fixtures.appendingPathComponent("legacy-layout"), into: site)

        for drafts in [false, true] {
            var options = BuildOptions(siteRoot: site, output: output)
            options.cacheDirectory = cache
            options.verbosity = .quiet
            options.includeDrafts = drafts
            options.strict = true
            let report = BuildPipeline(options: options, console: Console(verbosity: .quiet, isTerminal: false)).run()
            #expect(report.diagnostics.items.isEmpty, "\(report.diagnostics.sorted.map(\.description))")
            #expect(report.published)
            // Four of the posts hold videos (one a Reel), transcoded by the real FFmpeg; the
            // 2019 layout adds three posts and a user.
            #expect(report.postCount == (drafts ? 14 : 13))
            #expect(report.userCount == 4)
        }
        let page = try String(contentsOf: output.appendingPathComponent(
            "mina.kim/p/2024-03-15-line-one-line-two-o-not-a-heading-b-bold/index.html"), encoding: .utf8)
        #expect(page.contains("# not a heading"))
        #expect(page.contains("&lt;b&gt;bold&lt;/b&gt;"))
        #expect(page.contains("<br"))
    }

    /// Every layout gramgen reads, each into a site just made by `gramgen init`.
    static let layouts = ["2019-2020", "2021-2023", "2024", "2025"]

    @Test("a fresh `gramgen init` site with an import of each layout builds with zero errors", arguments: layouts)
    func freshSiteBuilds(layout: String) throws {
        let folder = try ImportTestSupport.temporaryFolder("gramgen-import-init")
        let output = try ImportTestSupport.temporaryFolder("gramgen-import-out")
        let cache = try ImportTestSupport.temporaryFolder("gramgen-import-cache")
        let made2025 = layout == "2025" ? try InstagramImporterTests.layout2025(from: ImportTestSupport.newLayout) : nil
        defer {
            for url in [folder, output, cache] + [made2025].compactMap({ $0 }) { try? FileManager.default.removeItem(at: url) }
        }
        let site = folder.appendingPathComponent("site")
        _ = try SiteScaffolder(directory: site, handle: "me").run()
        let export = switch layout {
        case "2019-2020": ImportTestSupport.fixtures.appendingPathComponent("legacy-layout")
        case "2021-2023": ImportTestSupport.oldLayoutZip
        case "2024": ImportTestSupport.newLayout
        default: try #require(made2025)
        }
        let report = try ImportTestSupport.runImport(export, into: site)
        #expect(!report.posts.isEmpty)
        var options = BuildOptions(siteRoot: site, output: output)
        options.cacheDirectory = cache
        options.verbosity = .quiet
        let build = BuildPipeline(options: options, console: Console(verbosity: .quiet, isTerminal: false)).run()
        // The only warnings: @mentions of Instagram friends who are not (yet) users of this site.
        let others = build.diagnostics.sorted.filter { !$0.description.contains("is not a user of this site") }
        #expect(others.isEmpty, "\(layout): \(others.map(\.description))")
        #expect(build.published)
        #expect(build.userCount == 2)
        #expect(build.postCount == 1 + report.posts.filter { !$0.isDraft }.count)
    }
}
