import Foundation
import Testing
@testable import GramgenImport

/// Finding and reading the files of both export layouts.
struct ExportReaderTests {
    static func read(_ folder: URL) throws -> InstagramExport {
        try ExportReader(layout: ExportLayout.locate(in: folder, name: folder.lastPathComponent)).read()
    }

    @Test("the profile picture is found under 'Profile Photo' and under 2026's 'Profile photo'")
    func profilePhotoSpelling() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ImportTestSupport.newLayout, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let info = copy.appendingPathComponent("personal_information/personal_information/personal_information.json")
        let text = try String(contentsOf: info, encoding: .utf8)
        #expect(text.contains("\"Profile Photo\""))
        try text.replacingOccurrences(of: "\"Profile Photo\"", with: "\"Profile photo\"").write(to: info, atomically: true, encoding: .utf8)
        #expect(try Self.read(copy).profile.avatarURI == "media/profile/202401/417520034_18023_n.jpg")
    }

    @Test("the 2024+ layout: your_instagram_activity/content, personal_information/personal_information")
    func newLayout() throws {
        let layout = try ExportLayout.locate(in: ImportTestSupport.newLayout, name: "new-layout")
        #expect(layout.postFiles == ["your_instagram_activity/content/posts_1.json"])
        #expect(layout.archivedPostsFile == "your_instagram_activity/content/archived_posts.json")
        #expect(layout.profileFile == "personal_information/personal_information/personal_information.json")
        #expect(layout.followingFile == "connections/followers_and_following/following.json")

        let export = try Self.read(ImportTestSupport.newLayout)
        #expect(export.profile == ExportProfile(
            username: "mina.kim", name: "Mina Kim 김민아", bio: "Café hopper in 서울 ☕️\nFriends with @bob",
            website: "mina.example.com", avatarURI: "media/profile/202401/417520034_18023_n.jpg"))
        #expect(export.following == ["bob", "carol", "zed.design"])
        #expect(export.posts.count == 7)
        #expect(export.posts.filter(\.isArchived).map(\.caption) == ["An old one I hid"])
        let reels = export.posts.filter(\.isReel)
        #expect(reels.count == 1 && reels.first?.media.first?.uri == "media/reels/202403/440000999_18009_n")
    }

    @Test("the 2021–2023 layout: content/posts_1.json, personal_information/personal_information.json")
    func oldLayout() throws {
        let layout = try ExportLayout.locate(in: ImportTestSupport.oldLayout, name: "old-layout")
        #expect(layout.postFiles == ["content/posts_1.json"])
        #expect(layout.archivedPostsFile == nil)
        #expect(layout.profileFile == "personal_information/personal_information.json")
        #expect(layout.followingFile == "followers_and_following/following.json")
        let export = try Self.read(ImportTestSupport.oldLayout)
        #expect(export.profile.username == "jun_park")
        #expect(export.profile.bio == nil)
        #expect(export.posts.map(\.caption) == [
            "First post 😊 — 카페에서", "First post of the day 🎉", "This photo is missing from the export", "First post",
        ])
    }

    @Test("a carousel keeps its media order; alt text is read where present")
    func carouselOrder() throws {
        let post = try #require(try Self.read(ImportTestSupport.newLayout).posts.first { $0.media.count == 3 && $0.caption.hasPrefix("Café") })
        #expect(post.media.map { ($0.uri as NSString).lastPathComponent } ==
            ["431000111_18001_n.jpg", "429000222_18002_n.jpg", "433000333_18003_n.jpg"])
        #expect(post.media.map(\.alt) == [nil, "Latte art shaped like a tulip", nil])
        #expect(post.caption == "Café day in 서울 ☕️🌸 #café #서울 with @bob")
        #expect(post.timestamp == 1709876543)
    }

    @Test("a single-image post may carry its caption on the media item")
    func captionOnMediaItem() throws {
        let post = try #require(try Self.read(ImportTestSupport.newLayout).posts.first { $0.timestamp == 1710200000 })
        #expect(post.caption == "한강 산책 🌙 #한강 #밤")
    }

    @Test("an export inside a single top-level folder is found")
    func nestedFolder() throws {
        let outer = try ImportTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: outer) }
        try FileManager.default.copyItem(at: ImportTestSupport.oldLayout, to: outer.appendingPathComponent("instagram-jun_park-2023-05-01"))
        let layout = try ExportLayout.locate(in: outer, name: "outer")
        #expect(layout.root.lastPathComponent == "instagram-jun_park-2023-05-01")
    }

    @Test("posts_2.json follows posts_1.json, and posts_10.json follows posts_9.json")
    func numberedFiles() throws {
        let root = try ImportTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        for n in [1, 2, 9, 10] {
            try ImportTestSupport.write("[]", to: root.appendingPathComponent("content/posts_\(n).json"))
        }
        let layout = try ExportLayout.locate(in: root, name: "x")
        #expect(layout.postFiles == ["content/posts_1.json", "content/posts_2.json", "content/posts_9.json", "content/posts_10.json"])
    }

    @Test("a folder that is not an export, or an HTML export, says what to do")
    func notAnExport() throws {
        let root = try ImportTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(throws: ImportError.notAnExport(path: "my-folder")) { try ExportLayout.locate(in: root, name: "my-folder") }
        try ImportTestSupport.write("<html>", to: root.appendingPathComponent("your_instagram_activity/content/posts_1.html"))
        #expect(throws: ImportError.htmlExport(path: "my-folder")) { try ExportLayout.locate(in: root, name: "my-folder") }
        #expect(ImportError.htmlExport(path: "my-folder").description.contains("choose the JSON format"))
    }

    @Test("broken JSON names the file")
    func brokenJSON() throws {
        let root = try ImportTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try ImportTestSupport.write("[{\"media\": [", to: root.appendingPathComponent("content/posts_1.json"))
        let error = try #require(throws: ImportError.self) { try Self.read(root) }
        #expect(error.description.hasPrefix("content/posts_1.json: not valid JSON"))
        try ImportTestSupport.write("{\"posts\": 3}", to: root.appendingPathComponent("content/posts_1.json"))
        #expect(throws: ImportError.unexpectedJSON(file: "content/posts_1.json", expected: "a list of posts")) { try Self.read(root) }
    }
}
