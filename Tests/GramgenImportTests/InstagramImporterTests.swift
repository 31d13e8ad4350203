import Foundation
import Testing
@testable import GramgenImport

/// Importing into a site: what is written, skipped, kept and reported, and re-running.
struct InstagramImporterTests {
    @Test("one folder per post with photos and videos in carousel order; Reels become posts; types come from the bytes")
    func importsPosts() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let report = try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        #expect(report.handle == "mina.kim")
        #expect(report.posts.map(\.folder) == [
            "content/users/mina.kim/posts/2023-05-02-an-old-one-i-hid",
            "content/users/mina.kim/posts/2024-03-08-cafe-day-in-cafe-with-bob",
            "content/users/mina.kim/posts/2024-03-11-post",
            "content/users/mina.kim/posts/2024-03-13-only-a-video-this-time",
            "content/users/mina.kim/posts/2024-03-14-mixed-carousel-photo-video-photo-mixed",
            "content/users/mina.kim/posts/2024-03-15-line-one-line-two-o-not-a-heading-b-bold",
            "content/users/mina.kim/posts/2024-03-15-rainy-day-reel",
        ])
        #expect(report.posts.map(\.photoCount) == [1, 3, 1, 0, 2, 1, 0])
        #expect(report.posts.map(\.videoCount) == [0, 0, 0, 1, 1, 0, 1])
        #expect(report.posts.map(\.isReel) == [false, false, false, false, false, false, true])
        #expect(report.posts.map(\.isDraft) == [true, false, false, false, false, false, false])
        #expect(report.posts.allSatisfy { $0.outcome == .created })
        #expect(report.profile == .created)

        let carousel = site.appendingPathComponent("content/users/mina.kim/posts/2024-03-08-cafe-day-in-cafe-with-bob")
        let source = ImportTestSupport.newLayout.appendingPathComponent("media/posts/202403")
        for (name, original) in [("1.jpg", "431000111_18001_n.jpg"), ("2.jpg", "429000222_18002_n.jpg"), ("3.jpg", "433000333_18003_n.jpg")] {
            #expect(FileManager.default.contentsEqual(atPath: carousel.appendingPathComponent(name).path,
                                                      andPath: source.appendingPathComponent(original).path))
        }
        // The mixed carousel keeps photo, video, photo in order.
        let mixed = site.appendingPathComponent("content/users/mina.kim/posts/2024-03-14-mixed-carousel-photo-video-photo-mixed")
        #expect(ImportTestSupport.files(in: mixed) == ["1.jpg", "2.mp4", "3.jpg", "post.md"])
        #expect(FileManager.default.contentsEqual(atPath: mixed.appendingPathComponent("2.mp4").path,
                                                  andPath: source.appendingPathComponent("439000888_18008_n.mp4").path))
        #expect(try ImportTestSupport.read(site, "content/users/mina.kim/posts/2024-03-14-mixed-carousel-photo-video-photo-mixed/post.md")
            .contains("  - file: 2.mp4"))
        // The Reel's file has no extension in the export: its bytes say MP4.
        let reel = site.appendingPathComponent("content/users/mina.kim/posts/2024-03-15-rainy-day-reel")
        #expect(ImportTestSupport.files(in: reel) == ["1.mp4", "post.md"])
        #expect(report.skippedFiles.isEmpty)
        #expect(report.postsWithoutMedia.isEmpty)
        let lines = ImportReportFormatter(exportName: "new-layout").lines(for: report)
        #expect(lines.filter(\.isWarning).isEmpty)
        #expect(lines.map(\.text).contains("created content/users/mina.kim/posts/2024-03-14-mixed-carousel-photo-video-photo-mixed/ (2 photos, 1 video)"))
        #expect(lines.map(\.text).contains("created content/users/mina.kim/posts/2024-03-15-rainy-day-reel/ (1 video, a Reel)"))
        #expect(lines.last?.text == "Imported 7 posts (7 new) with 1 Reel, 8 photos, 3 videos.")
        // What the export holds and the import leaves out is counted, never dropped silently.
        #expect(lines.map(\.text).contains("not imported: 2 stories (add --stories to import them as posts tagged #stories)"))
        // bob is a user of the test site, carol is not; "Bob" is bob.
        #expect(lines.map(\.text).contains("not imported: 1 comment (on posts by users of this site (bob); the export says whose post, "
            + "never which one, so gramgen cannot place them: add them to that post's post.md by hand)"))
        #expect(lines.map(\.text).contains("not imported: 1 comment (on posts by accounts that are not users of this site)"))
        #expect(report.notImported.filter { $0.kind == "like" }.map(\.count) == [2, 1])
        #expect(lines.map(\.text).contains("not imported: 1 conversation (direct messages are private: gramgen never reads or publishes them)"))
    }

    @Test("the 2019–2020 layout: media.json (carousels joined back by date and caption), profile.json, connections.json")
    func legacyLayout() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let export = ImportTestSupport.fixtures.appendingPathComponent("legacy-layout")
        let report = try ImportTestSupport.runImport(export, into: site)
        #expect(report.handle == "old.timer")
        #expect(report.posts.map(\.folder) == [
            "content/users/old.timer/posts/2019-05-04-two-from-the-market-seoul",
            "content/users/old.timer/posts/2019-05-20-just-one",
            "content/users/old.timer/posts/2019-06-01-rain-on-the-river",
        ])
        #expect(report.posts.map(\.photoCount) == [2, 1, 0] && report.posts.map(\.videoCount) == [0, 0, 1])
        #expect(report.following == ["bob"] && report.followingLeftOut == ["someone_else"])
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("content/users/old.timer/avatar.jpg").path))
        let carousel = try ImportTestSupport.read(site, "content/users/old.timer/posts/2019-05-04-two-from-the-market-seoul/post.md")
        #expect(carousel.hasPrefix("---\ndate: 2019-05-04T10:20:30Z\nimages:\n  - file: 1.jpg\n  - file: 2.jpg\n"))
        // 18:30 in Seoul is 09:30 UTC.
        #expect(try ImportTestSupport.read(site, "content/users/old.timer/posts/2019-06-01-rain-on-the-river/post.md")
            .contains("date: 2019-06-01T09:30:00Z"))
        let lines = ImportReportFormatter(exportName: "legacy-layout").lines(for: report).map(\.text)
        #expect(lines.contains("not imported: 1 story (add --stories to import them as posts tagged #stories)"))
        #expect(lines.contains { $0.hasPrefix("not imported: 1 comment (on posts by users of this site (bob)") })
        #expect(lines.contains("not imported: 1 like (on posts by accounts that are not users of this site)"))
        #expect(lines.contains { $0.hasPrefix("not imported: 1 like (on posts by users of this site (bob)") })
    }

    /// `new-layout/` as a 2025 export of the same account: posts under `your_instagram_activity/media/`,
    /// media under other paths, and each single-photo post written as a bare media item whose
    /// post-level date (one second earlier in the 2024 shape) is gone.
    static func layout2025(from source: URL) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("export-2025-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: copy)
        let activity = copy.appendingPathComponent("your_instagram_activity")
        try FileManager.default.moveItem(at: activity.appendingPathComponent("content"), to: activity.appendingPathComponent("media"))
        try FileManager.default.moveItem(at: copy.appendingPathComponent("media/posts/202403"),
                                         to: copy.appendingPathComponent("media/posts/2025_03"))
        func moved(_ item: Any) -> Any {
            guard var media = item as? [String: Any] else { return item }
            if let uri = media["uri"] as? String { media["uri"] = uri.replacingOccurrences(of: "/202403/", with: "/2025_03/") }
            return media
        }
        func reshape(_ post: [String: Any]) -> [String: Any] {
            var post = post
            let items = (post["media"] as? [Any] ?? []).map(moved)
            post["media"] = items
            if items.count == 1, var bare = items[0] as? [String: Any] {
                // The caption travels with the item when the post-level fields are gone.
                if let title = post["title"] as? String, !title.isEmpty { bare["title"] = title }
                return bare
            }
            return post
        }
        let posts = activity.appendingPathComponent("media/posts_1.json")
        let list = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: posts)) as? [[String: Any]])
        try JSONSerialization.data(withJSONObject: list.map(reshape)).write(to: posts)
        let archived = activity.appendingPathComponent("media/archived_posts.json")
        var wrapper = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: archived)) as? [String: Any])
        wrapper["ig_archived_post_media"] = (wrapper["ig_archived_post_media"] as? [[String: Any]] ?? []).map(reshape)
        try JSONSerialization.data(withJSONObject: wrapper).write(to: archived)
        return copy
    }

    @Test("the same account exported in the 2024 and then the 2025 shape gives each post once, unchanged")
    func sameAccountTwoShapes() throws {
        let site = try ImportTestSupport.makeSite()
        let later = try Self.layout2025(from: ImportTestSupport.newLayout)
        defer { for url in [site, later] { try? FileManager.default.removeItem(at: url) } }
        let first = try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        let before = ImportTestSupport.files(in: site)
        let second = try ImportTestSupport.runImport(later, into: site)
        #expect(second.posts.map(\.folder) == first.posts.map(\.folder))
        #expect(second.posts.allSatisfy { $0.outcome == .unchanged }, "\(second.posts.map { "\($0.folder) \($0.outcome)" })")
        #expect(ImportTestSupport.files(in: site) == before)
    }

    @Test("a manifest written by version 1 (posts keyed by date and path) is moved to the new keys without duplicates")
    func manifestMigration() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        let before = ImportTestSupport.files(in: site)
        // Rewrite the manifest as version 1 wrote it: the same records under the old keys.
        let manifestURL = site.appendingPathComponent("content/users/mina.kim/.instagram-import.json")
        var manifest = try JSONDecoder().decode(ImportManifest.self, from: Data(contentsOf: manifestURL))
        let export = try ExportReaderTests.read(ImportTestSupport.newLayout)
        var old: [String: ImportManifest.PostRecord] = [:]
        let sorter = MediaSorter(exportRoot: export.root, maxMedia: 10)
        for post in export.posts {
            let media = sorter.sort(post.media).media
            guard let first = media.first, let record = manifest.posts[PostSync.identity(of: post, first: first)] else { continue }
            old[post.key] = record
        }
        #expect(old.count == 7, "the posts of posts_1.json, archived_posts.json and reels.json")
        manifest.posts = old
        manifest.version = 1
        try Data(manifest.encoded().utf8).write(to: manifestURL)
        let again = try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        #expect(ImportTestSupport.files(in: site) == before, "no second copy of any post")
        #expect(again.posts.allSatisfy { $0.outcome == .unchanged })
        let migrated = try JSONDecoder().decode(ImportManifest.self, from: Data(contentsOf: manifestURL))
        #expect(migrated.version == 2 && migrated.posts.count == 7 && !migrated.posts.keys.contains { old[$0] != nil })
    }

    @Test("--stories imports each story as a post tagged stories")
    func stories() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        var options = InstagramImporter.Options(siteRoot: site, export: ImportTestSupport.newLayout, exportName: "new-layout")
        options.includeStories = true
        let report = try InstagramImporter(options: options).run()
        let stories = report.posts.filter(\.isStory)
        #expect(stories.map(\.folder) == ["content/users/mina.kim/posts/2024-03-16-coffee-break",
                                          "content/users/mina.kim/posts/2024-03-16-post"])
        #expect(stories.map(\.videoCount) == [0, 1])
        let text = try ImportTestSupport.read(site, "content/users/mina.kim/posts/2024-03-16-coffee-break/post.md")
        #expect(text.contains("tags: [stories]") && text.contains("Coffee break"))
        #expect(!report.notImported.contains { $0.kind == "story" })
        #expect(ImportReportFormatter(exportName: "x").lines(for: report).last?.text
            == "Imported 9 posts (9 new) with 1 Reel, 2 stories, 9 photos, 4 videos.")
    }

    @Test("profile.md gets name, bio, website, avatar, and only the followed accounts that are users here")
    func profile() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let report = try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        #expect(try ImportTestSupport.read(site, "content/users/mina.kim/profile.md") == """
            ---
            name: "Mina Kim 김민아"
            avatar: "avatar.jpg"
            website: "https://mina.example.com"
            following: [bob]
            ---
            Café hopper in 서울 ☕️\\
            Friends with @bob

            """)
        #expect(FileManager.default.contentsEqual(
            atPath: site.appendingPathComponent("content/users/mina.kim/avatar.jpg").path,
            andPath: ImportTestSupport.newLayout.appendingPathComponent("media/profile/202401/417520034_18023_n.jpg").path))
        #expect(report.following == ["bob"])
        #expect(report.followingLeftOut == ["carol", "zed.design"])
        let text = ImportReportFormatter(exportName: "x").lines(for: report).map(\.text)
        #expect(text.contains("following: 1 of 3 accounts are users of this site; left out 2 (add them as users and import again to include them)"))
    }

    @Test("an export split into two .zip files (text in one, photos in the other), or two folders, imports as the whole")
    func severalParts() throws {
        let whole = try ImportTestSupport.makeSite(), zips = try ImportTestSupport.makeSite(), folders = try ImportTestSupport.makeSite()
        let split = FileManager.default.temporaryDirectory.appendingPathComponent("parts-\(UUID().uuidString)")
        defer { for url in [whole, zips, folders, split] { try? FileManager.default.removeItem(at: url) } }
        let wholeReport = try ImportTestSupport.runImport(ImportTestSupport.oldLayout, into: whole)
        func run(_ parts: [URL], into site: URL) throws -> ImportReport {
            var options = InstagramImporter.Options(siteRoot: site, export: parts[0], exportName: parts[0].lastPathComponent)
            options.moreParts = parts.dropFirst().map { ($0, $0.lastPathComponent) }
            return try InstagramImporter(options: options).run()
        }
        let fixtures = ImportTestSupport.fixtures
        let zipReport = try run([fixtures.appendingPathComponent("old-layout-part1.zip"),
                                 fixtures.appendingPathComponent("old-layout-part2.zip")], into: zips)
        // The same split as folders: the JSON files in one, the media in the other.
        let text = split.appendingPathComponent("text"), media = split.appendingPathComponent("media")
        for (folder, wantsJSON) in [(text, true), (media, false)] {
            for file in ImportTestSupport.files(in: ImportTestSupport.oldLayout) where file.hasSuffix(".json") == wantsJSON {
                let target = folder.appendingPathComponent(file)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: ImportTestSupport.oldLayout.appendingPathComponent(file), to: target)
            }
        }
        let folderReport = try run([text, media], into: folders)
        #expect(zipReport == wholeReport && folderReport == wholeReport)
        #expect(wholeReport.posts.count == 3 && wholeReport.skippedFiles.count == 1, "one photo is missing from the fixture export")
        let expected = ImportTestSupport.files(in: whole.appendingPathComponent("content"))
        #expect(ImportTestSupport.files(in: zips.appendingPathComponent("content")) == expected)
        #expect(ImportTestSupport.files(in: folders.appendingPathComponent("content")) == expected)
        // Only the first part alone: the posts come, their photos are reported missing.
        let alone = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: alone) }
        let partial = try run([fixtures.appendingPathComponent("old-layout-part1.zip")], into: alone)
        #expect(partial.skippedFiles.allSatisfy { $0.reason == .missingFromExport } && partial.skippedFiles.count == 4)
    }

    @Test("direct messages are counted, never unpacked or read: a zip's from its list of names, a folder's from its folders")
    func messagesCounted() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        var options = InstagramImporter.Options(siteRoot: site, export: ImportTestSupport.newLayout, exportName: "new-layout")
        let zip = ImportTestSupport.fixtures.appendingPathComponent("messages-part.zip")
        options.moreParts = [(zip, "messages-part.zip")]
        let report = try InstagramImporter(options: options).run()
        // bob_123 is in both parts: two conversations in all.
        #expect(report.notImported.first { $0.kind == "conversation" }?.count == 2)
        #expect(!ImportTestSupport.files(in: site).contains { $0.contains("message") })
    }

    @Test("the old layout from a .zip gives the same site as from the folder")
    func zipMatchesFolder() throws {
        let fromFolder = try ImportTestSupport.makeSite(), fromZip = try ImportTestSupport.makeSite()
        defer {
            try? FileManager.default.removeItem(at: fromFolder)
            try? FileManager.default.removeItem(at: fromZip)
        }
        let folderReport = try ImportTestSupport.runImport(ImportTestSupport.oldLayout, into: fromFolder)
        let zipReport = try ImportTestSupport.runImport(ImportTestSupport.oldLayoutZip, into: fromZip)
        #expect(folderReport == zipReport)
        let files = ImportTestSupport.files(in: fromZip.appendingPathComponent("content/users/jun_park"))
        #expect(files == ImportTestSupport.files(in: fromFolder.appendingPathComponent("content/users/jun_park")))
        #expect(files == [
            ".instagram-import.json",
            "posts/2021-03-04-first-post-2/1.jpg", "posts/2021-03-04-first-post-2/post.md",
            "posts/2021-03-04-first-post-of-the-day/1.jpg", "posts/2021-03-04-first-post-of-the-day/post.md",
            "posts/2021-03-04-first-post/1.jpg", "posts/2021-03-04-first-post/post.md",
            "profile.md",
        ])
        for file in files {
            let a = fromFolder.appendingPathComponent("content/users/jun_park/\(file)").path
            let b = fromZip.appendingPathComponent("content/users/jun_park/\(file)").path
            #expect(FileManager.default.contentsEqual(atPath: a, andPath: b), "\(file) differs")
        }
        #expect(zipReport.skippedFiles == [
            .init(uri: "media/posts/202103/158009_n.jpg", reason: .missingFromExport, postDay: "2021-03-04", postFolder: nil),
        ])
        // The photo without a file extension was recognised as a JPEG by its first bytes.
        #expect(files.contains("posts/2021-03-04-first-post-of-the-day/1.jpg"))
    }

    @Test("a missing unzip program is reported with what to do")
    func unzipMissing() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let error = try #require(throws: ImportError.self) {
            try ImportTestSupport.runImport(ImportTestSupport.oldLayoutZip, into: site, unzipPath: "/nonexistent/unzip")
        }
        #expect(error == .unzipMissing(zip: "old-layout.zip"))
        #expect(error.description.contains("unzip the export yourself and pass the folder"))
    }

    @Test("a damaged zip names the file")
    func damagedZip() throws {
        let site = try ImportTestSupport.makeSite()
        let folder = try ImportTestSupport.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: site)
            try? FileManager.default.removeItem(at: folder)
        }
        let zip = folder.appendingPathComponent("export.zip")
        let data = try Data(contentsOf: ImportTestSupport.oldLayoutZip)
        try data.prefix(data.count / 2).write(to: zip)
        let error = try #require(throws: ImportError.self) { try ImportTestSupport.runImport(zip, into: site) }
        guard case .unzipFailed(let name, _) = error else {
            Issue.record("expected unzipFailed, got \(error)")
            return
        }
        #expect(name == "export.zip")
    }

    @Test("re-running changes nothing, and restores a deleted post in its old folder")
    func idempotent() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        let before = ImportTestSupport.files(in: site)
        let manifest = try ImportTestSupport.read(site, "content/users/mina.kim/.instagram-import.json")

        let again = try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        #expect(again.posts.allSatisfy { $0.outcome == .unchanged })
        #expect(again.profile == .unchanged)
        #expect(again.written.isEmpty)
        #expect(ImportTestSupport.files(in: site) == before)
        #expect(try ImportTestSupport.read(site, "content/users/mina.kim/.instagram-import.json") == manifest)
        #expect(ImportReportFormatter(exportName: "x").lines(for: again).last?.text == "Imported 7 posts (7 unchanged) with 1 Reel, 8 photos, 3 videos.")

        let folder = "content/users/mina.kim/posts/2024-03-11-post"
        try FileManager.default.removeItem(at: site.appendingPathComponent(folder))
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/users/mina.kim/posts/2024-03-08-cafe-day-in-cafe-with-bob/2.jpg"))
        let third = try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        #expect(third.posts.map(\.outcome) == [.unchanged, .restored, .restored, .unchanged, .unchanged, .unchanged, .unchanged])
        #expect(ImportTestSupport.files(in: site) == before)
    }

    @Test("an edited post.md or profile.md is kept, and the run says so")
    func keepsEdits() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        let post = "content/users/mina.kim/posts/2024-03-11-post/post.md"
        let edited = try ImportTestSupport.read(site, post).replacingOccurrences(of: "#밤", with: "#밤 — my favourite walk")
        try ImportTestSupport.write(edited, to: site.appendingPathComponent(post))
        try ImportTestSupport.write("---\nname: Mina\n---\nMy own bio\n", to: site.appendingPathComponent("content/users/mina.kim/profile.md"))

        for _ in 0..<2 {
            let report = try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
            #expect(report.posts.first { $0.folder.hasSuffix("2024-03-11-post") }?.outcome == .keptEdits)
            #expect(report.profile == .keptEdits)
            #expect(report.written.isEmpty)
            let text = ImportReportFormatter(exportName: "x").lines(for: report).map(\.text)
            #expect(text.contains("kept your edits in content/users/mina.kim/posts/2024-03-11-post/post.md "
                + "(delete it and import again to take the export's version)"))
            #expect(text.contains("kept your edits in content/users/mina.kim/profile.md "
                + "(delete it and import again to take the export's profile)"))
        }
        #expect(try ImportTestSupport.read(site, post) == edited)
        #expect(try ImportTestSupport.read(site, "content/users/mina.kim/profile.md") == "---\nname: Mina\n---\nMy own bio\n")
    }

    @Test("a changed caption in a newer export updates the post the user has not edited")
    func updates() throws {
        let site = try ImportTestSupport.makeSite()
        let export = try ImportTestSupport.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: site)
            try? FileManager.default.removeItem(at: export)
        }
        let copy = export.appendingPathComponent("old")
        try FileManager.default.copyItem(at: ImportTestSupport.oldLayout, to: copy)
        try ImportTestSupport.runImport(copy, into: site)
        let postsFile = copy.appendingPathComponent("content/posts_1.json")
        let json = try String(contentsOf: postsFile, encoding: .utf8).replacingOccurrences(of: "\"First post\"", with: "\"First post, edited on Instagram\"")
        try ImportTestSupport.write(json, to: postsFile)
        let report = try ImportTestSupport.runImport(copy, into: site)
        #expect(report.posts.map(\.outcome) == [.updated, .unchanged, .unchanged])
        #expect(report.posts.first?.folder == "content/users/jun_park/posts/2021-03-04-first-post")
        #expect(try ImportTestSupport.read(site, "content/users/jun_park/posts/2021-03-04-first-post/post.md")
            .hasSuffix("---\nFirst post, edited on Instagram\n"))
    }

    @Test("--dry-run writes nothing and lists what it would write")
    func dryRun() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let before = ImportTestSupport.files(in: site)
        let report = try ImportTestSupport.runImport(ImportTestSupport.oldLayoutZip, into: site, dryRun: true)
        #expect(ImportTestSupport.files(in: site) == before)
        #expect(report.written == [
            "content/users/jun_park/profile.md",
            "content/users/jun_park/posts/2021-03-04-first-post/1.jpg",
            "content/users/jun_park/posts/2021-03-04-first-post/post.md",
            "content/users/jun_park/posts/2021-03-04-first-post-of-the-day/1.jpg",
            "content/users/jun_park/posts/2021-03-04-first-post-of-the-day/post.md",
            "content/users/jun_park/posts/2021-03-04-first-post-2/1.jpg",
            "content/users/jun_park/posts/2021-03-04-first-post-2/post.md",
            "content/users/jun_park/.instagram-import.json",
        ])
        let lines = ImportReportFormatter(exportName: "old-layout.zip").lines(for: report).map(\.text)
        #expect(lines.first == "Dry run: would import @jun_park from old-layout.zip into content/users/jun_park/")
        #expect(lines.contains("would create content/users/jun_park/posts/2021-03-04-first-post/ (1 photo)"))
        #expect(lines.contains("Would write:"))
        #expect(lines.last == "  content/users/jun_park/.instagram-import.json")
    }

    @Test("the handle comes from --handle or the export; a bad one says to pass --handle")
    func handles() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let report = try ImportTestSupport.runImport(ImportTestSupport.oldLayout, into: site, handle: "jun", dryRun: true)
        #expect(report.userFolder == "content/users/jun")
        let error = try #require(throws: ImportError.self) {
            try ImportTestSupport.runImport(ImportTestSupport.oldLayout, into: site, handle: "about", dryRun: true)
        }
        #expect(error.description == "'about' (from --handle) cannot be a handle: 'about' is reserved for the site's own pages — pass a different one with --handle NAME")

        let export = try ImportTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: export) }
        try ImportTestSupport.write("[]", to: export.appendingPathComponent("content/posts_1.json"))
        #expect(throws: ImportError.noUsername(export: export.lastPathComponent)) {
            try ImportTestSupport.runImport(export, into: site, dryRun: true)
        }
    }

    @Test("a carousel longer than max_images_per_post keeps the first photos and reports the rest")
    func overLimit() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try ImportTestSupport.write("title: test\nmax_images_per_post: 2 # small\n", to: site.appendingPathComponent("content/site.yml"))
        let report = try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        #expect(report.posts[1].photoCount == 2)
        #expect(report.skippedFiles.contains(.init(
            uri: "media/posts/202403/433000333_18003_n.jpg", reason: .overLimit(2), postDay: "2024-03-08",
            postFolder: "content/users/mina.kim/posts/2024-03-08-cafe-day-in-cafe-with-bob")))
    }

    @Test("a site without content/ is refused")
    func noSite() throws {
        let folder = try ImportTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ImportError.noContentFolder(site: folder.path)) {
            try ImportTestSupport.runImport(ImportTestSupport.oldLayout, into: folder)
        }
    }
}
