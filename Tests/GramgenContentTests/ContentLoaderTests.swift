import Foundation
import GramgenCore
import Testing
@testable import GramgenContent

/// Loads the build tests' fixture site through the real Markdown renderer.
struct ContentLoaderTests {
    static let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../GramgenBuildTests/Fixtures/sites/basic").standardizedFileURL

    func load(drafts: Bool = false) -> (Site?, Diagnostics) {
        var diagnostics = Diagnostics()
        let site = ContentLoader(siteRoot: Self.site, options: .init(includeDrafts: drafts)).load(diagnostics: &diagnostics)
        return (site, diagnostics)
    }

    @Test("users, posts newest first, followers")
    func graph() throws {
        let (loaded, diagnostics) = load()
        let site = try #require(loaded)
        #expect(diagnostics.items.isEmpty)
        #expect(site.users.map(\.handle) == ["alice", "bob"])
        #expect(site.posts.map(\.key) == ["alice/2024-06-01-market", "bob/2024-05-30-Ridge_walk", "alice/2024-05-25-river"])
        #expect(site.followers["alice"] == ["bob"])
        #expect(site.config.baseURL == "https://example.com/photos/")
        #expect(site.config.images.widths == [160, 320])
    }

    @Test("images: front-matter order with alt text, else natural order")
    func images() throws {
        let site = try #require(load().0)
        let river = try #require(site.postsByKey["alice/2024-05-25-river"])
        #expect(river.images.map(\.alt) == ["Water at dusk", "Window blinds & light"])
        let ridge = try #require(site.postsByKey["bob/2024-05-30-Ridge_walk"])
        #expect(ridge.images.map { ($0.path as NSString).lastPathComponent } == ["2.png", "10.jpg"])
        #expect(ridge.isSensitive)
    }

    @Test("tags group with the most used spelling; front-matter and comment tags count")
    func tags() throws {
        let site = try #require(load().0)
        let seoul = try #require(site.tagsByKey["seoul"])
        #expect(seoul.display == "Seoul")
        #expect(seoul.postKeys == ["alice/2024-05-25-river"])
        #expect(site.tagsByKey["café"]?.postKeys == ["alice/2024-06-01-market", "alice/2024-05-25-river"])
        #expect(site.tagsByKey["food"]?.postKeys == ["alice/2024-06-01-market"])
        #expect(site.tagsByKey["서울"]?.postKeys == [])
    }

    @Test("a date in front matter keeps its offset")
    func dates() throws {
        let site = try #require(load().0)
        let river = try #require(site.postsByKey["alice/2024-05-25-river"])
        #expect(river.date.utcOffsetSeconds == 9 * 3600)
        #expect(river.date.instant.timeIntervalSince1970 == 1_716_615_000)
    }
}
