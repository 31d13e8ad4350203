import Foundation
import GramgenCore
import GramgenContent
import GramgenImaging
import GramgenRender

/// What a process that builds the same site again and again (`gramgen serve`) keeps in memory
/// from one build to the next, so that a rebuild after one edit does not read everything again:
///
/// - the posts as loaded (`PostMemo`: a post whose folder is unchanged is not parsed again), and
///   the images as found (`ImageMemo`: an unchanged file is not looked up in the cache again),
///   and each post's search document and words (`SearchMemo`), and the cards and tiles drawn
///   (`FragmentMemo`);
/// - the image cache's index and the sources' digests, read from disk once instead of per build;
/// - the output as this process left it (its record and manifest): the output folder is the
///   preview's own, which only this process writes, so neither the up-to-date check nor the
///   publisher looks at its files again. (A file changed there by hand stays until a page's
///   bytes change or `gramgen serve` starts again.)
///
/// A build stopped by an error of the disk (a step that throws) drops all of it, so the next one
/// starts from the disk; one stopped by errors in the content keeps it (each part is checked
/// against the files anyway), so the build after the fix is as quick as any other.
public final class BuildMemory: @unchecked Sendable {
    let posts = PostMemo()
    let images = ImageMemo()
    let search = SearchMemo()
    let fragments = FragmentMemo()
    /// The walk of `content/` by folder, and which folders changed since (told by the watcher).
    let listings = FolderWalk.Listings()
    public let folderChanges: FolderChanges
    /// Pages left for a catch-up build after the reload (`gramgen serve`); nil: every page is drawn.
    public let fastRender: FastRender?
    private let lock = NSLock()
    private var cache: MediaCache?
    private var digests: SourceDigests?
    private var cacheDirectory: URL?
    /// What the last successful build published in place.
    struct Published {
        /// Its digest as recorded (`UpToDateCheck.Record.output`).
        var output: String
        var manifest: OutputManifest
        /// The media files it placed.
        var media: MediaFiles
        /// Its groups of pages (`Publisher.PageGroup`).
        var groups: [String: Publisher.PageGroup]
        /// The images `media` are the files of: a build with the same (most often the very same
        /// table, taken whole) has the same media, not a set of 30,000 names made again.
        var images: [String: ProcessedImage]
    }
    private var lastPublished: Published?
    /// The theme the last build made: made again only when a file of it changes.
    private var lastTheme: Theme?
    var theme: Theme? {
        get { lock.withLock { lastTheme } }
        set { lock.withLock { lastTheme = newValue } }
    }

    /// What the last build loaded, when it left pages for later (`BuildPipeline.catchUp`).
    private var loaded: (BuildState.Loaded, BuildReport)?

    func keepLoaded(_ kept: (BuildState.Loaded, BuildReport)?) {
        // The last build's site and renderer are freed elsewhere: here they took a third of a
        // new post's publishing, before the browser was told to reload.
        release(lock.withLock {
            defer { loaded = kept }
            return loaded as Any
        })
    }

    /// What the last build loaded, and its report, once.
    func takeLoaded() -> (BuildState.Loaded, BuildReport)? {
        lock.withLock {
            defer { loaded = nil }
            return loaded
        }
    }

    /// What the last build left to do after the reload (`afterReload`): what the next build
    /// needs in memory, and its records to write.
    private var pendingMemory: (() -> Void)?
    private var pendingWrite: (() -> Void)?
    /// Lets go of what only `pendingWrite` needs that the next build changes (`dropPendingRecords`).
    private var pendingDrop: (() -> Void)?
    /// Held while they run, so a build waits for the last one's record keeping.
    private let settling = NSLock()

    /// Builds started (`settleForBuild`), under `settling`: a write that waited for quiet is
    /// not run once another build has started (`settle`).
    private var buildsStarted = 0
    /// How long `settle` waits, with nothing left for later and no change waiting, before it
    /// writes the records (`gramgen serve`: `ServeOptions.recordsQuietMilliseconds`).
    let recordsQuiet: TimeInterval

    /// `folderChanges`: where the watcher tells which folders changed (none by default: every
    /// build reads every folder). `recordsQuiet`: see `settle`.
    public init(folderChanges: FolderChanges = FolderChanges(), fastRender: FastRender? = nil, recordsQuiet: TimeInterval = 0) {
        self.folderChanges = folderChanges
        self.fastRender = fastRender
        self.recordsQuiet = recordsQuiet
    }

    /// Keeps a build's record keeping to run by `settle`, after the browser was told to reload:
    /// `remember`, what the next build needs in memory (at the latest when it starts), and
    /// `write`, its records on disk. A later build's own replace them. `drop`: what to let go of
    /// when the records are dropped unwritten (`dropPendingRecords`).
    func afterReload(remember: @escaping () -> Void, write: @escaping () -> Void, drop: @escaping () -> Void) {
        settling.withLock {
            pendingMemory = remember
            pendingWrite = write
            pendingDrop = drop
        }
    }

