import Foundation
import GramgenImaging
import Testing
@testable import GramgenBuild

/// `gramgen build` keeps the output it swapped out as the spare (`.<output>.spare`) and makes the
/// next site in it, changing only what differs. The published output must never be written into
/// (the spare shares most of its files by hard link), the result must equal a build from scratch,
/// and a spare that was tampered with, lost its manifest or is not gramgen's must not leak into
/// the site or outside it.
struct SpareTests {
    typealias Edit = IncrementalEditKindsTests.Edit

    static func spare(of output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).spare")
    }

    static func inode(_ url: URL) -> UInt64? {
        var info = stat()
        return lstat(url.path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    /// Every file below `root` with its bytes (links are not followed).
    static func tree(_ root: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in TestSupport.files(in: root) {
            files[path] = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
        }
        return files
    }

    @Test("a build into a new folder on one thread and on two: the same files, each media file the cache's own; one removed from the output is placed again by the next build that publishes")
    func mediaLinkedFromCache() throws {
        let site = try IncrementalEditKindsTests.makeSite(), cache = try TestSupport.temporaryFolder()
        let one = try TestSupport.temporaryFolder(), two = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, cache, one, two) }
        try FileManager.default.removeItem(at: one)
        try FileManager.default.removeItem(at: two)
        #expect(try TestSupport.build(site: site, output: one, cache: cache) { $0.jobs = 1 }.published)
        #expect(try TestSupport.build(site: site, output: two, cache: cache) { $0.jobs = 2 }.published)
        let media = try FileManager.default.contentsOfDirectory(atPath: two.appendingPathComponent("media").path)
        #expect(media.count > 1)
        #expect(Self.tree(one) == Self.tree(two))
        let cacheMedia = try MediaCache(directory: cache)
        for name in media {
            #expect(Self.inode(two.appendingPathComponent("media/" + name)) == Self.inode(URL(fileURLWithPath: cacheMedia.filePath(for: name))), "\(name) linked from the cache")
        }
        // The record lists them: with nothing changed the next build stops at its check.
        #expect(try TestSupport.build(site: site, output: two, cache: cache) { $0.jobs = 2 }.upToDate)
        // A media file gone from the output is placed again by the next build that publishes.
        try FileManager.default.removeItem(at: two.appendingPathComponent("media/" + media[0]))
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        #expect(try TestSupport.build(site: site, output: two, cache: cache) { $0.jobs = 2 }.published)
        #expect(FileManager.default.fileExists(atPath: two.appendingPathComponent("media/" + media[0]).path))
    }

    @Test("each build is made in the spare, leaves the output it replaces byte for byte as it was, and equals a fresh build")
    func chainOfEdits() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        var published = Self.tree(output)
        for edit in [Edit.captionText, .captionNewHashtag, .addPhoto, .template, .addPost, .deletePost, .deleteUser] {
            try IncrementalEditKindsTests.apply(edit, to: site)
            let spareFolder = Self.inode(Self.spare(of: output))
            let report = try TestSupport.build(site: site, output: output, cache: cache)
            #expect(report.published, "\(edit): \(report.diagnostics.items)")
            // The folder swapped out is the output as it was published: not one byte written into it.
            let swappedOut = Self.tree(Self.spare(of: output))
            let changed = Set(swappedOut.keys).union(published.keys).filter { swappedOut[$0] != published[$0] }
            #expect(changed.isEmpty, "\(edit): the previous output changed: \(changed.sorted())")
            if let spareFolder { #expect(Self.inode(output) == spareFolder, "\(edit): the spare was not used") }
            try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
            published = Self.tree(output)
        }
    }

    @Test("a page that changes at every build is written over in the spare (its own file there), never in the published output")
    func pageWrittenOverInSpare() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let home = output.appendingPathComponent("index.html"), spareHome = Self.spare(of: output).appendingPathComponent("index.html")
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        let first = Self.inode(home)
        try IncrementalEditKindsTests.apply(.addPost, to: site)
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        let second = Self.inode(home)
        #expect(second != first)
        // The spare is the first build's output; its home page has one name (the second build
        // wrote its own), so the third build writes the new home page over it.
        let published = FileManager.default.contents(atPath: home.path)
        // The newest post's caption, on the home page's first card.
        try IncrementalEditKindsTests.write(site, "content/users/cleo/posts/2024-03-30-new/post.md", "Newer caption #city\n")
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        #expect(Self.inode(home) == first)
        #expect(FileManager.default.contents(atPath: spareHome.path) == published)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a spare changed by hand, with a link out of the site in it, is repaired and nothing outside is written")
    func tamperedSpare() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        let outside = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache, outside) }
        try Data("mine".utf8).write(to: outside.appendingPathComponent("keep.txt"))
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        let spare = Self.spare(of: output), fm = FileManager.default
        // A page replaced (a new file, so the output's copy stays), one removed, a page's folder
        // made a link out of the site, a folder made a file, and the whole media folder a link.
        try fm.removeItem(at: spare.appendingPathComponent("index.html"))
        try Data("junk".utf8).write(to: spare.appendingPathComponent("index.html"))
        try fm.removeItem(at: spare.appendingPathComponent("feed.json"))
        try fm.removeItem(at: spare.appendingPathComponent("tags/food"))
        try fm.createSymbolicLink(at: spare.appendingPathComponent("tags/food"), withDestinationURL: outside)
        try fm.removeItem(at: spare.appendingPathComponent("ben"))
        try Data("in the way".utf8).write(to: spare.appendingPathComponent("ben"))
        try fm.removeItem(at: spare.appendingPathComponent("media"))
        try fm.createSymbolicLink(at: spare.appendingPathComponent("media"), withDestinationURL: outside)

        try IncrementalEditKindsTests.apply(.captionNewHashtag, to: site)
        let report = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(report.published, "\(report.diagnostics.items)")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        let links = (FolderWalk.entries(output.path, follow: false) ?? []).filter { !$0.isRegular }.map(\.path)
        #expect(links.isEmpty, "\(links)")
        #expect(try fm.contentsOfDirectory(atPath: outside.path) == ["keep.txt"])
        #expect(fm.contents(atPath: outside.appendingPathComponent("keep.txt").path) == Data("mine".utf8))
    }

    @Test("the spare's media files are taken by their folder's stamp, with their record whole when they are the build's own; one replaced there is seen and repaired")
    func spareMediaByStamp() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        let outside = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache, outside) }
        let secret = outside.appendingPathComponent("secret.jpg"), fm = FileManager.default
        try Data("mine".utf8).write(to: secret)
        #expect(try !TestSupport.build(site: site, output: output, cache: cache).spareMediaTrusted, "no spare yet")
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        #expect(try !TestSupport.build(site: site, output: output, cache: cache).spareMediaTrusted, "no spare yet")
        // The spare is now the first build's output, its media folder as that build left it.
        try IncrementalEditKindsTests.apply(.captionNewHashtag, to: site)
        let third = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(third.published && third.spareMediaTrusted, "\(third.diagnostics.items)")
        #expect(third.spareMediaWhole, "the same photos: the media files' record taken whole")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)

        // One media file of the spare replaced by a link out of the site, one by other bytes.
        let media = Self.spare(of: output).appendingPathComponent("media")
        let names = try fm.contentsOfDirectory(atPath: media.path).sorted()
        try #require(names.count >= 2)
        try fm.removeItem(at: media.appendingPathComponent(names[0]))
        try fm.createSymbolicLink(at: media.appendingPathComponent(names[0]), withDestinationURL: secret)
        try fm.removeItem(at: media.appendingPathComponent(names[1]))
        try Data("junk".utf8).write(to: media.appendingPathComponent(names[1]))
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let fourth = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(fourth.published && !fourth.spareMediaTrusted && !fourth.spareMediaWhole, "the folder changed: each file looked at")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        let links = (FolderWalk.entries(output.path, follow: false) ?? []).filter { !$0.isRegular }.map(\.path)
        #expect(links.isEmpty, "\(links)")
        #expect(fm.contents(atPath: secret.path) == Data("mine".utf8))

        // A new photo: the spare's folder as it was left, but other media files than it holds.
        try IncrementalEditKindsTests.apply(.addPhoto, to: site)
        let fifth = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(fifth.published && fifth.spareMediaTrusted && !fifth.spareMediaWhole)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        for expectWhole in [false, true] {  // the spare without the photo, then with it
            try IncrementalEditKindsTests.apply(.captionText, to: site)
            let next = try TestSupport.build(site: site, output: output, cache: cache)
            #expect(next.published && next.spareMediaTrusted && next.spareMediaWhole == expectWhole)
            try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        }
    }

    @Test("a spare without its manifest is not used; a folder of that name gramgen did not make is left alone")
    func unusableSpares() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        _ = try TestSupport.build(site: site, output: output, cache: cache) { $0.baseURL = "https://a.example/" }
        let spare = Self.spare(of: output), fm = FileManager.default
        let builds = cache.appendingPathComponent("builds")
        for name in try fm.contentsOfDirectory(atPath: builds.path) where name.hasSuffix(".spare") {
            try fm.removeItem(at: builds.appendingPathComponent(name))
        }
        // A stray file the manifest would not know of: the spare must go, not be published.
        try Data("stray".utf8).write(to: spare.appendingPathComponent("stray.txt"))
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(!fm.fileExists(atPath: output.appendingPathComponent("stray.txt").path))
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)

        // Someone's own folder with the spare's name: never emptied, never used.
        try fm.removeItem(at: spare)
        try fm.createDirectory(at: spare, withIntermediateDirectories: true)
        try Data("theirs".utf8).write(to: spare.appendingPathComponent("notes.txt"))
        for edit in [Edit.captionNewHashtag, .like] {
            try IncrementalEditKindsTests.apply(edit, to: site)
            let report = try TestSupport.build(site: site, output: output, cache: cache)
            #expect(report.published, "\(report.diagnostics.items)")
            try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        }
        #expect(try fm.contentsOfDirectory(atPath: spare.path) == ["notes.txt"])
    }
}

