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
        // Only a bio names #서울: no post carries it, so it has no page, and the bio no link.
        #expect(site.tagsByKey["서울"] == nil)
        #expect(site.users.allSatisfy { !$0.bio.html.contains(InternalLink.href(SitePaths.tag("서울"))) })
    }

    @Test("a date in front matter keeps its offset")
    func dates() throws {
        let site = try #require(load().0)
        let river = try #require(site.postsByKey["alice/2024-05-25-river"])
        #expect(river.date.utcOffsetSeconds == 9 * 3600)
        #expect(river.date.instant.timeIntervalSince1970 == 1_716_615_000)
    }
}

/// Links inside content/: files reached through linked folders are checked the general way, so a
/// folder linked from outside is refused like a linked file, and one linked from inside is read.
struct LinkedFolderTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-links-\(UUID().uuidString)")
        let files = FileManager.default
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: false, encoding: .utf8)
        }
        func link(_ path: String, to target: String) throws {
            try files.createSymbolicLink(atPath: root.appendingPathComponent(path).path,
                                         withDestinationPath: root.appendingPathComponent(target).path)
        }
        let post = "---\ndate: 2024-01-01T10:00:00Z\n---\nA post #tag\n"
        try write("site/content/users/ann/profile.md", "---\nname: Ann\n---\nHi\n")
        try write("site/content/users/ann/posts/2024-01-01-a/post.md", post)
        try write("site/content/users/ann/posts/2024-01-01-a/1.jpg", "")
        try write("site/content/shared/c/post.md", post)
        try write("site/content/shared/c/1.jpg", "")
        try write("outside/b/post.md", post)
        try write("outside/b/1.jpg", "")
        try write("outside/d/post.md", "---\nimages: [1.jpg, 2.jpg]\n---\nimages linked\n")
        try write("outside/1.jpg", "")
        try write("site/content/users/ann/posts/2024-01-04-d/post.md", "---\nimages: [1.jpg, 2.jpg]\n---\nimages linked\n")
        try link("site/content/users/ann/posts/2024-01-04-d/1.jpg", to: "outside/1.jpg")
        try link("site/content/users/ann/posts/2024-01-04-d/2.jpg", to: "site/content/shared/c/1.jpg")
        try link("site/content/users/ann/posts/2024-01-02-b", to: "outside/b")
        try link("site/content/users/ann/posts/2024-01-03-c", to: "site/content/shared/c")
        try write("outside/bob/profile.md", "---\nname: Bob\n---\n")
        try write("outside/bob/posts/2024-02-01-x/post.md", post)
        try write("outside/bob/posts/2024-02-01-x/1.jpg", "")
        try link("site/content/users/bob", to: "outside/bob")
        try files.createDirectory(at: root.appendingPathComponent("site/content/users/cy/posts/2024-03-01-y"),
                                  withIntermediateDirectories: true)
        try write("site/content/users/cy/posts/2024-03-01-y/1.jpg", "")
        try link("site/content/users/cy/posts/2024-03-01-y/post.md", to: "site/content/shared/c/post.md")
    }

    @Test("linked folders and files: outside refused, inside read")
    func linkedFolders() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        var diagnostics = Diagnostics()
        let site = ContentLoader(siteRoot: root.appendingPathComponent("site")).load(diagnostics: &diagnostics)
        #expect(site == nil)
        #expect(diagnostics.items.map(\.description) == [
            "content/users/bob: error: this is a link to a folder outside content/ — move the folder into content/ instead of linking to it",
            "content/users/ann/posts/2024-01-02-b: error: this is a link to a folder outside content/ — move the folder into content/ instead of linking to it",
            "content/users/ann/posts/2024-01-04-d/post.md:2:10: error: '1.jpg': the file is a link to a file outside content/ — copy the file into the post's folder",
        ])
    }

    @Test("links that stay inside content/ load like plain files")
    func insideLinks() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let files = FileManager.default
        try files.removeItem(at: root.appendingPathComponent("site/content/users/bob"))
        try files.removeItem(at: root.appendingPathComponent("site/content/users/ann/posts/2024-01-02-b"))
        try files.removeItem(at: root.appendingPathComponent("site/content/users/ann/posts/2024-01-04-d"))
        var diagnostics = Diagnostics()
        let site = try #require(ContentLoader(siteRoot: root.appendingPathComponent("site")).load(diagnostics: &diagnostics))
        #expect(diagnostics.items.isEmpty)
        #expect(site.posts.map(\.key) == ["cy/2024-03-01-y", "ann/2024-01-03-c", "ann/2024-01-01-a"])
        let linked = try #require(site.postsByKey["ann/2024-01-03-c"])
        #expect(linked.images.map(\.fileURL) == [root.appendingPathComponent("site/content/users/ann/posts/2024-01-03-c")
            .appendingPathComponent("1.jpg")])
        let plain = try #require(site.postsByKey["ann/2024-01-01-a"])
        #expect(plain.images.map(\.fileURL) == [root.appendingPathComponent("site/content/users/ann/posts/2024-01-01-a")
            .appendingPathComponent("1.jpg")])
    }
}

struct LineEndingTests {
    @Test("a post.md saved with Windows line endings keeps its front matter, and lines still count")
    func crlf() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-crlf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("post.md")
        try Data("---\r\ndate: 2024-05-01T10:00:00Z\r\nlocation: Porto\r\n---\r\nHello #porto\r\n".utf8).write(to: file)
        var diagnostics = Diagnostics()
        let text = try #require(TextFile.read(file, path: "post.md", required: true, within: folder, diagnostics: &diagnostics))
        #expect(!text.contains("\r"))
        let matter = try #require(FrontMatter.parse(text, path: "post.md", diagnostics: &diagnostics))
        #expect(matter.body.trimmingCharacters(in: .whitespacesAndNewlines) == "Hello #porto")
        #expect(matter.bodyFirstLine == 5)
        #expect(diagnostics.items.isEmpty)
    }
}