    /// Runs what the last build left to do, if anything; returns when it is done. While pages
    /// are left for later (`FastRender`) or a change waits, the writing waits: a build follows
    /// at once and writes its own records instead (until then, the preview folder's record says
    /// a build was cut short, so a new process walks it). `writing` forces it.
    ///
    /// With `recordsQuiet`, the records are written only after that long without a change: an
    /// edit saved meanwhile has its build start at once, and that build writes its own records,
    /// instead of waiting for these (a new post's took 0.18–0.24 s at 10,000 posts, and a
    /// build started during them waited for the end).
    public func settle(writing: Bool = false) {
        let done = lock.withLock {
            defer { released = [] }
            return released
        }
        withExtendedLifetime(done) {}
        let started: Int = settling.withLock {
            rememberLocked()
            return buildsStarted
        }
        guard writing || waitForQuiet(since: started) else { return }
        settling.withLock {
            guard writing || buildsStarted == started && isQuiet else { return }
            pendingWrite?()
            pendingWrite = nil
            pendingDrop = nil
        }
    }

    /// Nothing left for later and no change waiting.
    private var isQuiet: Bool {
        !(fastRender?.hasStale ?? false) && !(fastRender?.isChangeWaiting ?? false)
    }

    /// Whether it stayed quiet, and no build started after the `started`th, for `recordsQuiet`
    /// (looked at every 20 ms).
    private func waitForQuiet(since started: Int) -> Bool {
        let end = Date().addingTimeInterval(recordsQuiet)
        while isQuiet, settling.withLock({ buildsStarted == started }) {
            let left = end.timeIntervalSinceNow
            if left <= 0 { return true }
            Thread.sleep(forTimeInterval: min(left, 0.02))
        }
        return false
    }

    /// Before a build changes the output: the last build's records, not yet written, are dropped
    /// (this build writes its own, and one that fails drops them anyway, `clear`). They held
    /// that build's manifest, which this build's publisher then copied (80,000 entries at
    /// 10,000 posts, 13–20 ms of a serve rebuild) instead of changing it where it is: `drop`
    /// lets go of it now; the rest is freed after the reload (`release`).
    func dropPendingRecords() {
        release(settling.withLock {
            pendingDrop?()
            defer { pendingWrite = nil; pendingDrop = nil }
            return pendingWrite as Any
        })
    }

    /// What the last build let go of (`release`), freed by `settle`.
    private var released: [Any] = []

    /// Frees `value` in `settle`, after the browser was told to reload, not on the build's path
    /// (freeing the last build's site and renderer took a third of a new post's publishing).
    /// Not on another thread either: freeing a site there slowed the build that came next.
    func release(_ value: Any) {
        lock.withLock { released.append(value) }
    }

    /// At the start of a build: what the last one left in memory. Its records are written after
    /// this build if it publishes nothing (`settle`); if it does, its own replace them.
    func settleForBuild() {
        settling.withLock {
            buildsStarted += 1
            rememberLocked()
        }
    }

    /// What the last build left in memory (`afterReload`'s `remember`), now; its records are
    /// left to `settle`.
    func remember() {
        settling.withLock { rememberLocked() }
    }

    private func rememberLocked() {
        pendingMemory?()
        pendingMemory = nil
    }

    /// The source digests of the cache in `directory`, kept from the last build.
    func sourceDigests(_ directory: URL) -> SourceDigests {
        lock.withLock {
            if cacheDirectory != directory { forgetImaging(directory) }
            if let digests { return digests }
            let made = SourceDigests(directory: directory)
            digests = made
            return made
        }
    }

    /// The image cache in `directory`, kept from the last build.
    func mediaCache(_ directory: URL) throws -> MediaCache {
        try lock.withLock {
            if cacheDirectory != directory { forgetImaging(directory) }
            if let cache { return cache }
            let made = try MediaCache(directory: directory)
            cache = made
            return made
        }
    }