/// The look at the spare's files ahead of the render (`SpareLook`) finds what `takeOver` would.
struct SpareLookTests {
    static func waitForLook(_ look: SpareLook) {
        // Waits for the thread's end, not for a time: it looks at a handful of files.
        while !look.finished { usleep(1000) }
    }

    @Test("files looked at ahead: one as recorded is intact; one changed, removed, made a folder or a link is not; one written anew or not listed is not known; the finding is only for that folder")
    func looksAhead() throws {
        let folder = try TestSupport.temporaryFolder(), other = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(folder, other) }
        let fm = FileManager.default
        let names = ["kept.html", "a/changed.html", "a/b/removed.html", "folder.html", "link.html", "rewritten.html"]
        var manifest = OutputManifest()
        for name in names {
            let url = folder.appendingPathComponent(name)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("page \(name)".utf8).write(to: url)
            let identity = try #require(FileIdentity(path: url.path))
            manifest.entries[name] = .init(inputs: .inputs(1), content: 2, size: identity.size, modified: identity.modified, inode: identity.inode)
        }
        try Data("page a/changed.html, longer".utf8).write(to: folder.appendingPathComponent("a/changed.html"))
        try fm.removeItem(at: folder.appendingPathComponent("a/b/removed.html"))
        try fm.removeItem(at: folder.appendingPathComponent("folder.html"))
        try fm.createDirectory(at: folder.appendingPathComponent("folder.html"), withIntermediateDirectories: false)
        try fm.removeItem(at: folder.appendingPathComponent("link.html"))
        try fm.createSymbolicLink(at: folder.appendingPathComponent("link.html"), withDestinationURL: folder.appendingPathComponent("kept.html"))

