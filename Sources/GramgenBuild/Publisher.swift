import CAllocator
import CFileSwap
import Foundation
import GramgenCore
import GramgenImaging
import GramgenRender

/// Stage 5: where rendered files go. One mechanism (what the last build wrote and with which
/// inputs is in `OutputManifest`; a file whose inputs or bytes are unchanged is taken over instead of
/// being drawn or written again) with two strategies:
///
/// - `.swap` (`gramgen build`): the site goes into a folder beside the output as it is rendered,
///   then that folder is swapped in whole. Until the swap the previous output is untouched; a build
///   that fails or is killed leaves it as it was. Files taken over are hard-linked from the
///   previous output. The folder swapped out is kept as the spare (`.<output>.spare`, with its
///   manifest) and becomes the next build's folder: that build only changes in it the files that
///   differ from what it needs (see `Spare`), so a caption edit costs a few hundred file
///   operations instead of a link per file and a folder per page.
/// - `.inPlace` (the preview server's private folder): only files whose bytes changed are written,
///   each into a spare beside it that then swaps names with it, or under another name then
///   renamed (never seen cut short; see `replace`), and files no longer produced are
///   removed, so a caption edit writes a handful of pages. A kill in the middle may leave the folder
///   mixing two builds until the next one, which repairs all of it (a file is trusted only when it is
///   exactly the one the manifest recorded). Not flushed to disk: the folder is a preview
///   (`ServeKillTests`).
final class Publisher: PageSink, @unchecked Sendable {
    enum Strategy { case swap, inPlace }

    let strategy: Strategy
    let output: URL
    let cache: MediaCache
    let staticFiles: [StaticFiles.File]
    let manifestURL: URL
    let parallel: Parallel
    /// Where files are written: a temporary folder beside the output (`.swap`) or the output itself.
    let target: URL
    /// `target` and `output`, held open for looks at their files (`OpenFolder`).
    private let targetFolder: OpenFolder
    private let outputFolder: OpenFolder
    private var previous: OutputManifest
    /// What `target` already holds: in place, the previous build; for `.swap`, the spare's files
    /// (none in a new folder). A file there is trusted only when it is exactly the one this lists.
    private var held: OutputManifest
    /// `.swap`: the spare's files as looked at ahead (`SpareLook`), for `takeOver`.
    private var spareLook: SpareLook?
    /// In place: the last rebuild into this folder did not finish (see `removeLeftovers`).
    private var interrupted = false
    private var next = OutputManifest()
    private let lock = NSLock()
    private let writer: FileWriter
    private(set) var pageCount = 0
    private(set) var fileCount = 0
    /// Pages and feeds taken over from the previous build without being drawn again.
    private(set) var reused = 0
    /// Pages and feeds drawn by this build (whether or not their bytes changed).
    private(set) var drawn = 0
    /// How many of the previous manifest's paths this build produced again: all of them, and
    /// nothing is left to remove (looking each one up took a tenth of a serve rebuild).
    private var previousKept = 0
    /// `drawn` when memory was last handed back (`batchDone`).
    private var drawnAtRelease = 0
    /// After `finish` in place: every file the output holds, as `FolderWalk` would list it, for the
    /// up-to-date record; nil for `.swap`, whose record needs no list. Every file's identity was
    /// taken as it was placed (a rename keeps sizes and times), so the record of a folder
    /// published in place needs no walk of it (a swapped-in folder is recognised by its own
    /// identity, `UpToDateCheck.folderStamp`).
    var publishedFiles: [FolderWalk.Entry]? {
        guard strategy == .inPlace, let finished else { return nil }
        return finished.entries.map {
            FolderWalk.Entry(path: $0.key, size: $0.value.size, modified: $0.value.modified, isRegular: true)
        }
    }
    /// Static and media files as placed, for `publishedFiles` and the manifest.
    private var placed: [(path: String, identity: FileIdentity)] = []
    /// In place: the media files the last build of this process placed, with `kept`.
    private let keptMedia: Set<String>?
    /// Pages and feeds this build put (drawn, whether or not their bytes changed), as recorded;
    /// kept only where `grownFolder` may use them (a build into an empty folder puts every
    /// page: 280,000 entries, 22 MiB, at 100,000 posts).
    private var written: [(path: String, entry: OutputManifest.Entry)] = []
    private var keepsWritten: Bool { strategy == .inPlace && keptMedia != nil && previous.trusted }

    /// In place under `gramgen serve`: which changed pages this build leaves for later (`FastRender`).
    private let later: FastRender.Choices?
    /// A catch-up build that makes only the files left for later and keeps every other file as
    /// the last build of this process recorded it (`partialRecord`). Where that record cannot
    /// be trusted (a rebuild cut short), it makes every file.
    private(set) var partial = false
    /// The pages left for later (`leaveForLater`).
    private(set) var leftForLater: Set<String> = []

