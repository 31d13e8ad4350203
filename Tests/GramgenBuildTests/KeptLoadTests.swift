import Foundation
import GramgenCore
import GramgenImaging
import Testing
@testable import GramgenBuild

/// A one-off `gramgen build` starts from the posts and images the last build kept on disk
/// (`PostMemo+Disk.swift`, `ImageMemo+Disk.swift`): it reads only what changed, and anything it
/// cannot trust (a damaged file, a FIFO, another configuration) is read again, never used.
@Suite(.timeLimit(.minutes(2)))
struct KeptLoadTests {
    static func postsFolder(_ cache: URL) -> URL { cache.appendingPathComponent("posts") }

    @Test("after a caption edit, the next build reads that post only and looks no image up")
    func captionEdit() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let first = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(first.published && first.postsKept == 0, "nothing kept before the first build")
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published, "\(second.diagnostics.items)")
        #expect(second.postsRead == 1, "read \(second.postsRead), kept \(second.postsKept)")
        #expect(second.postsKept == first.postsRead - 1)
        #expect(second.imagesKept == second.imagesFromCache && second.imagesKept > 0)
        #expect(second.imagesWhole, "the same images as the last build's: taken in one piece")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // A photo replaced: that one is looked up again, the others are taken as they were.
        try IncrementalEditKindsTests.apply(.replacePhoto, to: site)
        let third = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(third.imagesKept == third.imagesFromCache + third.imagesProcessed - 1)
        #expect(!third.imagesWhole)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // Then another caption edit: whole again, from what the third build kept.
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let fourth = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(fourth.imagesWhole && fourth.imagesProcessed == 0, "\(fourth.imagesProcessed) processed")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a build that adds a photo writes the kept images it read as they were read: read back, entry for entry what encoding them again writes; the next build takes them whole")
    func keptImagesWrittenAsRead() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        let copies = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache, copies) }
        _ = try TestSupport.build(site: site, output: output, cache: cache)
        try IncrementalEditKindsTests.apply(.addPhoto, to: site)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published && !second.imagesWhole && second.imagesProcessed == 1, "\(second.diagnostics.items)")

        // The file as a one-off build reads it (each entry keeps its bytes) and as a server does
        // (none kept), each written again.
        var options = BuildOptions(siteRoot: site, output: output)
        options.cacheDirectory = cache
        let state = BuildState(options: options, console: Console(verbosity: .quiet, isTerminal: false), memory: nil)
        let media = try MediaCache(directory: cache)
        let asRead = ImageMemo(keepsWhole: false), decoded = ImageMemo(keepsWhole: true)
        for memo in [asRead, decoded] { memo.restore(from: state.imagesFile, salt: state.keptSalt, cache: media) }
        #expect(asRead.entries.count >= second.imagesFromCache + second.imagesProcessed)
        #expect(asRead.entries.count == decoded.entries.count)
        #expect(asRead.entries.values.allSatisfy { $0.encoded != nil })
        #expect(decoded.entries.values.allSatisfy { $0.encoded == nil })
        let paths = ["as-read", "encoded"].map { copies.appendingPathComponent($0).path }
        for (memo, path) in zip([asRead, decoded], paths) {
            memo.changed = true
            memo.save(to: path, salt: state.keptSalt)
        }
        #expect(asRead.copiedAsRead == asRead.entries.count, "every entry copied from the file it was read from")
        #expect(decoded.copiedAsRead == 0)
        let back = paths.map { path in
            let memo = ImageMemo()
            memo.restore(from: path, salt: state.keptSalt, cache: media)
            return memo
        }
        let (readBack, encodedBack) = (back[0].entries, back[1].entries)
        #expect(readBack.count == asRead.entries.count && encodedBack.count == readBack.count)
        for (key, entry) in readBack {
            let other = try #require(encodedBack[key])
            #expect(entry.stamp == other.stamp)
            #expect(entry.image == other.image)
            #expect(entry.cacheKey == other.cacheKey)
            #expect(entry.sourceKey == other.sourceKey)
        }
        let wholeKeys: [[ImageMemo.Key]] = back.map { $0.lastWhole?.keys ?? [] }
        #expect(!wholeKeys[0].isEmpty)
        #expect(wholeKeys[0] == wholeKeys[1])

        // The file written anew since it was read (by another build): nothing is copied from it.
        let stale = ImageMemo(keepsWhole: false)
        stale.restore(from: state.imagesFile, salt: state.keptSalt, cache: media)
        try FileManager.default.removeItem(atPath: state.imagesFile)
        try FileManager.default.copyItem(atPath: paths[1], toPath: state.imagesFile)
        stale.changed = true
        stale.save(to: paths[0], salt: state.keptSalt)
        #expect(stale.copiedAsRead == 0 && stale.entries.count == readBack.count)
        let staleBack = ImageMemo()
        staleBack.restore(from: paths[0], salt: state.keptSalt, cache: media)
        #expect(staleBack.entries.count == readBack.count)

        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let third = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(third.imagesWhole && third.imagesProcessed == 0)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a one-off build takes each profile whose user folder did not change from the last build's file; an edited one is read again")
    func profilesKept() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let users = 4  // ana, ben, cleo, eve
        let first = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(first.published && first.profilesKept == 0, "nothing kept before the first build")
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published && second.profilesKept == users, "\(second.profilesKept) profiles kept")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        try IncrementalEditKindsTests.write(site, "content/users/ben/profile.md", "---\nname: Ben\nwebsite: https://ben.example\n---\nA bio of today.\n")
        let third = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(third.published && third.profilesKept == users - 1, "\(third.profilesKept) profiles kept")
        #expect(try String(contentsOf: output.appendingPathComponent("ben/index.html"), encoding: .utf8).contains("A bio of today."))
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // The next build takes ben's profile as the third read it, website and all.
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let fourth = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(fourth.published && fourth.profilesKept == users, "\(fourth.profilesKept) profiles kept")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a post folder renamed: its photos are found among the last build's images by their bytes, without the cache's index")
    func renamedFolder() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        // An index that says nothing: a look-up there would find no image and make it again.
        try Data("damaged".utf8).write(to: cache.appendingPathComponent("index"))
        try IncrementalEditKindsTests.apply(.renamePost, to: site)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published, "\(second.diagnostics.items)")
        #expect(!second.imagesWhole && second.imagesProcessed == 0, "\(second.imagesProcessed) made again")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("images whose file is gone from the cache are made again, not taken as kept, and the output is a fresh build's")
    func cachedFileGone() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let first = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(first.published && first.imagesProcessed > 0)
        let media = cache.appendingPathComponent("media")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: media.path).sorted().first)
        try FileManager.default.removeItem(at: media.appendingPathComponent(name))
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published, "\(second.diagnostics.items)")
        // The site's photos share their files (the same picture): none of them is taken as kept.
        #expect(!second.imagesWhole && second.imagesKept == 0 && second.imagesProcessed > 0,
                "\(second.imagesProcessed) processed, \(second.imagesKept) kept")
        #expect(FileManager.default.fileExists(atPath: media.appendingPathComponent(name).path), "made again")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("the posts a build read anew are kept even when it stops after loading them (a broken template), and the output stays as it was")
    func keptWhenTheBuildStops() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        let before = SpareTests.tree(output)
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        try IncrementalEditKindsTests.write(site, "templates/extra.mustache", "<p>{{#open}}</p>\n")
        let stopped = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(!stopped.published && stopped.diagnostics.hasErrors && stopped.postsRead == 1)
        #expect(SpareTests.tree(output) == before, "a build that stops publishes nothing")
        try FileManager.default.removeItem(at: site.appendingPathComponent("templates/extra.mustache"))
        let next = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(next.published, "\(next.diagnostics.items)")
        #expect(next.postsRead == 0, "the edited post was kept by the build that stopped: read \(next.postsRead)")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a damaged, cut-short or foreign file of kept posts is ignored, a FIFO in its place never blocks, and a link out is not followed")
    func damagedFiles() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        let outside = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache, outside) }
        let first = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(first.published)
        let folder = Self.postsFolder(cache)
        let shards = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(shards.count >= 5, "each kind of damage is tried")
        var outsideCopies = [String: Data]()
        for (index, name) in shards.enumerated() {
            let path = folder.appendingPathComponent(name).path
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try FileManager.default.removeItem(atPath: path)
            switch index % 5 {
            case 0: #expect(mkfifo(path, 0o644) == 0)
            case 4:  // the very same bytes, but outside the cache: never read
                let copy = outside.appendingPathComponent(name)
                try bytes.write(to: copy)
                outsideCopies[name] = bytes
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: copy.path)
            case 1: try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))  // cut short
            case 2: try Data(bytes.map { $0 ^ 0x5A }).write(to: URL(fileURLWithPath: path))  // damaged
            default: try (bytes + Data([1, 2, 3])).write(to: URL(fileURLWithPath: path))  // trailing bytes
            }
        }
        // The images' file as a link to its very bytes outside: not followed either.
        let images = cache.appendingPathComponent("sources-memo")
        var before = [String: Data]()
        before["sources-memo"] = try Data(contentsOf: images)
        try FileManager.default.moveItem(at: images, to: outside.appendingPathComponent("sources-memo"))
        try FileManager.default.createSymbolicLink(atPath: images.path, withDestinationPath: outside.appendingPathComponent("sources-memo").path)
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published, "\(second.diagnostics.items)")
        #expect(second.postsKept == 0 && second.postsRead == first.postsRead, "every post read again")
        #expect(second.imagesKept == 0)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // Written anew as plain files in the cache; what the links named is untouched.
        before.merge(outsideCopies) { a, _ in a }
        #expect(before.count >= 2)
        for (name, bytes) in before {
            let inCache = name == "sources-memo" ? images.path : folder.appendingPathComponent(name).path
            #expect(!FileContainment.isLink(inCache), "\(name) replaced, not written through")
            #expect(try Data(contentsOf: outside.appendingPathComponent(name)) == bytes, "\(name) outside unchanged")
        }
        try IncrementalEditKindsTests.apply(.location, to: site)
        let third = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(third.postsRead == 1 && third.imagesKept > 0)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a FIFO in place of any record of the last build (manifests, page groups, up-to-date record, image cache index and its record, source digests, kept images, search memo, kept cards) never blocks a build, which then makes what a fresh one makes")
    func fifoRecords() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        // Twice, so that the spare and its manifest are there too.
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        let builds = cache.appendingPathComponent("builds")
        let records = try FileManager.default.contentsOfDirectory(atPath: builds.path).map { builds.appendingPathComponent($0).path }
            + ["index", "index-record", "sources", "sources-memo", "search-memo"].map { cache.appendingPathComponent($0).path }
        #expect(records.contains { $0.hasSuffix(".files") } && records.contains { $0.hasSuffix(".files.spare") }
                && records.contains { $0.hasSuffix(".json") } && records.contains { $0.hasSuffix(".files.groups") }, "\(records)")
        for path in records {
            try FileManager.default.removeItem(atPath: path)
            #expect(mkfifo(path, 0o644) == 0)
        }
        // Written only once a build kept enough cards: a FIFO whether or not it was there.
        let fragments = cache.appendingPathComponent("fragments").path
        try? FileManager.default.removeItem(atPath: fragments)
        #expect(mkfifo(fragments, 0o644) == 0)
        try IncrementalEditKindsTests.apply(.location, to: site)
        // On another thread, so that a build blocked on a FIFO fails the test instead of hanging it.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var report: BuildReport?
        DispatchQueue.global().async {
            report = try? TestSupport.build(site: site, output: output, cache: cache)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success, "the build waited on a FIFO")
        #expect(report?.published == true, "\(report?.diagnostics.items ?? [])")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("kept files that come in a cache folder made elsewhere (a site unpacked or copied) are not trusted")
    func copiedCache() throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        let copy = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache, copy) }
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        try FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: cache, to: copy)  // the same files, in a folder of another inode
        #expect(FileManager.default.fileExists(atPath: Self.postsFolder(copy).path))
        try IncrementalEditKindsTests.apply(.captionText, to: site)
        let second = try TestSupport.build(site: site, output: output, cache: copy)
        #expect(second.published, "\(second.diagnostics.items)")
        #expect(second.postsKept == 0 && second.imagesKept == 0, "kept \(second.postsKept) posts, \(second.imagesKept) images")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // What this folder's own build wrote is trusted from then on.
        try IncrementalEditKindsTests.apply(.location, to: site)
        let third = try TestSupport.build(site: site, output: output, cache: copy)
        #expect(third.postsRead == 1 && third.imagesKept > 0)
    }

    @Test("another configuration, or a user more or fewer, reads every post again", arguments: [
        IncrementalEditKindsTests.Edit.configTitle, .addUser, .deleteUser,
    ])
    func contextChange(_ edit: IncrementalEditKindsTests.Edit) throws {
        let site = try IncrementalEditKindsTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        #expect(try TestSupport.build(site: site, output: output, cache: cache).published)
        try IncrementalEditKindsTests.apply(edit, to: site)
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published, "\(second.diagnostics.items)")
        #expect(second.postsKept == 0 && second.postsRead > 1)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // Kept again under the new context, in every file (most of a small site's are empty).
        try IncrementalEditKindsTests.apply(.location, to: site)
        let third = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(third.postsRead == 1, "read \(third.postsRead), kept \(third.postsKept)")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }
}
