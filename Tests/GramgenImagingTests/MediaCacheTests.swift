import Foundation
import GramgenCore
import Testing
@testable import GramgenImaging

/// The image cache's index and the source digests: what is read back, what is refused, what is read again.
struct MediaCacheTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func image(_ seed: Int, camera: CameraInfo? = nil) -> (ProcessedImage, [String: Data]) {
        let names = ["\(String(format: "%016x", seed * 2)).webp", "\(String(format: "%016x", seed * 2 + 1)).jpg"]
        let image = ProcessedImage(
            width: 80 + seed, height: 96,
            variants: [ImageVariant(format: .webp, width: 80 + seed, height: 96, file: names[0]),
                       ImageVariant(format: .jpeg, width: 80 + seed, height: 96, file: names[1])],
            squares: [ImageVariant(format: .webp, width: 80, height: 80, file: names[0])],
            focusX: 0.1 + 0.2, focusY: 1.0 / 3.0, dominantColor: "#a0b1c2",
            placeholder: "data:image/webp;base64,UklGRkwAAABXRUJQ+/=", camera: camera)
        return (image, Dictionary(uniqueKeysWithValues: names.map { ($0, Data($0.utf8)) }))
    }

    static func key(_ seed: Int) -> String { String(repeating: String(format: "%x", seed % 16), count: 64) }

    @Test("an entry reads back exactly, camera text with tabs, newlines and backslashes included")
    func roundTrip() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let camera = CameraInfo(camera: "Canon\tEOS\nR6 \\ mark II", lens: nil, focalLength: "50 mm", aperture: "f/2.8",
                                shutter: nil, iso: "400")
        let (withCamera, files) = Self.image(1, camera: camera)
        let (plain, plainFiles) = Self.image(2)
        let cache = try MediaCache(directory: directory)
        try cache.store(Self.key(1), image: withCamera, files: files)
        try cache.store(Self.key(2), image: plain, files: plainFiles)
        #expect(cache.lookup(Self.key(1)) == withCamera)

        let reopened = try MediaCache(directory: directory)
        #expect(reopened.lookup(Self.key(1)) == withCamera)
        #expect(reopened.lookup(Self.key(2)) == plain)
        #expect(reopened.lookup(Self.key(3)) == nil)
        #expect(FileManager.default.contents(atPath: reopened.filePath(for: plain.variants[1].file))
            == plainFiles[plain.variants[1].file])
    }

    @Test("an entry whose file is gone is not used")
    func missingFile() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (image, files) = Self.image(1)
        try MediaCache(directory: directory).store(Self.key(1), image: image, files: files)
        try FileManager.default.removeItem(atPath: MediaCache(directory: directory).filePath(for: image.variants[1].file))
        #expect(try MediaCache(directory: directory).lookup(Self.key(1)) == nil)
    }

    @Test("a line cut short by a killed build is skipped, and the next entry after it reads back")
    func cutShort() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (first, firstFiles) = Self.image(1), (second, secondFiles) = Self.image(2)
        try MediaCache(directory: directory).store(Self.key(1), image: first, files: firstFiles)
        let index = directory.appendingPathComponent("index")
        let handle = try FileHandle(forWritingTo: index)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\(Self.key(2))\t81\t9".utf8))
        try handle.close()

        let cache = try MediaCache(directory: directory)
        #expect(cache.lookup(Self.key(1)) == first)
        #expect(cache.lookup(Self.key(2)) == nil)
        try cache.store(Self.key(2), image: second, files: secondFiles)
        let reopened = try MediaCache(directory: directory)
        #expect(reopened.lookup(Self.key(1)) == first)
        #expect(reopened.lookup(Self.key(2)) == second)
    }

    @Test("an index of another version or damaged lines are ignored, not trusted")
    func foreignIndex() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (image, files) = Self.image(1)
        try MediaCache(directory: directory).store(Self.key(1), image: image, files: files)
        let index = directory.appendingPathComponent("index")
        let text = try String(contentsOf: index, encoding: .utf8)
        try text.replacingOccurrences(of: "webp:81:96", with: "webp:8x1:96").write(to: index, atomically: true, encoding: .utf8)
        #expect(try MediaCache(directory: directory).lookup(Self.key(1)) == nil)
        try ("gramgen image cache 0\n" + text.split(separator: "\n").dropFirst().joined(separator: "\n") + "\n")
            .write(to: index, atomically: true, encoding: .utf8)
        let cache = try MediaCache(directory: directory)
        #expect(cache.lookup(Self.key(1)) == nil)
        try cache.store(Self.key(1), image: image, files: files)
        #expect(try MediaCache(directory: directory).lookup(Self.key(1)) == image)
    }

    @Test("prune keeps the entries and files of the last build only")
    func prune() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let legacy = directory.appendingPathComponent("entries")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: legacy.appendingPathComponent("old.json"))
        let (kept, keptFiles) = Self.image(1), (dropped, droppedFiles) = Self.image(2)
        let cache = try MediaCache(directory: directory)
        try cache.store(Self.key(1), image: kept, files: keptFiles)
        try cache.store(Self.key(2), image: dropped, files: droppedFiles)
        cache.prune(keepingKeys: [Self.key(1)], files: Set(kept.files))
        #expect(cache.lookup(Self.key(2)) == nil)

        let reopened = try MediaCache(directory: directory)
        #expect(reopened.lookup(Self.key(1)) == kept)
        #expect(reopened.lookup(Self.key(2)) == nil)
        let media = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("media").path)
        #expect(Set(media) == Set(kept.files))
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
        // Stored after a prune: appended to the rewritten index.
        try reopened.store(Self.key(2), image: dropped, files: droppedFiles)
        #expect(try MediaCache(directory: directory).lookup(Self.key(2)) == dropped)
    }

    @Test("prune removes only names gramgen makes; anything else in media/ stays")
    func pruneOwnNamesOnly() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let media = directory.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let own = ["0123456789abcdef.webp", "fedcba9876543210.jpg", ".0123456789abcdef.avif.4242.7.tmp"]
        let foreign = ["notes.txt", "0123456789ABCDEF.webp", "0123456789abcde.webp", ".bashrc", "photo.jpg.tmp",
                       ".0123456789abcdef.avif.x.7.tmp"]
        for name in own + foreign { try Data("x".utf8).write(to: media.appendingPathComponent(name)) }
        let cache = try MediaCache(directory: directory)
        cache.prune(keepingKeys: [], files: [])
        let left = try FileManager.default.contentsOfDirectory(atPath: media.path)
        #expect(Set(left) == Set(foreign))
    }

    @Test("a prune that drops nothing leaves the index file alone; a damaged line makes it rewrite")
    func pruneUnchanged() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("index")
        let (one, two, keys, files) = try Self.twoStoredAndPruned(in: directory)
        func identity() -> [Int] {
            var info = stat()
            _ = stat(index.path, &info)
            return [Int(info.st_ino), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_size)]
        }
        let written = identity()

        let reused = try MediaCache(directory: directory)
        #expect(reused.lookup(Self.key(1)) == one && reused.lookup(Self.key(2)) == two)
        reused.prune(keepingKeys: keys, files: files)
        #expect(identity() == written)

        let handle = try FileHandle(forWritingTo: index)
        handle.seekToEndOfFile()
        handle.write(Data("not an entry\n".utf8))
        try handle.close()
        let damaged = try MediaCache(directory: directory)
        #expect(damaged.lookup(Self.key(1)) == one)
        damaged.prune(keepingKeys: keys, files: files)
        let text = try String(contentsOf: index, encoding: .utf8)
        #expect(!text.contains("not an entry"))
        #expect(try MediaCache(directory: directory).lookup(Self.key(2)) == two)
    }

    @Test("a prune that looked nothing up, with the index as the last prune left it and the same keys, leaves it alone and still removes unused files; another index or other keys are rewritten")
    func pruneFromRecord() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("index")
        let (one, two, keys, files) = try Self.twoStoredAndPruned(in: directory)
        let written = try Data(contentsOf: index), stamp = try SourceDigests.Stamp(Self.info(index.path))

        let stray = "00000000000000aa.webp"
        try Data("x".utf8).write(to: directory.appendingPathComponent("media/" + stray))
        let kept = try MediaCache(directory: directory)
        #expect(kept.haveFiles([one, two, Self.image(3).0]) == [true, true, false])
        kept.prune(keepingKeys: keys, files: files)
        #expect(try SourceDigests.Stamp(Self.info(index.path)) == stamp, "the index was not written again")
        #expect(!FileManager.default.fileExists(atPath: kept.filePath(for: stray)), "an unused file is removed all the same")

        // Another process appended a line since: the index is read and written again.
        let handle = try FileHandle(forWritingTo: index)
        handle.seekToEndOfFile()
        handle.write(Data("not an entry\n".utf8))
        try handle.close()
        try MediaCache(directory: directory).prune(keepingKeys: keys, files: files)
        #expect(try Data(contentsOf: index) == written)
        // Other keys: the index holds only them.
        try MediaCache(directory: directory).prune(keepingKeys: [Self.key(1)], files: Set(one.files))
        let reopened = try MediaCache(directory: directory)
        #expect(reopened.lookup(Self.key(1)) == one && reopened.lookup(Self.key(2)) == nil)
    }

    @Test("a prune that lists media/, finds every file and none to remove records the folder: while it keeps that stamp, the next builds find the same images' files and prune without listing it; a name made or removed since, other images or a folder changed too recently make them list")
    func folderRecord() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (one, two, keys, files) = try Self.twoStoredAndPruned(in: directory)
        let media = directory.appendingPathComponent("media")
        let digest = MediaCache.filesDigest(of: [one, two])
        let later = Date().addingTimeInterval(5)  // the folder's last change, seen from 5 s on: settled
        // The folder's times set back, so a name made or removed next moves them whatever the
        // step of the file system's clock.
        func settle() {
            var old = [timespec(tv_sec: time(nil) - 100, tv_nsec: 0), timespec(tv_sec: time(nil) - 100, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, media.path, &old, 0) == 0)
        }
        func names() throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: media.path)) }

        settle()
        let first = try MediaCache(directory: directory)
        first.prune(keepingKeys: keys, files: files, filesDigest: digest, now: later)
        #expect(first.listings == 1)
        // Recorded: the same images' files are found, and pruned, without a listing.
        let next = try MediaCache(directory: directory)
        #expect(next.haveFiles([one, two]) == [true, true] && next.fromRecord == 1)
        next.prune(keepingKeys: keys, files: files, filesDigest: digest, now: later)
        #expect(next.listings == 0)
        #expect(try names() == files)
        // Other images: listed.
        let other = try MediaCache(directory: directory)
        #expect(other.haveFiles([one]) == [true] && other.fromRecord == 0)
        // Not told the files are those of the images (a slide's second pass kept): listed, and no record.
        let unsure = try MediaCache(directory: directory)
        unsure.prune(keepingKeys: keys, files: files)
        #expect(unsure.listings == 1)
        let afterUnsure = try MediaCache(directory: directory)
        #expect(afterUnsure.haveFiles([one, two]) == [true, true] && afterUnsure.fromRecord == 0)
        settle()
        try MediaCache(directory: directory).prune(keepingKeys: keys, files: files, filesDigest: digest, now: later)

        // A file removed since: the folder moved; listed, and the image without its file is said so.
        try FileManager.default.removeItem(at: media.appendingPathComponent(two.files[0]))
        let removed = try MediaCache(directory: directory)
        #expect(removed.haveFiles([one, two]) == [true, false] && removed.fromRecord == 0)
        // More than a few images: listed at once.
        let many = try MediaCache(directory: directory)
        #expect(many.haveFiles(Array(repeating: one, count: 10) + Array(repeating: two, count: 10)) == Array(repeating: true, count: 10) + Array(repeating: false, count: 10))
        #expect(many.listings == 1)
        // A file missing: listed at each prune, never recorded.
        settle()
        let missing = try MediaCache(directory: directory)
        missing.prune(keepingKeys: keys, files: files, filesDigest: digest, now: later)
        let stillMissing = try MediaCache(directory: directory)
        #expect(stillMissing.haveFiles([one, two]) == [true, false] && stillMissing.fromRecord == 0)
        try MediaCache(directory: directory).store(Self.key(2), image: two, files: Self.image(2).1)
        settle()
        try MediaCache(directory: directory).prune(keepingKeys: keys, files: files, filesDigest: digest, now: later)

        // A name made since: listed and removed; that prune, which removed a file, records nothing.
        let stray = "00000000000000aa.webp"
        try Data("x".utf8).write(to: media.appendingPathComponent(stray))
        let strayed = try MediaCache(directory: directory)
        strayed.prune(keepingKeys: keys, files: files, filesDigest: digest, now: later)
        #expect(strayed.listings == 1)
        #expect(try names() == files)
        let afterStray = try MediaCache(directory: directory)
        #expect(afterStray.haveFiles([one, two]) == [true, true] && afterStray.fromRecord == 0)

        // A folder changed less than a second before the prune: not recorded.
        let changedAt = try Self.info(media.path).st_ctim
        let soon = Date(timeIntervalSince1970: Double(changedAt.tv_sec) + Double(changedAt.tv_nsec) / 1e9 + 0.5)
        let recent = try MediaCache(directory: directory)
        recent.prune(keepingKeys: keys, files: files, filesDigest: digest, now: soon)
        let afterRecent = try MediaCache(directory: directory)
        #expect(afterRecent.haveFiles([one, two]) == [true, true] && afterRecent.fromRecord == 0)
    }

    /// A cache with two entries, pruned to both (its index written anew).
    static func twoStoredAndPruned(in directory: URL) throws -> (ProcessedImage, ProcessedImage, Set<String>, Set<String>) {
        let (one, oneFiles) = Self.image(1), (two, twoFiles) = Self.image(2)
        let cache = try MediaCache(directory: directory)
        try cache.store(Self.key(1), image: one, files: oneFiles)
        try cache.store(Self.key(2), image: two, files: twoFiles)
        let keys: Set = [Self.key(1), Self.key(2)], files = Set(one.files + two.files)
        cache.prune(keepingKeys: keys, files: files)
        return (one, two, keys, files)
    }

    static func info(_ path: String) throws -> stat {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
        return info
    }

    @Test("a saved digest is trusted by the next build: an unchanged source is not read again")
    func savedDigestTrusted() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.jpg")
        try Data("bytes".utf8).write(to: file)
        let digests = SourceDigests(directory: directory)
        let digest = try digests.digest(of: file)
        digests.save()
        // Times in nanoseconds since 1970 have 19 digits: the index must read them back.
        let text = try String(contentsOf: directory.appendingPathComponent("sources"), encoding: .utf8)
        #expect(text.split(separator: "\n").dropFirst().first?.split(separator: "\t")[1].count == 19)
        // Unreadable now but unchanged in size, times and inode: the digest comes from the index.
        // (As root the file stays readable; then the saved entry is what `keep` finds.)
        #expect(chmod(file.path, 0) == 0)
        defer { chmod(file.path, 0o644) }
        let next = SourceDigests(directory: directory)
        #expect(try next.digest(of: file) == digest)
        let kept = SourceDigests(directory: directory)
        kept.keep(keys: [SourceDigests.key(of: file)])
        kept.save()
        #expect(try String(contentsOf: directory.appendingPathComponent("sources"), encoding: .utf8).contains(digest))
        #expect(CacheFiles.integer(ArraySlice("9223372036854775807".utf8)) == Int64.max)
        #expect(CacheFiles.integer(ArraySlice("9223372036854775808".utf8)) == nil)
        #expect(CacheFiles.integer(ArraySlice("1795638382935295924".utf8)) == 1_795_638_382_935_295_924)
    }

    @Test("the digests' file parsed whole: each file's first sound line is its entry; lines with a field too many or too few, a bad number, a short digest or a bad escape are passed over; names with tabs and newlines read back")
    func digestsFileParsed() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("pho\tt\nos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let files = (0..<30).map { photos.appendingPathComponent("photo \($0).jpg") }
        for (index, file) in files.enumerated() { try Data("photo \(index)".utf8).write(to: file) }
        let first = SourceDigests(directory: directory)
        for file in files { _ = try first.digest(of: file) }
        first.save()
        let sources = directory.appendingPathComponent("sources")
        let written = try String(contentsOf: sources, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        // Each line with a made-up digest of its own, which only the entry read from the file gives.
        func fake(_ index: Int, _ kind: Int) -> String { String(repeating: String(kind), count: 32) + String(format: "%032x", index) }
        var text = written[0] + "\n"
        for line in written.dropFirst() where !line.isEmpty {
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let path = fields[5].replacingOccurrences(of: "\\t", with: "\t").replacingOccurrences(of: "\\n", with: "\n")
            let index = try #require(files.firstIndex { $0.path == path }, "\(path)")
            // The first 16 look-ups find their lines without a parse: the rest are read in one.
            if index >= 16 {
                var extra = fields; extra.append("x")
                var missing = fields; missing.removeLast()
                var number = fields; number[1] += "x"
                var short = fields; short[4] = String(fake(index, 7).dropLast())
                var escape = fields; escape[5] += "\\q"
                for bad in [extra, missing, number, short, escape] { text += bad.joined(separator: "\t") + "\n" }
            }
            fields[4] = fake(index, 1)
            text += fields.joined(separator: "\t") + "\n"
            if index % 3 == 0 {
                fields[4] = fake(index, 2)
                text += fields.joined(separator: "\t") + "\n"
            }
        }
        try text.write(to: sources, atomically: true, encoding: .utf8)
        let next = SourceDigests(directory: directory)
        for (index, file) in files.enumerated() {
            #expect(try next.digest(of: file) == fake(index, 1), "\(index)")
        }
        #expect(next.parses == 1)
    }

    @Test("a build that looked up one source and kept every other, with none changed, leaves the digests' file as it was without putting each entry in one by one")
    func keptWhole() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = (0..<3).map { directory.appendingPathComponent("photo\($0).jpg") }
        for (index, file) in files.enumerated() { try Data("bytes \(index)".utf8).write(to: file) }
        let first = SourceDigests(directory: directory)
        for file in files { _ = try first.digest(of: file) }
        first.save()
        let path = directory.appendingPathComponent("sources").path
        let written = try SourceDigests.Stamp(Self.info(path))

        // The first file looked up (the site's icon, say) and also kept with the others.
        let next = SourceDigests(directory: directory)
        _ = try next.digest(of: files[0])
        next.keep(keys: files.map { SourceDigests.key(of: $0) })
        next.save()
        #expect(next.keptOneByOne == 0)
        #expect(next.parses == 0, "the file's line of the one looked up found by itself, the rest by the first line's count and digest")
        #expect(try SourceDigests.Stamp(Self.info(path)) == written)

        // One of them gone: the file is written again without it.
        let fewer = SourceDigests(directory: directory)
        fewer.keep(keys: files.dropLast().map { SourceDigests.key(of: $0) })
        fewer.save()
        #expect(fewer.keptOneByOne == 2)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("photo2.jpg") && text.contains("photo1.jpg"))
    }

    @Test("a build that keeps every entry and finds a new or changed source writes the file's other lines as they were read, then the new ones; the next build reads every entry back and, with nothing changed, leaves the file alone")
    func digestsWrittenAround() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A name with a tab (escaped in the file) among them.
        let files = (["a\tb.jpg"] + (0..<6).map { "photo\($0).jpg" }).map { directory.appendingPathComponent($0) }
        for (index, file) in files.enumerated() { try Data("bytes \(index)".utf8).write(to: file) }
        let first = SourceDigests(directory: directory)
        var digests = try files.dropLast().map { try first.digest(of: $0) }
        first.save()
        let path = directory.appendingPathComponent("sources").path
        func lines() throws -> [Substring] { try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") }
        let before = try lines()
        func header(_ keys: [URL]) -> Substring {
            Substring(SourceDigests.header + "\t\(keys.count)\t" + String(DigestBuilder.unordered(keys.map { SourceDigests.key(of: $0) }), radix: 16))
        }

        // A new source (a new post's photo): the kept lines as they were, the new one after them.
        let added = SourceDigests(directory: directory)
        added.keep(keys: files.dropLast().map { SourceDigests.key(of: $0) })
        digests.append(try added.digest(of: files.last!))
        added.save()
        #expect(added.keptOneByOne == 0, "the kept entries were not put into the table one by one")
        let after = try lines()
        #expect(after.first == header(files))
        #expect(Array(after.dropFirst().prefix(before.count - 1)) == Array(before.dropFirst()))
        #expect(after.count == before.count + 1 && after.last!.hasSuffix("/photo5.jpg") && after.last!.contains(digests.last!))

        // One changed: its old line goes, its new one comes last; the others stay as they were.
        try Data("other bytes".utf8).write(to: files[2])
        let changed = SourceDigests(directory: directory)
        digests[2] = try changed.digest(of: files[2])
        changed.keep(keys: files.map { SourceDigests.key(of: $0) })
        changed.save()
        let third = try lines()
        #expect(third.first == header(files) && third.count == after.count)
        #expect(Array(third.dropFirst().dropLast()) == after.dropFirst().filter { !$0.hasSuffix("/photo1.jpg") })
        #expect(third.last!.hasSuffix("/photo1.jpg") && third.last!.contains(digests[2]))

        // Read back: every digest as written, and kept whole, the file is left alone.
        let again = SourceDigests(directory: directory)
        #expect(try files.map { try again.digest(of: $0) } == digests)
        let stamp = try SourceDigests.Stamp(Self.info(path))
        let kept = SourceDigests(directory: directory)
        kept.preload()  // as a build does
        kept.keep(keys: files.map { SourceDigests.key(of: $0) })
        kept.save()
        #expect(kept.parses == 0 && kept.keptOneByOne == 0, "the first line's count and digest are the entries'")
        #expect(try SourceDigests.Stamp(Self.info(path)) == stamp, "the file was not written again")
    }

    @Test("the digests' file is looked up line by line for a few files, parsed whole beyond; one of an older gramgen is written anew with its entries")
    func digestsLineByLine() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A name with a tab (escaped in the file), and one that ends as another does.
        let files = ["a\tb.jpg", "b.jpg", "sub/b.jpg"].map { directory.appendingPathComponent($0) }
            + (0..<20).map { directory.appendingPathComponent("photo\($0).jpg") }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for (index, file) in files.enumerated() { try Data("bytes \(index)".utf8).write(to: file) }
        let first = SourceDigests(directory: directory)
        let digests = try files.map { try first.digest(of: $0) }
        first.save()
        let path = directory.appendingPathComponent("sources").path

        let few = SourceDigests(directory: directory)
        #expect(try files.prefix(3).map { try few.digest(of: $0) } == Array(digests.prefix(3)))
        #expect(few.parses == 0)
        let many = SourceDigests(directory: directory)
        #expect(try files.map { try many.digest(of: $0) } == digests)
        #expect(many.parses == 1)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(SourceDigests.line(of: SourceDigests.key(of: files[1]), in: bytes)?.digest == digests[1])
        #expect(SourceDigests.line(of: directory.appendingPathComponent("c.jpg").path, in: bytes) == nil)
        #expect(SourceDigests.line(of: "/b.jpg", in: bytes) == nil, "a path that another ends with is not found in it")

        // A source written since: found changed by its line, and the file written again.
        try Data("other bytes".utf8).write(to: files[1])
        let edited = SourceDigests(directory: directory)
        let newDigest = try edited.digest(of: files[1])
        #expect(newDigest != digests[1])  // (the file then parsed on another thread, whenever it runs)
        edited.keep(keys: files.map { SourceDigests.key(of: $0) })
        edited.save()
        #expect(SourceDigests.line(of: SourceDigests.key(of: files[1]), in: try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))?.digest == newDigest)

        // The file of an older gramgen (no count and digest on its first line): parsed, and written in this version's form.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let old = SourceDigests.headerWithoutKeys + "\n" + text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        try old.write(toFile: path, atomically: true, encoding: .utf8)
        let upgraded = SourceDigests(directory: directory)
        upgraded.keep(keys: files.map { SourceDigests.key(of: $0) })
        upgraded.save()
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(SourceDigests.header + "\t\(files.count)\t"))
        let after = SourceDigests(directory: directory)
        #expect(try after.digest(of: files[0]) == digests[0] && after.parses == 0)
    }

    @Test("a source rewritten with the same size and its old modification time is read again")
    func changedSource() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.jpg")
        try Data("first".utf8).write(to: file)
        var before = stat()
        #expect(stat(file.path, &before) == 0)
        let digests = SourceDigests(directory: directory)
        let first = try digests.digest(of: file)
        #expect(try first == MediaCache.digest(of: file))
        digests.save()

        let unchanged = SourceDigests(directory: directory)
        #expect(try unchanged.digest(of: file) == first)
        usleep(20_000)
        try Data("other".utf8).write(to: file)
        // The old modification time to the nanosecond, as `cp -p` or an archive tool would set it.
        let times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, file.path, times, 0) == 0)
        var after = stat()
        #expect(stat(file.path, &after) == 0 && after.st_size == before.st_size)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        let again = SourceDigests(directory: directory)
        let second = try again.digest(of: file)
        #expect(second != first)
        #expect(try second == MediaCache.digest(of: file))
        again.save()
        #expect(try SourceDigests(directory: directory).digest(of: file) == second)
    }
}