    /// A group of pages queued together (`PageSet.addGroup`): its inputs, files and sitemap paths.
    struct PageGroup: Sendable {
        var inputs: UInt64
        var files: [String]
        var sitemap: [String]
    }
    /// The groups the last build queued or took over: in place, as this process's last build
    /// left them; for `.swap`, as kept with the last build's manifest (`keepsGroups`).
    private let keptGroups: [String: PageGroup]
    /// This build's groups, for the next build: in place, of this process; for `.swap`, written
    /// beside the manifest (`saveManifest`).
    private(set) var groups: [String: PageGroup] = [:]
    /// Whether this build takes groups over and records its own (`.swap` with `keepsGroups`).
    private let usesGroups: Bool
    /// Groups this build took over whole (`takeOverGroup`), by kind.
    private(set) var groupsKept: [PageGroupKind: Int] = [:]
    /// The spare's media files were taken as listed, by their folder's stamp (`OutputManifest.mediaStamp`).
    private(set) var spareMediaTrusted = false
    /// ... and were this build's media files, taken with their record whole (`OutputManifest.unreadMedia`).
    private(set) var spareMediaWhole = false

    /// After `finish` in place: the manifest as saved, which a next build of the same process may
    /// trust (`kept`).
    private(set) var published: OutputManifest?
    /// After `finish`: the manifest `saveManifest` writes.
    private var finished: OutputManifest?

    /// `kept` (in place only) is the manifest this process published last into `output`, trusted
    /// instead of the one on disk: no file it lists is looked at again.
    init(_ strategy: Strategy, output: URL, cache: MediaCache, staticFiles: [StaticFiles.File], manifestURL: URL, parallel: Parallel,
         kept: OutputManifest? = nil, keptMedia: Set<String>? = nil, keptGroups: [String: PageGroup] = [:],
         expectedFiles: Int = 0, later: FastRender.Choices? = nil, readAhead: Ahead<Spare.Manifests>? = nil,
         keepsGroups: Bool = false) throws {
        self.keptMedia = kept == nil ? nil : keptMedia
        var keptGroups = kept == nil ? [:] : keptGroups
        self.later = strategy == .inPlace ? later : nil
        self.strategy = strategy
        self.parallel = parallel
        self.output = output
        self.cache = cache
        self.staticFiles = staticFiles
        self.manifestURL = manifestURL
        let fm = FileManager.default
        let replacing: Bool
        switch strategy {
        case .swap:
            let parent = output.deletingLastPathComponent()
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
            let building = parent.appendingPathComponent(".\(output.lastPathComponent).building-\(getpid())")
            target = building
            if Leftovers.isOurs(building) { Leftovers.remove(building) }
            // Never one of the same name that gramgen did not make: it would be written into and published.
            var info = stat()
            if lstat(building.path, &info) == 0 {
                throw NSError(domain: NSPOSIXErrorDomain, code: Int(EEXIST), userInfo: [NSLocalizedDescriptionKey:
                    "\(building.path) is in the way: gramgen builds the new output under that name, and did not make what is there; move it away"])
            }
            // Two manifests of every output file (5 MB each at 10,000 posts), read side by side,
            // or earlier (`readAhead`).
            let read = readAhead?.value
            let taken: (held: OutputManifest, fromReadAhead: Bool)
            (previous, taken) = parallel.both({
                fm.fileExists(atPath: output.path) ? read?.previous?.current ?? OutputManifest.load(manifestURL) : OutputManifest()
            }, { Spare(output: output, manifestURL: manifestURL).take(as: building, readAhead: read?.spare) })
            held = taken.held
            // What was found of the spare's files holds for the folder taken, as the manifest read ahead lists them.
            if let look = read?.look {
                if taken.fromReadAhead, look.isFolder(building.path) { spareLook = look } else { look.stop() }
            }
            // The media files published are the spare's, or placed anew: never looked up here.
            previous.forgetUnreadMedia()
            replacing = held.count > 0
            // The groups kept with the manifest read ahead, while it is still the one there.
            if keepsGroups, let read, read.previous?.isCurrent == true, fm.fileExists(atPath: output.path) { keptGroups = read.groups }
        case .inPlace:
            target = output
            previous = kept.map { var trusted = $0; trusted.trusted = true; return trusted } ?? OutputManifest.load(manifestURL)
            // In place, every file is looked up by its path, the media files too.
            if !previous.readMedia() { previous = OutputManifest() }
            held = previous
            replacing = false
            // A rebuild in place that was killed may have left files half-written under another
            // name, which no manifest lists: the next one walks the folder to clear them. (With
            // `kept`, the last rebuild of this process finished; its records may not be written
            // yet, see `BuildMemory.settle`.)
            let unfinished = manifestURL.path + ".unfinished"
            interrupted = kept == nil && FileManager.default.fileExists(atPath: unfinished)
            try FileManager.default.createDirectory(at: manifestURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: unfinished, contents: Data()) else { throw POSIXError.current(unfinished) }
        }
        self.keptGroups = keptGroups
        usesGroups = strategy == .inPlace || keepsGroups
        try fm.createDirectory(at: target, withIntermediateDirectories: true)
        targetFolder = OpenFolder(target.path)
        writer = FileWriter(replacing: replacing, root: targetFolder)
        outputFolder = strategy == .inPlace ? targetFolder : OpenFolder(output.path)
        partial = self.later?.only != nil && keepsWritten && !interrupted
        // A catch-up build visits no group: each stays as the build before it queued it.
        if partial { groups = self.keptGroups }
        next.entries.reserveCapacity(max(previous.entries.count, expectedFiles))
        // First, so that a folder left by a killed build is known as gramgen's (see `Leftovers`).
        try put(OutputMarker.name, Array(OutputMarker.text.utf8), inputs: nil)
        if strategy == .swap { FileWriter.spread(target.path) }
    }

