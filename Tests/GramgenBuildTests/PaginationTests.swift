import Foundation
import Testing
@testable import GramgenBuild

/// Tag pages and explore paginate (SITE-FORMAT.md section 3), three rows of `posts_per_page`
/// tiles a page, so no page grows with the site.
struct PaginationTests {
    @Test("tag pages and explore split into page/N/, linked both ways, every post on exactly one page")
    func pages() throws {
        let box = try ContainmentTests.Sandbox()
        defer { box.remove() }
        try box.write("site/content/site.yml", "posts_per_page: 1\n")
        try FileManager.default.removeItem(at: box.post)
        let photo = ContainmentTests.photo
        for day in 1...7 {
            let folder = box.site.appendingPathComponent("content/users/ann/posts/2024-01-0\(day)-walk")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("---\n---\nWalk \(day) #walk #Walk\u{FE0F}\n".utf8).write(to: folder.appendingPathComponent("post.md"))
            try FileManager.default.copyItem(at: photo, to: folder.appendingPathComponent("1.jpg"))
        }
        let (report, text) = try box.build()
        #expect(text == "" && report.published)
        #expect(LinkChecker.brokenLinks(in: box.output).isEmpty)
        for folder in ["tags/walk/", "explore/"] {
            var seen: [String] = []
            for (page, next) in [("", "page/2/"), ("page/2/", "page/3/"), ("page/3/", nil)] {
                let html = try String(contentsOf: box.output.appendingPathComponent(folder + page + "index.html"), encoding: .utf8)
                let posts = Set(try html.matches(of: Regex(#"p/(2024-01-0\d-walk)/"#)).compactMap { $0.output[1].substring.map(String.init) })
                #expect((1...3).contains(posts.count), "\(folder)\(page): \(posts)")
                seen += posts
                if let next { #expect(html.contains(next), "\(folder)\(page) links to \(next)") }
            }
            #expect(!FileManager.default.fileExists(atPath: box.output.appendingPathComponent(folder + "page/4").path))
            #expect(seen.sorted() == (1...7).map { "2024-01-0\($0)-walk" }, "\(folder): \(seen)")
        }
    }

    @Test("the list, tagged, feed and activity tabs paginate too, none capped")
    func profileTabs() throws {
        let box = try ContainmentTests.Sandbox()
        defer { box.remove() }
        try box.write("site/content/site.yml", "posts_per_page: 10\n")
        try box.write("site/content/users/bob/profile.md", "---\nname: Bob\nfollowing: [ann]\n---\n")
        try FileManager.default.removeItem(at: box.post)
        for day in 1...26 {
            let folder = box.site.appendingPathComponent(String(format: "content/users/ann/posts/2024-02-%02d-day", day))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let post = "---\nliked_by: [bob]\ncomments:\n  - author: bob\n    date: 2024-03-01T10:00:00Z\n    text: nice\n---\nWith @bob\n"
            try Data(post.utf8).write(to: folder.appendingPathComponent("post.md"))
            try FileManager.default.copyItem(at: ContainmentTests.photo, to: folder.appendingPathComponent("1.jpg"))
        }
        let (report, text) = try box.build()
        #expect(text == "" && report.published)
        #expect(LinkChecker.brokenLinks(in: box.output).isEmpty)
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: box.output.appendingPathComponent(path).path) }
        // 26 posts at 10 a page: 3 pages; 52 events (26 likes, 26 comments) at 50 a page: 2.
        for folder in ["ann/", "ann/list/", "bob/tagged/", "bob/following/", "ann/following/"] {
            #expect(exists(folder + "page/3/index.html") && !exists(folder + "page/4/index.html"), "\(folder)")
        }
        #expect(exists("ann/activity/page/2/index.html") && !exists("ann/activity/page/3/index.html"))
        let last = try String(contentsOf: box.output.appendingPathComponent("ann/activity/page/2/index.html"), encoding: .utf8)
        #expect(last.contains("← Newer") || last.contains("rel=\"prev\""))
    }
}
