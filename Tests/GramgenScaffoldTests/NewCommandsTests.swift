import Foundation
import GramgenBuild
import GramgenCore
import Testing
@testable import GramgenScaffold

/// `gramgen new user` and `gramgen new post`: validated, dated, and never overwriting.
struct NewCommandsTests {
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../GramgenBuildTests/Fixtures/sites/basic/content/users/bob/posts/2024-05-30-Ridge_walk")
        .standardizedFileURL

    static func site() throws -> URL {
        let site = try SiteScaffolderTests.temporaryFolder()
        _ = try SiteScaffolder(directory: site, handle: "ann", clock: SiteScaffolderTests.clock).run()
        return site
    }

    @Test("new user writes a profile and refuses bad, reserved and existing handles")
    func newUser() throws {
        let site = try Self.site()
        defer { try? FileManager.default.removeItem(at: site) }
        let created = try UserScaffolder(siteRoot: site, handle: "bob.kim", name: "Bob \"BK\" Kim").run()
        #expect(created.map(\.lastPathComponent) == ["bob.kim", "posts", "profile.md"])
        let profile = try String(contentsOf: site.appendingPathComponent("content/users/bob.kim/profile.md"), encoding: .utf8)
        #expect(profile.contains("name: \"Bob \\\"BK\\\" Kim\""))

        for handle in ["Bob", "a..b", ".x", "tags", "", String(repeating: "a", count: 31), "../etc"] {
            #expect(throws: ScaffoldError.self, "\(handle)") { try UserScaffolder(siteRoot: site, handle: handle).run() }
        }
        let existing = #expect(throws: ScaffoldError.self) { try UserScaffolder(siteRoot: site, handle: "bob.kim").run() }
        #expect(existing?.message.contains("already exists") == true)
        #expect(try String(contentsOf: site.appendingPathComponent("content/users/bob.kim/profile.md"), encoding: .utf8) == profile)

        let nowhere = try SiteScaffolderTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: nowhere) }
        let notSite = #expect(throws: ScaffoldError.self) { try UserScaffolder(siteRoot: nowhere, handle: "zed").run() }
        #expect(notSite?.hint?.contains("gramgen init") == true)

        let report = try SiteScaffolderTests.build(site)
        #expect(report.diagnostics.items.isEmpty, "\(report.diagnostics.sorted.map(\.description))")
    }

    @Test("new post copies the images, writes post.md with the date and alt placeholders, and builds")
    func newPost() throws {
        let site = try Self.site()
        defer { try? FileManager.default.removeItem(at: site) }
        let spaced = site.appendingPathComponent("My Photo (1).JPG")
        try FileManager.default.copyItem(at: Self.images.appendingPathComponent("10.jpg"), to: spaced)
        let result = try PostScaffolder(siteRoot: site, handle: "ann", slug: "Han River — Café!",
                                        images: [spaced, Self.images.appendingPathComponent("2.png")],
                                        clock: SiteScaffolderTests.clock).run()
        #expect(result.folder.lastPathComponent == "2024-05-25-han-river-cafe")
        #expect(result.imageNames == ["My-Photo-1.jpg", "2.png"])
        let text = try String(contentsOf: result.folder.appendingPathComponent("post.md"), encoding: .utf8)
        #expect(text == """
        ---
        date: 2024-05-25T14:30:00+09:00
        # location: "Where it was taken"
        images:
          - file: My-Photo-1.jpg
            # describe the photo for people who cannot see it
            alt: ""
          - file: 2.png
            # describe the photo for people who cannot see it
            alt: ""
        # draft: true                # keep it out of the site until you are ready
        # Below: the caption in Markdown. A # before a word makes a hashtag, an @ before a handle a link.
        ---
        Write your caption here.

        """)
        let report = try SiteScaffolderTests.build(site)
        #expect(report.diagnostics.items.isEmpty, "\(report.diagnostics.sorted.map(\.description))")
        #expect(report.postCount == 2)
    }

    @Test("new post never overwrites: the same slug on the same day gets -2, -3")
    func neverOverwrites() throws {
        let site = try Self.site()
        defer { try? FileManager.default.removeItem(at: site) }
        let image = Self.images.appendingPathComponent("10.jpg")
        let make = { try PostScaffolder(siteRoot: site, handle: "ann", slug: nil, images: [image, image],
                                        clock: SiteScaffolderTests.clock).run() }
        let first = try make(), second = try make(), third = try make()
        #expect([first, second, third].map(\.folder.lastPathComponent) == ["2024-05-25-post", "2024-05-25-post-2", "2024-05-25-post-3"])
        #expect(first.imageNames == ["10.jpg", "10-2.jpg"])
        // The post `init` made is untouched by a post with its slug.
        let hello = try PostScaffolder(siteRoot: site, handle: "ann", slug: "hello", clock: SiteScaffolderTests.clock).run()
        #expect(hello.folder.lastPathComponent == "2024-05-25-hello-2")
    }

    @Test("new post copies a video with the photos, in the order given")
    func videoPost() throws {
        let site = try Self.site()
        defer { try? FileManager.default.removeItem(at: site) }
        let clip = site.appendingPathComponent("clip.MOV")
        try Data(repeating: 7, count: 300_000).write(to: clip)
        let result = try PostScaffolder(siteRoot: site, handle: "ann", slug: "walk",
                                        images: [clip, Self.images.appendingPathComponent("10.jpg")]).run()
        #expect(result.imageNames == ["clip.mov", "10.jpg"])
        #expect(FileManager.default.contentsEqual(atPath: clip.path, andPath: result.folder.appendingPathComponent("clip.mov").path))
    }

    @Test("new post checks the user and every image before writing anything")
    func newPostRefuses() throws {
        let site = try Self.site()
        defer { try? FileManager.default.removeItem(at: site) }
        let posts = site.appendingPathComponent("content/users/ann/posts")
        let before = try FileManager.default.contentsOfDirectory(atPath: posts.path)

        let noUser = #expect(throws: ScaffoldError.self) { try PostScaffolder(siteRoot: site, handle: "zed").run() }
        #expect(noUser?.hint == "create it with `gramgen new user zed`")
        #expect(throws: ScaffoldError.self) { try PostScaffolder(siteRoot: site, handle: "Zed!").run() }
        let text = site.appendingPathComponent("notes.txt")
        try "x".write(to: text, atomically: true, encoding: .utf8)
        let badType = #expect(throws: ScaffoldError.self) {
            try PostScaffolder(siteRoot: site, handle: "ann", images: [Self.images.appendingPathComponent("10.jpg"), text]).run()
        }
        #expect(badType?.message.contains("is not a photo or video gramgen can publish") == true)
        #expect(throws: ScaffoldError.self) {
            try PostScaffolder(siteRoot: site, handle: "ann", images: [site.appendingPathComponent("missing.jpg")]).run()
        }
        // A FIFO (which would block the copy for ever) and a device: refused, named, nothing written.
        let fifo = site.appendingPathComponent("pipe.jpg")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let special = #expect(throws: ScaffoldError.self) {
            try PostScaffolder(siteRoot: site, handle: "ann", images: [Self.images.appendingPathComponent("10.jpg"), fifo]).run()
        }
        #expect(special?.message == "\(fifo.path): the file is a named pipe (FIFO), not a regular file")
        try? FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("zero.jpg").path, withDestinationPath: "/dev/zero")
        let char = #expect(throws: ScaffoldError.self) {
            try PostScaffolder(siteRoot: site, handle: "ann", images: [site.appendingPathComponent("zero.jpg")]).run()
        }
        #expect(char?.message.hasSuffix("the file is a character device, not a regular file") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: posts.path) == before)
    }

    @Test("slugs and file names are made safe", arguments: [
        ("Han River", "han-river"), ("  ", "post"), ("Café au lait", "cafe-au-lait"), ("서울", "post"),
        ("a--b__c", "a-b-c"), ("../../etc", "etc"),
    ])
    func slugs(input: String, slug: String) {
        #expect(PostSlug.slug(for: input) == slug)
    }

    @Test("image names keep letters, digits, - and _")
    func fileNames() {
        #expect(NameSanitizer.fileName("IMG 0001.HEIC") == "IMG-0001.heic")
        #expect(NameSanitizer.fileName(".hidden.jpg") == "hidden.jpg")
        #expect(NameSanitizer.fileName("사진.jpg") == "image.jpg")
        #expect(NameSanitizer.unique("a.jpg") { ["a.jpg", "a-2.jpg"].contains($0) } == "a-3.jpg")
    }
}

extension NewCommandsTests {
    @Test("new post and new user refuse to write through a folder linked out of the site")
    func linkedFolders() throws {
        let site = try Self.site()
        defer { try? FileManager.default.removeItem(at: site) }
        let outside = try SiteScaffolderTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: outside) }
        let posts = site.appendingPathComponent("content/users/ann/posts")
        try FileManager.default.removeItem(at: posts)
        try FileManager.default.createSymbolicLink(at: posts, withDestinationURL: outside)
        let error = #expect(throws: ScaffoldError.self) {
            try PostScaffolder(siteRoot: site, handle: "ann", images: [Self.images.appendingPathComponent("10.jpg")]).run()
        }
        #expect(error?.message == "\(posts.path) is a link to a folder outside the site")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)

        let users = site.appendingPathComponent("content/users")
        try FileManager.default.moveItem(at: users, to: outside.appendingPathComponent("users"))
        try FileManager.default.createSymbolicLink(at: users, withDestinationURL: outside.appendingPathComponent("users"))
        #expect(throws: ScaffoldError.self) { try UserScaffolder(siteRoot: site, handle: "bob").run() }
        #expect(!FileManager.default.fileExists(atPath: outside.appendingPathComponent("users/bob").path))
    }
}