    func reuse(_ path: String, inputs: UInt64) -> Bool {
        // A trusted manifest is this process's own record of the folder it writes in place: the
        // file is there as recorded (the look-ups of `takeOver` cost a tenth of a serve rebuild).
        guard let entry = previous.entries[path], entry.inputs == .inputs(inputs), previous.trusted || takeOver(path, entry) else { return false }
        record(path, entry, reused: true, known: true)
        return true
    }

    /// A page that is there as the last build recorded it stays as it is, recorded as to be drawn
    /// again, when `later` says so.
    func leaveForLater(_ path: String) -> Bool {
        guard let later, var entry = previous.entries[path], entry.inputs != .placed,
              previous.trusted || takeOver(path, entry), later.leaves(path) else { return false }
        entry.inputs = .later
        record(path, entry, reused: false, known: true)
        lock.withLock { _ = leftForLater.insert(path) }
        return true
    }

    func takeOverGroup(_ name: String, inputs: UInt64) -> [String]? {
        guard usesGroups, !partial, let group = keptGroups[name], group.inputs == inputs else { return nil }
        var entries: [OutputManifest.Entry] = []
        entries.reserveCapacity(group.files.count)
        for file in group.files {
            // Each file as drawn from its inputs: not one left for later (the catch-up draws it).
            guard let entry = previous.entries[file], entry.inputs != .placed,
                  entry.inputs != .later, previous.trusted || takeOver(file, entry) else { return nil }
            entries.append(entry)
        }
        // Under one lock, not one per file (both threads take groups over).
        lock.withLock {
            for (file, entry) in zip(group.files, entries) { recordLocked(file, entry, reused: true, known: true) }
            groups[name] = group
            groupsKept[PageGroupKind(name: name), default: 0] += 1
        }
        return group.sitemap
    }

    func queuedGroup(_ name: String, inputs: UInt64, files: [String], sitemap: [String]) {
        guard usesGroups, !partial else { return }
        lock.withLock { groups[name] = PageGroup(inputs: inputs, files: files, sitemap: sitemap) }
    }

    func wants(_ path: String) -> Bool {
        !partial || later?.wants(path) ?? true
    }

    /// Every file of the search index the last build recorded stays as it is, recorded as to be
    /// made again, when `later` says so and each is there as recorded.
    func leaveSearchForLater() -> Bool {
        guard let later, later.leavesSearch() else { return false }
        // Found by name rather than by a look at each of a big site's 60,000 recorded files: the
        // index numbers its word and document files from 0 without gaps (`SearchIndex.files`).
        var files: [String: OutputManifest.Entry] = [:]
        for name in [SitePaths.searchWords, SitePaths.searchDocuments] {
            var number = 0
            while let entry = previous.entries[name(number)] {
                files[name(number)] = entry
                number += 1
            }
        }
        files[SitePaths.searchMeta] = previous.entries[SitePaths.searchMeta]
        files = files.filter { $0.value.inputs != .placed }
        guard files[SitePaths.searchMeta] != nil, files.allSatisfy({ previous.trusted || takeOver($0.key, $0.value) }) else { return false }
        for (path, var entry) in files {
            entry.inputs = .later
            record(path, entry, reused: false, known: true)
        }
        lock.withLock { leftForLater.formUnion(files.keys) }
        return true
    }

