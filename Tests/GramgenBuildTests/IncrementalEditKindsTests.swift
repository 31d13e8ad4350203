import Foundation
import Testing
@testable import GramgenBuild
import GramgenServe

/// After each kind of edit a person makes to a site, a build that takes over unchanged pages from
/// the last one gives exactly the files a build from scratch gives (byte for byte, same file list).
struct IncrementalEditKindsTests {
    enum Edit: String, CaseIterable, CustomTestStringConvertible {
        case captionText, captionNewHashtag, captionDropHashtag, addPost, deletePost, renamePost, draftOn, draftOff,
             follow, unfollow, like, unlike, comment, commentMention, profileName, profileBio, profileWebsite, addUser,
             deleteUser, template, configTitle, configPageSize, replacePhoto, addPhoto, sensitive,
             repost, location, date, frontMatterTags, messages

        var testDescription: String { rawValue }
    }

    /// The incremental test site, with a like, a draft and a follow to take away.
    static func makeSite() throws -> URL {
        let site = try IncrementalBuildTests.makeSite()
        try write(site, "content/users/ana/posts/2024-01-12-walk/post.md",
                  "---\ndate: 2024-01-12T10:00:00Z\nliked_by: [ben, cleo]\n---\nWalk 2 by @ana #food\n")
        try write(site, "content/users/ben/posts/2024-02-20-draft/post.md",
                  "---\ndate: 2024-02-20T10:00:00Z\ndraft: true\n---\nNot yet #later\n")
        try copyPhoto(site, to: "content/users/ben/posts/2024-02-20-draft/1.jpg")
        // Someone nobody names, to be deleted.
        try write(site, "content/users/eve/profile.md", "---\nname: Eve\n---\nQuiet.\n")
        try write(site, "content/users/eve/posts/2024-03-01-only/post.md", "Only one #river\n")
        try copyPhoto(site, to: "content/users/eve/posts/2024-03-01-only/1.jpg")
        return site
    }

    static func write(_ site: URL, _ path: String, _ text: String) throws {
        let url = site.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func copyPhoto(_ site: URL, to path: String, from source: String = "alice/posts/2024-06-01-market/1.jpg") throws {
        let url = site.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: GoldenSiteTests.site.appendingPathComponent("content/users/" + source), to: url)
    }