    /// Each post folder's stamp from a walk of `content/` (`PostMemo.use(listing:)`): every file
    /// below `users/<handle>/posts/<id>/` by name, with its size, times and inode. A folder that
    /// holds a link, or a name that is not UTF-8 (two such names can read alike), has none, so
    /// it is read anew. Each user folder's stamp too, under `users/<handle>`, for the profile:
    /// every file below it but those of `posts/` (the profile, the avatar and whatever else
    /// sits there), the same way.
    static func postStamps(_ entries: [FolderWalk.Entry]) -> [String: [Int64]] {
        var stamps: [String: [Int64]] = [:]
        // Most post folders hold a post.md and a photo or two: made this large at once, not
        // doubled (and every key hashed again) as it grows.
        stamps.reserveCapacity(entries.count / 2)
        var unsure: Set<String> = []
        var profiles: [String: (stamp: [Int64], unsure: Bool)] = [:]
        // A post folder's files come one after the other in a walk: each run of them is added
        // to its stamp at once, not one look-up per file (a tenth of a serve rebuild's loading).
        // Each path is looked at as bytes in place, its folder compared with the run's by its
        // bytes: through `String.UTF8View`'s indices, with a `Substring` a file, this pass held a
        // core for 20 ms of a caption edit's build at 10,000 posts.
        var folder: [UInt8] = [], run: [Int64] = [], runUnsure = false
        func flush() {
            guard !folder.isEmpty else { return }
            let key = String(decoding: folder, as: UTF8.self)
            stamps[key, default: []] += run
            if runUnsure { unsure.insert(key) }
        }
        for entry in entries {
            var path = entry.path
            path.withUTF8 { bytes in
                // users/<handle>/posts/<id>/<name>: the first four slashes.
                guard bytes.starts(with: "users/".utf8) else { return }
                var slashes = (0, 0, 0), found = 1
                for index in 6..<bytes.count where bytes[index] == UInt8(ascii: "/") {
                    found += 1
                    if found == 2 { slashes.0 = index } else if found == 3 { slashes.1 = index } else { slashes.2 = index; break }
                }
                guard found >= 2 else { return }
                let second = UnsafeBufferPointer(rebasing: bytes[(slashes.0 + 1)..<(found == 2 ? bytes.count : slashes.1)])
                let name: UnsafeBufferPointer<UInt8>
                guard second.hasSameBytes(as: "posts") else {
                    // users/<handle>/<name>...: the user's own files, in the walk's order.
                    // Changed in place in the table (a copy taken out and put back copies the stamp).
                    let user = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slashes.0]), as: UTF8.self)
                    if entry.isLink || FolderWalk.isMisread(entry.path) { profiles[user, default: ([], false)].unsure = true }
                    name = UnsafeBufferPointer(rebasing: bytes[(slashes.0 + 1)...])
                    append(name, to: &profiles[user, default: ([], false)].stamp)
                    entry.appendStamp(to: &profiles[user, default: ([], false)].stamp)
                    profiles[user, default: ([], false)].stamp.append(entry.isRegular ? 1 : 0)
                    return
                }
                guard found == 4 else { return }
                let this = UnsafeBufferPointer(rebasing: bytes[..<slashes.2])
                if !folder.withUnsafeBufferPointer(this.hasSameBytes) {
                    flush()
                    folder = Array(this)
                    run.removeAll(keepingCapacity: true)
                    runUnsure = false
                }
                if entry.isLink || FolderWalk.isMisread(entry.path) { runUnsure = true }
                // In the walk's order: the same folder, untouched, is listed the same way each time,
                // and a folder listed differently is only read again.
                append(UnsafeBufferPointer(rebasing: bytes[(slashes.2 + 1)...]), to: &run)
                entry.appendStamp(to: &run)
                run.append(entry.isRegular ? 1 : 0)
            }
        }
        flush()
        for folder in unsure { stamps[folder] = nil }
        for (user, profile) in profiles where !profile.unsure { stamps[user] = profile.stamp }
        return stamps
    }

    /// Adds a name to a stamp: its length, then its bytes eight to a number.
    private static func append(_ name: UnsafeBufferPointer<UInt8>, to stamp: inout [Int64]) {
        stamp.append(Int64(name.count))
        var word: Int64 = 0, shift: Int64 = 0
        for byte in name {
            word |= Int64(byte) << shift
            shift += 8
            if shift == 64 { stamp.append(word); word = 0; shift = 0 }
        }
        if shift > 0 { stamp.append(word) }
    }

    /// The listings of `content/` for this build's walk, without those of the folders that changed
    /// since the last one (all of them when that is not known).
    func contentListings() -> FolderWalk.Listings {
        let changed = folderChanges.take().map { folders in
            Set(folders.compactMap { folder -> String? in
                if folder == "content" { return "" }
                return folder.hasPrefix("content/") ? String(folder.dropFirst("content/".count)) + "/" : nil
            })
        }
        listings.begin(changed: changed)
        return listings
    }

    /// Called with the lock held.
    private func forgetImaging(_ directory: URL?) {
        cache = nil
        digests = nil
        cacheDirectory = directory
    }

    /// The output as the last build of this process recorded it; a build forgets it before it
    /// writes anything there and sets it when it has published, so one that does not finish
    /// leaves none, and the next one walks the folder.
    var published: Published? {
        get { lock.withLock { lastPublished } }
        set { lock.withLock { lastPublished = newValue } }
    }

    /// Forgets everything: the next build reads it all from disk.
    func clear() {
        // What a build that published wrote down would now describe a folder this one changed.
        settling.withLock {
            pendingMemory = nil
            pendingWrite = nil
            pendingDrop = nil
        }
        posts.clear()
        images.clear()
        search.clear()
        listings.forget()
        folderChanges.lost()
        lock.withLock {
            forgetImaging(nil)
            lastPublished = nil
            loaded = nil
            released = []
        }
    }
}