    /// A catch-up build stops when a change waits: its record keeps what it did not visit.
    func stopsEarly() -> Bool {
        guard partial, let later else { return false }
        return later.fastRender.isChangeWaiting
    }

    func put(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>, inputs: UInt64?) throws {
        if inputs != nil {
            lock.lock()
            drawn += 1
            lock.unlock()
        }
        let content = BytesDigest.value(UnsafeRawBufferPointer(bytes))
        let made = inputs.map(OutputManifest.Made.inputs) ?? .always
        let new = targetFolder.path(of: path)
        let old = previous.entries[path]
        if var entry = old, entry.content == content, takeOver(path, entry) {
            entry.inputs = made
            record(path, entry, reused: false, known: true)
            return
        }
        let identity: FileIdentity
        switch strategy {
        case .swap:
            if var kept = held.intact(path, in: targetFolder), kept.content == content {
                kept.inputs = made  // the spare already holds these bytes
                record(path, kept, reused: false, known: old != nil)
                return
            }
            spareLook?.forget(path)
            // The spare's file may be its own (the last build wrote the published one anew) only
            // when the spare's list has it under another inode than the published file's; a page
            // the last build took over is the published file itself, and is never looked at to
            // be written over (a template change redraws 28,000 of them at 10,000 posts).
            let spareOwn = held.entries[path].map { $0.inode != old?.inode } ?? false
            identity = try writer.write(bytes, to: new, mayOverwrite: spareOwn)
        case .inPlace:
            // Unrecorded but already right (the manifest was lost): left as it is. (A recorded file
            // whose digest differs is not: it was not read back to learn what is known.)
            if old == nil, case .success(let existing) = InputFile.readBytes(atPath: new, limit: bytes.count),
               existing.withUnsafeBufferPointer({ $0.hasSameBytes(as: bytes) }), let present = FileIdentity(path: new) {
                identity = present
            } else {
                identity = try replace(new, with: bytes)
            }
        }
        record(path, .init(inputs: made, content: content, size: identity.size,
                           modified: identity.modified, inode: identity.inode), reused: false, known: old != nil)
    }

    /// Memory is handed back after batches that drew pages (a quarter of a batch since the last
    /// time), not only a second after it was freed (jemalloc's decay, `Allocator.c`): a big
    /// site's render makes and drops views and pages batch after batch, and what the busiest
    /// batches left free would otherwise count in the peak. A batch taken over from the last
    /// build freed next to nothing, and each release costs system calls (with glibc's trim,
    /// which walked the whole heap, a twentieth of a serve rebuild's time when it ran after
    /// every batch).
    func batchDone() {
        let release: Bool = lock.withLock {
            guard drawn - drawnAtRelease >= 512 else { return false }
            drawnAtRelease = drawn
            return true
        }
        if release { gg_release_free_memory() }
    }

    /// Makes the previous build's file part of this one when it is still exactly the one its
    /// manifest recorded: a hard link into the new folder, or nothing at all in place or when the
    /// spare already holds it. In the spare the file is most often the published one itself (the
    /// same inode): one look at it there proves both, so a big site's rebuild stats each page once.
    private func takeOver(_ path: String, _ entry: OutputManifest.Entry) -> Bool {
        if strategy == .inPlace { return previous.isIntact(entry, at: path, in: outputFolder) }
        // `held` is not trusted (a spare never is): its file is looked at, not the record copied to ask.
        if let kept = held.entries[path], kept.inode == entry.inode, kept.size == entry.size, kept.modified == entry.modified,
           spareLook?.intact(path, kept) ?? lookAtSpare(path, kept) { return true }
        return previous.isIntact(entry, at: path, in: outputFolder) && writer.link(outputFolder.path(of: path), to: targetFolder.path(of: path))
    }