    static func apply(_ edit: Edit, to site: URL) throws {
        let fm = FileManager.default
        let ben15 = "content/users/ben/posts/2024-02-15-walk"
        switch edit {
        case .captionText:
            try write(site, "\(ben15)/post.md", "---\ndate: 2024-02-15T10:00:00Z\n---\nA new caption #food\n")
        case .captionNewHashtag:
            try write(site, "\(ben15)/post.md", "---\ndate: 2024-02-15T10:00:00Z\n---\nWalk 5 by @ben #food #brandnew\n")
        case .captionDropHashtag:
            // #food stays on other posts, with one post fewer.
            try write(site, "\(ben15)/post.md", "---\ndate: 2024-02-15T10:00:00Z\n---\nWalk 5 by @ben\n")
        case .addPost:
            try write(site, "content/users/cleo/posts/2024-03-30-new/post.md", "New one #city\n")
            try copyPhoto(site, to: "content/users/cleo/posts/2024-03-30-new/1.jpg")
        case .deletePost:
            try fm.removeItem(at: site.appendingPathComponent(ben15))
        case .renamePost:
            try fm.moveItem(at: site.appendingPathComponent(ben15),
                            to: site.appendingPathComponent("content/users/ben/posts/2024-02-15-renamed"))
        case .draftOn:
            try write(site, "\(ben15)/post.md", "---\ndate: 2024-02-15T10:00:00Z\ndraft: true\n---\nWalk 5 by @ben #food\n")
        case .draftOff:
            try write(site, "content/users/ben/posts/2024-02-20-draft/post.md", "---\ndate: 2024-02-20T10:00:00Z\n---\nNot yet #later\n")
        case .follow:
            try write(site, "content/users/ana/profile.md", "---\nname: Ana\nfollowing: [ben]\n---\nHello from ana.\n")
        case .unfollow:
            try write(site, "content/users/cleo/profile.md", "---\nname: Cleo\n---\nHello from cleo.\n")
        case .like:
            try write(site, "\(ben15)/post.md", "---\ndate: 2024-02-15T10:00:00Z\nliked_by: [ana]\n---\nWalk 5 by @ben #food\n")
        case .unlike:
            try write(site, "content/users/ana/posts/2024-01-12-walk/post.md",
                      "---\ndate: 2024-01-12T10:00:00Z\nliked_by: [cleo]\n---\nWalk 2 by @ana #food\n")
        case .comment:
            try write(site, "\(ben15)/post.md", """
                ---
                date: 2024-02-15T10:00:00Z
                comments:
                  - author: cleo
                    date: 2024-02-16T09:00:00Z
                    text: "Lovely"
                ---
                Walk 5 by @ben #food

                """)
        case .commentMention:
            try write(site, "\(ben15)/post.md", """
                ---
                date: 2024-02-15T10:00:00Z
                comments:
                  - author: cleo
                    date: 2024-02-16T09:00:00Z
                    text: "Look @ana #river"
                ---
                Walk 5 by @ben #food

                """)
        case .profileName:
            try write(site, "content/users/ben/profile.md", "---\nname: Benjamin\n---\nHello from ben.\n")
        case .profileBio:
            try write(site, "content/users/ben/profile.md", "---\nname: Ben\n---\nNow in Lyon. #city\n")
        case .profileWebsite:
            try write(site, "content/users/ben/profile.md",
                      "---\nname: Ben\nwebsite: https://ben.example/\nlocation: Lyon\n---\nHello from ben.\n")
        case .addUser:
            try write(site, "content/users/dora/profile.md", "---\nname: Dora\nfollowing: [ana]\n---\nNew here.\n")
        case .deleteUser:
            try fm.removeItem(at: site.appendingPathComponent("content/users/eve"))
        case .template:
            let foot = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("templates/foot.mustache"), encoding: .utf8)
            try write(site, "templates/foot.mustache", foot.replacingOccurrences(of: "</footer>", with: "<p>custom</p></footer>"))
        case .configTitle, .configPageSize:
            let url = site.appendingPathComponent("content/site.yml")
            let text = try String(contentsOf: url, encoding: .utf8)
            try Data((edit == .configTitle ? text.replacingOccurrences(of: "\"Incremental\"", with: "\"Renamed\"")
                      : text.replacingOccurrences(of: "posts_per_page: 6", with: "posts_per_page: 4")).utf8).write(to: url)
        case .replacePhoto:
            try copyPhoto(site, to: "\(ben15)/1.jpg", from: "bob/posts/2024-05-30-Ridge_walk/10.jpg")
        case .addPhoto:
            try copyPhoto(site, to: "\(ben15)/2.jpg", from: "bob/posts/2024-05-30-Ridge_walk/10.jpg")
        case .sensitive:
            try write(site, "\(ben15)/post.md", "---\ndate: 2024-02-15T10:00:00Z\nsensitive: true\n---\nWalk 5 by @ben #food\n")
        case .repost:
            try write(site, "content/users/cleo/posts/2024-03-31-repost/post.md",
                      "---\nrepost: ben/2024-02-15-walk\n---\nSo good\n")
        case .location:
            try write(site, "\(ben15)/post.md", "---\ndate: 2024-02-15T10:00:00Z\nlocation: Lyon\n---\nWalk 5 by @ben #food\n")
        case .date:
            try write(site, "\(ben15)/post.md", "---\ndate: 2024-03-29T10:00:00Z\n---\nWalk 5 by @ben #food\n")
        case .messages:
            // The site's own texts: every page shows some (the older-post link on post pages).
            try write(site, "content/i18n/en.yml", "older_post: \"Earlier one\"\n")
        case .frontMatterTags:
            try write(site, "\(ben15)/post.md", "---\ndate: 2024-02-15T10:00:00Z\ntags: [river, autumn]\n---\nWalk 5 by @ben #food\n")
        }
    }

    @Test("after each kind of edit, an incremental build equals a build from scratch", arguments: Edit.allCases)
    func editKind(_ edit: Edit) throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let first = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(first.published, "\(first.diagnostics.items)")
        try Self.apply(edit, to: site)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published, "\(second.diagnostics.items)")
        #expect(!second.upToDate, "the edit was seen")
        if [.captionText, .like, .location, .replacePhoto, .profileBio, .profileWebsite].contains(edit) {
            // An edit of one post or one bio that changes nothing else takes over pages that do
            // not show it.
            #expect(second.pagesReused > 0, "\(edit): drew \(second.pagesDrawn), took over \(second.pagesReused)")
        }
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a serve rebuild takes the last build's images in one piece when they are the very same, around a change otherwise, and only from the build just before")
    func imagesInOnePiece() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let memory = BuildMemory()
        var caption = 0
        /// Applies `edit` (a new caption on a post no edit here touches, when nil), builds, and
        /// tells whether the image stage took the last build's images in one piece.
        func build(after edit: Edit?) throws -> (whole: Bool, report: BuildReport) {
            if let edit {
                try Self.apply(edit, to: site)
            } else {
                caption += 1
                try Self.write(site, "content/users/cleo/posts/2024-03-15-walk/post.md", "Caption \(caption) #city\n")
            }
            let report = try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = true }
            #expect(report.published, "\(report.diagnostics.items)")
            try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
            return (memory.images.tookWhole, report)
        }
        #expect(try build(after: nil).whole == false, "a first build has nothing in memory")
        // Each build keeps what it found or made of every image for the next one.
        let second = try build(after: nil)
        #expect(second.whole && memory.images.reused == second.report.imagesFromCache, "the same images: taken in one piece")
        #expect(try build(after: nil).whole)
        // A post made a draft: a photo fewer (the rest are taken around it). Published again,
        // its photo is back: looked up again, not taken from two builds ago (the build between
        // did not use it).
        let fewer = try build(after: .draftOn)
        #expect(!fewer.whole && memory.images.reused == fewer.report.imagesFromCache, "a photo fewer, the rest taken around it")
        let back = try build(after: .captionText)
        #expect(!back.whole && memory.images.reused == back.report.imagesFromCache - 1, "the photo back, looked up again")
        #expect(try build(after: nil).whole, "the build before kept every image it found or made")
        #expect(try build(after: .replacePhoto).whole == false, "a photo changed")
        #expect(try build(after: nil).whole)
        // A photo fewer and a new one in one edit: that build keeps nothing whole, and prunes
        // the first photo's cache files. Both undone, the images are exactly those of two builds
        // ago, every file as it was, and still not taken from then.
        let extra = "content/users/cleo/posts/2024-03-15-walk/9.jpg"
        try Self.apply(.draftOn, to: site)
        try Self.copyPhoto(site, to: extra, from: "bob/posts/2024-05-30-Ridge_walk/10.jpg")
        #expect(try build(after: nil).whole == false)
        try FileManager.default.removeItem(at: site.appendingPathComponent(extra))
        #expect(try build(after: .captionText).whole == false, "only the build just before serves")
    }

    @Test("a serve rebuild takes the theme and the media files as the last build made them until a template or a photo changes, and reports the theme's warnings each time")
    func themeAndMediaKept() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let memory = BuildMemory()
        try Self.write(site, "templates/extra.mustache", "<p>\n{{> missing-card}}\n</p>\n")
        func build() throws -> (report: BuildReport, warnings: Int) {
            let report = try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = true }
            #expect(report.published, "\(report.diagnostics.items)")
            try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
            return (report, report.diagnostics.items.filter { $0.severity == .warning && $0.message.contains("missing-card") }.count)
        }
        let first = try build()
        #expect(!first.report.themeKept && !first.report.mediaKept && first.warnings == 1, "a first build has nothing in memory")
        try Self.apply(.captionText, to: site)
        let caption = try build()
        #expect(caption.report.themeKept && caption.report.mediaKept, "a caption edit changes neither")
        #expect(caption.warnings == 1, "the kept theme's warning, reported again")
        try Self.write(site, "templates/extra.mustache", "<p>{{title}}</p>\n")
        let template = try build()
        #expect(!template.report.themeKept && template.report.mediaKept && template.warnings == 0, "the theme made again")
        try Self.apply(.replacePhoto, to: site)
        let photo = try build()
        #expect(photo.report.themeKept && !photo.report.mediaKept, "the media made again")
        // A template that reads the same as before, written again: the same theme.
        try Self.write(site, "templates/extra.mustache", "<p>{{title}}</p>\n")
        #expect(try build().report.themeKept)
    }

    @Test("a serve session that adds and deletes posts lists only its images' keys in the image cache's index")
    func cacheIndexAcrossPosts() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let memory = BuildMemory()
        func build() throws {
            let report = try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = true }
            #expect(report.published, "\(report.diagnostics.items)")
        }
        func indexLines() -> Int {
            ((try? String(contentsOf: cache.appendingPathComponent("index"), encoding: .utf8)) ?? "").split(separator: "\n").count
        }
        try build()
        let start = indexLines()
        let photo = GoldenSiteTests.site.appendingPathComponent("content/users/alice/posts/2024-06-01-market/1.jpg")
        for round in 0..<4 {
            // A post with a photo of its own (a cache key of its own), then deleted: its images
            // are taken around it both times.
            let folder = site.appendingPathComponent("content/users/ana/posts/2024-05-\(10 + round)-new")
            try Self.write(site, "content/users/ana/posts/2024-05-\(10 + round)-new/post.md", "New \(round)\n")
            try (Data(contentsOf: photo) + Data("trailing \(round)".utf8)).write(to: folder.appendingPathComponent("1.jpg"))
            try build()
            try FileManager.default.removeItem(at: folder)
            try build()
            memory.settle(writing: true)
            #expect(indexLines() == start, "round \(round): \(indexLines()) lines in the index, \(start) at the start")
        }
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("in a process that keeps what each build leaves (gramgen serve), each kind of edit still gives a build from scratch's files",
          arguments: Edit.allCases)
    func editKindWithMemory(_ edit: Edit) async throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        // The real watcher tells which folders change, as in `gramgen serve`.
        let memory = BuildMemory()
        let watch = ChangeWatcher.changes(siteRoot: site, debounceMilliseconds: 100, settleMilliseconds: 30,
                                          folderChanges: memory.folderChanges)
        #expect(watch.method == "inotify")
        let listening = Task { for await _ in watch.stream {} }
        defer { listening.cancel() }
        func build() throws -> BuildReport {
            try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = true }
        }
        let first = try build()
        #expect(first.published, "\(first.diagnostics.items)")
        // Every post folder, drafts too, is read once.
        let folders = memory.posts.read
        #expect(memory.posts.reused == 0 && folders > first.postCount)
        let contentFolders = memory.listings.read
        /// Waits for the watcher to end the burst of what was just done (a build follows its
        /// signal, as in serve). Counted on the watcher's own thread: a task counting the signals
        /// may wait long for a thread while other tests' builds hold them all.
        func watched() async throws {
            let before = memory.folderChanges.bursts, deadline = Date().addingTimeInterval(20)
            while memory.folderChanges.bursts == before, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(memory.folderChanges.bursts > before, "the watcher saw the edit")
        }
        try Self.apply(edit, to: site)
        try await watched()
        let second = try build()
        if edit != .template {
            // Only the folders the edit touched (and any it made) are read again; a new
            // templates/ is a new input folder, after which every folder is read.
            #expect(memory.listings.read <= 3, "\(edit): \(memory.listings.read) of \(contentFolders) folders read")
        }
        #expect(second.published, "\(second.diagnostics.items)")
        #expect(!second.upToDate, "the edit was seen")
        if ![.template, .configTitle, .configPageSize, .addUser, .deleteUser, .messages].contains(edit) {
            // Same configuration and handles: every post but the edited one is taken from memory.
            #expect(memory.posts.reused >= folders - 1, "\(edit): reused \(memory.posts.reused), read \(memory.posts.read)")
            #expect(memory.posts.read <= 2, "\(edit): read \(memory.posts.read)")
            // And every image but a new or replaced one is taken from memory.
            #expect(memory.images.reused >= second.imagesFromCache - 1, "\(edit): \(memory.images.reused) images from memory")
        }
        if [.captionText, .captionDropHashtag, .location, .replacePhoto, .like, .profileBio].contains(edit) {
            // Nothing site-wide changed: the search index takes every post but the edited one
            // from memory (the built-in theme shows no hashtag counts on posts, so the other
            // #food posts' digests stay as they were when one post drops it).
            #expect(memory.search.reused >= second.postCount - 1, "\(edit): \(memory.search.reused) search documents from memory")
        }
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        let third = try build()
        #expect(third.upToDate, "nothing changed since")
        // What the second build recorded of the folder serves the next one, in this process and
        // in a new one (from the record on disk).
        try Self.write(site, "content/users/cleo/posts/2024-03-15-walk/post.md", "A later caption #city\n")
        try await watched()
        _ = try build()
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        try Self.write(site, "content/users/cleo/posts/2024-03-15-walk/post.md", "Another caption #city\n")
        _ = try TestSupport.build(site: site, output: output, cache: cache, memory: BuildMemory()) { $0.publishInPlace = true }
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a theme that shows each hashtag's post count on post pages gets them redrawn when a count changes")
    func tagCountsShownOnPosts() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let post = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("templates/post.mustache"), encoding: .utf8)
        try Self.write(site, "templates/post.mustache",
                       post.replacingOccurrences(of: "{{#post}}", with: "{{#post}}<p>{{#tags}}{{name}}={{count}} {{/tags}}</p>"))
        let memory = BuildMemory()
        func build() throws -> BuildReport {
            try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = true }
        }
        let first = try build()
        #expect(first.published, "\(first.diagnostics.items)")
        let other = output.appendingPathComponent("ana/p/2024-01-12-walk/index.html")
        let shown = try String(contentsOf: other, encoding: .utf8)
        #expect(shown.contains("food=12 "), "\(shown.prefix(3000))")
        try Self.apply(.captionDropHashtag, to: site)
        let second = try build()
        #expect(second.published, "\(second.diagnostics.items)")
        #expect(try String(contentsOf: other, encoding: .utf8).contains("food=11 "))
        // The other #food posts' digests changed with the count.
        #expect(memory.search.reused < second.postCount - 1, "\(memory.search.reused) search documents from memory")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a kept post is read again when its folder holds a link, and a build with errors keeps the memory usable")
    func memoryAndLinksAndErrors() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let memory = BuildMemory()
        func build() throws -> BuildReport {
            try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = true }
        }
        let linked = site.appendingPathComponent("content/users/ana/posts/2024-01-11-walk/2.jpg")
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: "1.jpg")
        let first = try build()
        #expect(first.published, "\(first.diagnostics.items)")
        let folders = memory.posts.read // all but the one holding a link
        #expect(memory.posts.reused == 0 && folders >= first.postCount - 1)
        // Rebuilt with nothing changed but a caption: the post holding a link is read again.
        try Self.write(site, "content/users/cleo/posts/2024-03-11-walk/post.md", "Changed #city\n")
        let second = try build()
        #expect(second.published, "\(second.diagnostics.items)")
        #expect(memory.posts.reused == folders - 1 && memory.posts.read == 1, "reused \(memory.posts.reused), read \(memory.posts.read)")
        // A caption that breaks the front matter: the build stops with the file named, and the
        // output stays as it was.
        let broken = "content/users/ben/posts/2024-02-15-walk/post.md"
        try Self.write(site, broken, "---\ndate: [unclosed\n---\nBroken\n")
        let failed = try build()
        #expect(!failed.published)
        #expect(failed.diagnostics.items.contains { $0.location.path.hasSuffix("2024-02-15-walk/post.md") },
                "\(failed.diagnostics.items)")
        #expect(memory.posts.reused == folders - 1 && memory.posts.read == 1)
        try Self.write(site, broken, "---\ndate: 2024-02-15T10:00:00Z\n---\nFixed #food\n")
        let fixed = try build()
        #expect(fixed.published, "\(fixed.diagnostics.items)")
        #expect(memory.posts.read == 1)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a server's rebuild takes each profile whose user folder did not change as it was read; an edited profile, an avatar put in, a folder holding a link are read again")
    func profilesKept() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let memory = BuildMemory()
        var edits = 0
        // Each build after a caption edit of its own, so that it loads the site.
        func build() throws -> BuildReport {
            edits += 1
            try Self.write(site, "content/users/ben/posts/2024-02-15-walk/post.md", "---\ndate: 2024-02-15T10:00:00Z\n---\nEdit \(edits) #food\n")
            return try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = true }
        }
        let users = 4  // ana, ben, cleo, eve
        let first = try build()
        #expect(first.published, "\(first.diagnostics.items)")
        #expect(memory.posts.profilesReused == 0)
        #expect(try build().published)
        #expect(memory.posts.profilesReused == users, "\(memory.posts.profilesReused) profiles taken")
        try Self.write(site, "content/users/ben/profile.md", "---\nname: Ben\n---\nA bio of today.\n")
        #expect(try build().published)
        #expect(memory.posts.profilesReused == users - 1)
        #expect(try String(contentsOf: output.appendingPathComponent("ben/index.html"), encoding: .utf8).contains("A bio of today."))
        // An avatar put in cleo's folder, found by its name (her profile names none).
        try Self.copyPhoto(site, to: "content/users/cleo/avatar.jpg")
        #expect(try build().published)
        #expect(memory.posts.profilesReused == users - 1)
        #expect(try String(contentsOf: output.appendingPathComponent("cleo/index.html"), encoding: .utf8).contains("media/"))
        // A link in ana's folder: whether what it reaches is inside the site depends on folders
        // its stamp does not see, so her profile is read at every load from now on.
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("content/users/ana/notes.md").path,
                                                   withDestinationPath: "profile.md")
        #expect(try build().published)
        #expect(try build().published)
        #expect(memory.posts.profilesReused == users - 1, "ana's read again: \(memory.posts.profilesReused) taken")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("after a start that finds the output up to date, a warm-up loads the site, so the first edit reads one post")
    func warmUp() throws {
        let site = try Self.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        func build(_ memory: BuildMemory) throws -> BuildReport {
            try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = true }
        }
        let before = BuildMemory()
        let first = try build(before)
        #expect(first.published && !first.upToDate)
        before.settle()  // as `gramgen serve` does after each build and when it stops
        // A new process: nothing to build, nothing in memory.
        let memory = BuildMemory()
        let start = try build(memory)
        #expect(start.upToDate)
        let options = { () -> BuildOptions in
            var options = BuildOptions(siteRoot: site, output: output)
            options.cacheDirectory = cache
            options.publishInPlace = true
            return options
        }()
        let pipeline = BuildPipeline(options: options, console: Console(verbosity: .quiet, isTerminal: false), memory: memory)
        let warm = try #require(pipeline.warmUp())
        #expect(warm.published && warm.pagesDrawn == 0, "every page taken over: drew \(warm.pagesDrawn)")
        // Every post folder (drafts too), taken as the first process kept them on disk.
        let folders = memory.posts.read + memory.posts.reused
        #expect(folders > first.postCount && memory.posts.read == 0)
        #expect(pipeline.warmUp() == nil, "warm already")
        try Self.apply(.captionText, to: site)
        let edited = try build(memory)
        #expect(edited.published)
        #expect(memory.posts.read == 1 && memory.posts.reused == folders - 1)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }
}
