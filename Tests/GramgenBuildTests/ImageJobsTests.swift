import Foundation
import GramgenContent
import GramgenCore
import GramgenImaging
import Testing
@testable import GramgenBuild

/// The image stage's work: each source once, avatars first, then the posts' photos in the site's
/// order. Photos of the same name in two posts are two sources; a post's `images:` that names a
/// photo twice shows it twice and has it processed once.
struct ImageJobsTests {
    @Test("each source is one job, even when a post's images: names a photo twice; the same name in another post is another")
    func eachSourceOnce() throws {
        let site = try TestSupport.temporaryFolder("gramgen-image-jobs")
        let output = site.appendingPathComponent("public")
        defer { try? FileManager.default.removeItem(at: site) }
        let content = site.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try Data("images:\n  widths: [320]\n  formats: [jpeg]\n  thumbnail: 160\n".utf8).write(to: content.appendingPathComponent("site.yml"))
        let photo = try SyntheticImage.gradientJPEG(width: 400, height: 300, from: .init(200, 40, 10), to: .init(10, 90, 220))
        for handle in ["ann", "bob"] {
            let user = content.appendingPathComponent("users/\(handle)")
            try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
            try Data("---\nname: \(handle)\n---\n".utf8).write(to: user.appendingPathComponent("profile.md"))
            try photo.write(to: user.appendingPathComponent("avatar.jpg"))
        }
        let twice = content.appendingPathComponent("users/ann/posts/2024-01-01-twice")
        let other = content.appendingPathComponent("users/ann/posts/2024-01-02-other")
        for folder in [twice, other] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try photo.write(to: folder.appendingPathComponent("1.jpg"))
        }
        try photo.write(to: twice.appendingPathComponent("2.jpg"))
        try Data("---\nimages:\n  - 1.jpg\n  - 2.jpg\n  - 1.jpg\n---\nThe first one again\n".utf8).write(to: twice.appendingPathComponent("post.md"))
        try Data("Another first\n".utf8).write(to: other.appendingPathComponent("post.md"))

        var diagnostics = Diagnostics()
        let made = ContentLoader(siteRoot: site).load(diagnostics: &diagnostics)
        let loaded = try #require(made, "\(diagnostics.items)")
        #expect(loaded.posts.map { $0.images.count } == [1, 3])
        let jobs = ImageStage.jobs(for: loaded)
        #expect(jobs.map(\.source.path) == [
            "content/users/ann/avatar.jpg", "content/users/bob/avatar.jpg",
            "content/users/ann/posts/2024-01-02-other/1.jpg",
            "content/users/ann/posts/2024-01-01-twice/1.jpg", "content/users/ann/posts/2024-01-01-twice/2.jpg",
        ])
        #expect(jobs.map(\.role) == [.avatar, .avatar, .post, .post, .post])

        // Built, the post shows its three slides, the first photo's files twice.
        let report = try TestSupport.build(site: site, output: output)
        #expect(report.published, "\(report.diagnostics.items)")
        #expect(report.imagesProcessed + report.imagesFromCache == 5)
        let page = try String(contentsOf: output.appendingPathComponent("ann/p/2024-01-01-twice/index.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "<li class=\"slide\"").count - 1 == 3)
    }
}