    /// In place, a changed file's new bytes go into its spare beside it (`spare(of:)`, kept from
    /// the last time it changed), and the two swap names in one step (RENAME_EXCHANGE): a reader
    /// sees the old file or the new one whole, and no file is made or freed. Replacing by a
    /// rename freed the old file every time; on this machine's ext4 (mounted with `discard`), 500
    /// such renames took 0.29 s against 0.03 s for exchanges, and a new hashtag rewrites the 500
    /// files of the search index. Where the file is new or the file system cannot exchange: a new
    /// name, then a rename.
    private func replace(_ full: String, with bytes: UnsafeBufferPointer<UInt8>) throws -> FileIdentity {
        var info = stat()
        if lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            let spare = Self.spare(of: full)
            // Never written through: anything but a file of one name is made anew.
            if lstat(spare, &info) == 0, info.st_mode & S_IFMT != S_IFREG || info.st_nlink != 1 { unlink(spare) }
            let identity = try writer.write(bytes, to: spare)
            if gg_exchange_paths(spare, full) == 0 { return identity }
            unlink(spare)
        }
        let temporary = full + ".gramgen-\(getpid())"
        let identity = try writer.write(bytes, to: temporary)
        guard rename(temporary, full) == 0 else {
            unlink(temporary)
            throw POSIXError.current(full)
        }
        return identity
    }

    /// Whether the spare's file at `path` is the one `kept` records, looked at here (and the
    /// finding handed to `spareLook`, which then does not look again).
    private func lookAtSpare(_ path: String, _ kept: OutputManifest.Entry) -> Bool {
        let intact = OutputManifest.isIntact(kept, at: path, in: targetFolder)
        spareLook?.found(path, intact: intact)
        return intact
    }

    /// `known`: the previous manifest lists `path` (see `previousKept`).
    private func record(_ path: String, _ entry: OutputManifest.Entry, reused: Bool, known: Bool) {
        lock.withLock { recordLocked(path, entry, reused: reused, known: known) }
    }

    /// `record` with the lock held.
    private func recordLocked(_ path: String, _ entry: OutputManifest.Entry, reused: Bool, known: Bool) {
        if next.entries.updateValue(entry, forKey: path) == nil, known { previousKept += 1 }
        if !reused, keepsWritten { written.append((path, entry)) }
        fileCount += 1
        if path.hasSuffix(".html") { pageCount += 1 }
        if reused { self.reused += 1 }
    }

    /// Places `static/` and the media files, then completes the output: swaps the folder in, or
    /// removes what is no longer produced; and remembers what it holds.
    func finish(media files: MediaFiles) throws {
        spareLook?.stop()
        if let manifest = try partialRecord(media: files) {
            finished = manifest
            published = manifest
            return
        }
        try placeStatic()
        if let manifest = try grownFolder(media: files) {
            lock.withLock { fileCount += files.count }
            finished = manifest
            published = manifest
            return
        }
        try placeMedia(files.names, known: (files.count, files.namesDigest))
        // Static and media files are remembered too (no inputs, no content digest: a media file's
        // name is its digest), so the next build knows every file without looking.
        var manifest = next
        next = OutputManifest()  // so the entries are not copied when added to
        manifest.entries.reserveCapacity(manifest.entries.count + placed.count)
        for file in placed where manifest.entries[file.path] == nil {
            manifest.entries[file.path] = .placed(file.identity)
            if strategy == .inPlace, previous.entries[file.path] != nil { previousKept += 1 }
        }
        manifest.listsEverything = true
        if spareMediaWhole { manifest.takeMedia(of: held) }
        switch strategy {
        case .swap:
            // What the spare held and this build does not produce (a deleted post's pages).
            Self.remove(held.entries.keys(notIn: manifest.entries, parallel: parallel), in: targetFolder)
            // Last of all this build does in the folder's media/ (see `OutputManifest.mediaStamp`).
            manifest.mediaStamp = UpToDateCheck.folderStamp(target.appendingPathComponent("media"))
            try swapIn()
        case .inPlace:
            let unwanted: [String]
            if !interrupted, !previous.entries.isEmpty, previousKept == previous.entries.count {
                unwanted = []  // every file the folder held is produced again (none of another name)
            } else if previous.entries.isEmpty || interrupted {
                // Without a manifest (lost, or the first build), or after a rebuild that did not
                // finish, the folder is walked.
                let entries = FolderWalk.entries(output.path, follow: false) ?? []
                unwanted = entries.filter { $0.isRegular && manifest.entries[$0.path] == nil }.map(\.path)
            } else {
                unwanted = previous.entries.keys(notIn: manifest.entries, parallel: parallel)
            }
            Self.remove(unwanted, in: outputFolder)
        }
        finished = manifest
        if strategy == .inPlace { published = manifest }
    }

    /// In place, after a build that produced again every file the last one of this process
    /// recorded, static and media files aside (a new post adds some): the new record is the last
    /// one with the entries of the files this build put and the static and new media files it
    /// placed, less the media files no longer used (removed), a few hundred changes instead of
    /// 80,000 entries put together again and each media file looked up (a fifth of a serve
    /// rebuild at 10,000 posts). Nil when that does not hold.
    private func grownFolder(media files: MediaFiles) throws -> OutputManifest? {
        guard strategy == .inPlace, previous.trusted, !interrupted, let keptMedia else { return nil }
        let media = files.names
        let staticKnown = placed.filter { previous.entries[$0.path] != nil }.count
        guard previousKept + staticKnown == previous.entries.count - keptMedia.count else { return nil }
        // The same files after most edits: one pass to see it instead of two differences.
        let same = media == keptMedia
        try placeMedia(same ? [] : media.subtracting(keptMedia), counting: false)
        var manifest = previousWithChanges()
        for name in same ? [] : keptMedia.subtracting(media) {
            targetFolder.remove("media/" + name)
            manifest.entries["media/" + name] = nil
        }
        return manifest
    }

    /// After a catch-up build that drew only the pages left for later (`FastRender`): the record
    /// is the last one with what this build put, and nothing is removed; the media files are
    /// placed only when the set changed (an edit made meanwhile, which its own build completes).
    /// Nil for any other build.
    private func partialRecord(media files: MediaFiles) throws -> OutputManifest? {
        guard partial, let only = later?.only, let keptMedia else { return nil }
        if keptMedia != files.names { try placeMedia(files.names) }
        var manifest = previousWithChanges()
        // A new index made by this build replaces the old one whole: an old file it did not
        // make again (the index has fewer files now) goes.
        if only.contains(SitePaths.searchMeta), manifest.entries[SitePaths.searchMeta]?.inputs != .later {
            for path in only where SitePaths.isSearchIndex(path) && manifest.entries[path]?.inputs == .later {
                targetFolder.remove(path)
                targetFolder.remove(Self.spare(of: path))
                manifest.entries[path] = nil
            }
        }
        leftForLater = only.filter { manifest.entries[$0]?.inputs == .later }
        // Its pages are those of the build it follows (`pageCount` is not counted here, a pass
        // over 80,000 names while a change waited).
        lock.withLock { fileCount = manifest.entries.count }
        return manifest
    }

    /// The previous record with the entries of the pages this build put and the files it placed.
    private func previousWithChanges() -> OutputManifest {
        var manifest = previous
        // This build's last look at them: dropped, so the record (80,000 entries at 10,000 posts)
        // is changed where it is instead of copied first, a serve rebuild's 15 ms.
        previous = OutputManifest()
        held = OutputManifest()
        manifest.trusted = false
        for (path, entry) in written { manifest.entries[path] = entry }
        for file in placed { manifest.entries[file.path] = .placed(file.identity) }
        manifest.listsEverything = true
        return manifest
    }

    /// The spare of the file at `path` (see `replace`): a hidden name beside it, which the preview
    /// server never serves.
    static func spare(of path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        return path[..<slash] + "." + path[slash...] + spareSuffix
    }

    static let spareSuffix = ".gramgen-spare"

    /// Whether `path` names a spare (`spare(of:)`).
    static func isSpare(_ path: String) -> Bool {
        path.hasSuffix(spareSuffix) && (path.split(separator: "/").last?.hasPrefix(".") ?? false)
    }

    /// Writes down what `finish` published: the manifest, and in place the end of the rebuild
    /// (until then a next build walks the folder). `gramgen serve` does it after the browser was
    /// told to reload.
    func saveManifest() {
        guard let finished else { return }
        let groupsPath = PageGroup.path(manifestURL)
        // Gone before the manifest changes: groups are never read with another manifest.
        unlink(groupsPath)
        finished.save(manifestURL)
        if strategy == .inPlace { unlink(manifestURL.path + ".unfinished") }
        if strategy == .swap, usesGroups, let manifest = FileIdentity(path: manifestURL.path) {
            PageGroup.write(groups, to: groupsPath, manifest: manifest)
        }
    }

    /// Once its record will not be written (`BuildMemory.dropPendingRecords`): lets go of it, so
    /// that the next build, which took `published` over, changes it where it is.
    func forgetRecord() {
        finished = nil
        published = nil
    }

    /// Drops what was written after a failure: the temporary folder; in place, what was written
    /// stays until the next build (the folder is the preview's own).
    func abandon() {
        spareLook?.stop()
        if strategy == .swap { Leftovers.remove(target) }
    }

    /// The preview compares static files in memory; larger ones are an error in the preview only.
    static let maxStaticBytes = InputFile.maxMediaBytes

    /// Copies `static/` (see `StaticFiles`). It runs after rendering, so a page wins over a static
    /// file of the same name. In place, a file whose bytes are already there is left alone.
    private func placeStatic() throws {
        for file in staticFiles where next.entries[file.relative] == nil {
            let destination = targetFolder.path(of: file.relative)
            switch strategy {
            case .swap:
                try writer.copy(file.source, to: destination)
            case .inPlace:
                let data: Data
                switch InputFile.read(atPath: file.source, limit: Self.maxStaticBytes) {
                case .success(let bytes): data = bytes
                case .failure(let failure):
                    throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "static/\(file.relative): \(failure.message)"])
                }
                if case .success(let existing) = InputFile.read(atPath: destination, limit: Self.maxStaticBytes), existing == data {
                    break
                }
                try writer.makeFolder((destination as NSString).deletingLastPathComponent)
                _ = try Array(data).withUnsafeBufferPointer { try replace(destination, with: $0) }
            }
            guard let identity = FileIdentity(path: destination) else { throw POSIXError.current(destination) }
            placed.append((file.relative, identity))
        }
    }

    /// Links each media file from the cache (its name is its content's hash, so one already there is
    /// right); a copy, where a link cannot be made, is written under another name and renamed.
    /// `counting`: they count among the build's files here (not when the caller counts them).
    /// `known`: their count and `DigestBuilder.unordered` of them, by which the spare's media
    /// folder is known to hold them all (`media` is then not made).
    private func placeMedia(_ media: @autoclosure () -> Set<String>, known: (count: Int, digest: UInt64)? = nil, counting: Bool = true) throws {
        let fm = FileManager.default
        let folder = target.path + "/media"
        // The spare's media folder as the build that filled it left it: every file it listed there is.
        let stampHeld = strategy == .swap && held.mediaStamp != nil && held.mediaStamp == UpToDateCheck.folderStamp(URL(fileURLWithPath: folder))
        spareMediaTrusted = stampHeld
        // ... and they are the very files this build publishes: its record's media section whole.
        if stampHeld, held.unreadMedia.count > 0, let known, held.unreadMedia.count == known.count, held.unreadMedia.names == known.digest {
            spareMediaWhole = true
            if counting { lock.withLock { fileCount += known.count } }
            return
        }
        // A damaged section lists none: each file is then placed again from the cache.
        held.readMedia()
        try writer.makeFolder(folder)
        let names = Array(media())
        let strategy = strategy, held = held, writer = writer
        // Opened as the folder just made sure of, never through a link put in its place since:
        // the media files are linked into it by name.
        let mediaFolder = OpenFolder(descriptor: open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW), path: folder)
        let sources = OpenFolder(cache.mediaPath)
        let results = parallel.map(count: names.count) { index -> Result<(path: String, identity: FileIdentity), Error> in
            let name = names[index]
            let key = "media/" + name
            do {
                if stampHeld, let kept = held.entries[key] {
                    return .success((key, FileIdentity(size: kept.size, modified: kept.modified, inode: kept.inode)))
                }
                // A media file placed earlier (in place, or in the spare) and touched by nobody
                // since is kept as it is: one stat.
                if let kept = held.intact(key, in: mediaFolder, relative: name) {
                    return .success((key, FileIdentity(size: kept.size, modified: kept.modified, inode: kept.inode)))
                }
                if !(strategy == .inPlace && fm.fileExists(atPath: mediaFolder.path(of: name))), !writer.link(name, in: sources, into: mediaFolder) {
                    let destination = mediaFolder.path(of: name)
                    let temporary = destination + ".gramgen-\(getpid())"
                    unlink(temporary)
                    try fm.copyItem(atPath: cache.filePath(for: name), toPath: temporary)
                    guard rename(temporary, destination) == 0 else {
                        unlink(temporary)
                        throw POSIXError.current(destination)
                    }
                }
                guard let identity = mediaFolder.identity(name) else { throw POSIXError.current(mediaFolder.path(of: name)) }
                return .success((key, identity))
            } catch {
                return .failure(error)
            }
        }
        placed += try results.map { try $0.get() }
        if counting { lock.withLock { fileCount += names.count } }
    }

    /// Removes from `root` the files the build did not produce, then the folders that leaves
    /// empty (a removed post's), deepest first; rmdir leaves any folder that still holds
    /// something.
    private static func remove(_ unwanted: [String], in root: OpenFolder) {
        var emptied = Set<String>()
        // Each by its name in its folder, never through a link put in a folder's place; a path
        // from a manifest that leaves the folder (a damaged or forged one) is never removed.
        for path in unwanted where OutputManifest.isPlain(path) {
            root.remove(path)
            root.remove(spare(of: path))
            var folder = (path as NSString).deletingLastPathComponent
            while !folder.isEmpty, emptied.insert(folder).inserted {
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        for folder in emptied.sorted(by: { $0.count > $1.count }) {
            root.remove(folder, folder: true)
        }
    }

    /// Writes everything of the new tree to disk before it is swapped in, so a power cut right after
    /// a build cannot leave an output whose files are empty: one `syncfs` of the file system that
    /// holds it (far cheaper than an fsync per file), then the folder itself.
    static func flush(_ folder: String, fileSystem: Bool) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        if fileSystem { _ = gg_sync_file_system(fd) }
        fsync(fd)
        close(fd)
    }

    private func swapIn() throws {
        let fm = FileManager.default
        Self.flush(target.path, fileSystem: true)
        defer { Self.flush(output.deletingLastPathComponent().path, fileSystem: false) } // the rename itself
        guard fm.fileExists(atPath: output.path) else {
            try fm.moveItem(at: target, to: output)
            return
        }
        if gg_exchange_paths(target.path, output.path) == 0 {
            // `target` now holds the previous output: the next build's spare. What it holds is
            // the previous manifest as read from its file, which is still there (this build's is
            // saved after): that file becomes the spare's.
            Spare(output: output, manifestURL: manifestURL).keep(target, holding: previous, savedAt: manifestURL.path)
            return
        }
        // Fallback where the file system cannot exchange: two renames in quick succession.
        let old = target.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).old-\(getpid())")
        try fm.moveItem(at: output, to: old)
        try fm.moveItem(at: target, to: output)
        Leftovers.remove(old)
    }
}