        let look = try #require(SpareLook(folder: folder.path, manifest: manifest))
        Self.waitForLook(look)
        let entry = { (name: String) in manifest.entries[name]! }
        #expect(look.intact("kept.html", entry("kept.html")) == true)
        for name in ["a/changed.html", "a/b/removed.html", "folder.html", "link.html"] {
            #expect(look.intact(name, entry(name)) == false, "\(name)")
        }
        look.forget("rewritten.html")
        #expect(look.intact("rewritten.html", entry("rewritten.html")) == nil)
        #expect(look.intact("other.html", entry("kept.html")) == nil)
        // Not for another record of the same path.
        var different = entry("kept.html")
        different.size += 1
        #expect(look.intact("kept.html", different) == nil)
        #expect(look.isFolder(folder.path))
        #expect(!look.isFolder(other.path))
        // The same folder under another name (the spare taken as the build's folder) is still it.
        let moved = other.appendingPathComponent("moved")
        try fm.moveItem(at: folder, to: moved)
        #expect(look.isFolder(moved.path))
        try fm.moveItem(at: moved, to: folder)
    }

    @Test("a spare that is a link to a folder is not looked in")
    func linkNotFollowed() throws {
        let folder = try TestSupport.temporaryFolder(), parent = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(folder, parent) }
        try Data("x".utf8).write(to: folder.appendingPathComponent("index.html"))
        let identity = try #require(FileIdentity(path: folder.appendingPathComponent("index.html").path))
        var manifest = OutputManifest()
        manifest.entries["index.html"] = .init(inputs: .always, content: nil, size: identity.size, modified: identity.modified, inode: identity.inode)
        let link = parent.appendingPathComponent("spare")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        #expect(SpareLook(folder: link.path, manifest: manifest) == nil)
        #expect(SpareLook(folder: folder.path, manifest: OutputManifest()) == nil)
    }
}