/// The folder the last build swapped out, `.<output>.spare` beside the output, with its manifest
/// (`<manifest>.spare`): the previous output, most of its files other names of the output's own.
/// The next build takes it as its folder and changes only what differs, instead of making a new
/// folder with a link for every file (and removing the old one's). The manifest is removed before
/// the folder is taken and written only after it is put back, so a kill in between leaves a
/// folder nothing describes, which is then removed whole; a spare whose manifest does not list
/// every file (one of an older gramgen) is removed the same way.
struct Spare {
    let output: URL
    let manifestURL: URL

    var folder: URL { output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).spare") }
    var manifest: String { manifestURL.path + ".spare" }

    /// The last build's manifest and the spare's, read ahead of a build's publishing; nil for one
    /// that would not be used (no output, no spare of gramgen's).
    struct Manifests: Sendable {
        let previous: OutputManifest.ReadAhead?
        let spare: OutputManifest.ReadAhead?
        /// The page groups kept with `previous` (`PageGroup.read`).
        var groups: [String: Publisher.PageGroup] = [:]
        /// The spare's files, being looked at (`SpareLook`) as `spare` lists them.
        var look: SpareLook?
    }

    /// Reads the manifests a build will use (`Publisher`'s `readAhead`), and the page groups kept
    /// with the last build's; starts the look at the spare's files.
    func readAhead() -> Manifests {
        let previous: OutputManifest.ReadAhead? = FileManager.default.fileExists(atPath: output.path) ? .init(manifestURL.path) : nil
        let spare: OutputManifest.ReadAhead? = Leftovers.isOurs(folder) ? .init(manifest) : nil
        let look = spare.flatMap { $0.manifest.listsEverything ? SpareLook(folder: folder.path, manifest: $0.manifest) : nil }
        return Manifests(previous: previous, spare: spare,
                         groups: Publisher.PageGroup.read(Publisher.PageGroup.path(manifestURL), manifest: previous?.identity),
                         look: look)
    }

    /// Moves the spare to `target` and returns what it holds (`fromReadAhead`: the manifest read
    /// ahead, still the spare's); nothing (and no folder) when there is no usable spare. A folder
    /// of that name gramgen did not make is left alone.
    func take(as target: URL, readAhead: OutputManifest.ReadAhead? = nil) -> (held: OutputManifest, fromReadAhead: Bool) {
        guard Leftovers.isOurs(folder) else { return (OutputManifest(), false) }
        let current = readAhead?.isCurrent == true
        let held = current ? readAhead!.manifest : OutputManifest.load(URL(fileURLWithPath: manifest))
        guard unlink(manifest) == 0, held.listsEverything, rename(folder.path, target.path) == 0 else {
            Leftovers.remove(folder)
            return (OutputManifest(), false)
        }
        return (held, current)
    }

    /// Keeps `folder`, which holds the files `held` lists, as the spare. `savedAt`: a file holding
    /// `held` as it was read, renamed into place instead of written again.
    func keep(_ swappedOut: URL, holding held: OutputManifest, savedAt: String? = nil) {
        if Leftovers.isOurs(folder) { Leftovers.remove(folder) }  // another build's, in the meantime
        guard held.listsEverything, rename(swappedOut.path, folder.path) == 0 else {
            Leftovers.remove(swappedOut)
            return
        }
        if let savedAt, rename(savedAt, manifest) == 0 { return }
        held.save(URL(fileURLWithPath: manifest))
    }
}
