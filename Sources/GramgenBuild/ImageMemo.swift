import Foundation
import GramgenCore
import GramgenImaging

/// Images as the last build of this process found them (`gramgen serve`, see `BuildMemory`): a
/// source whose file is exactly as it was, processed with the same settings for the same role,
/// is not looked up again (its digest, its cache key, the cache's index).
///
/// "Exactly as it was" is what the up-to-date check's walk of `content/` saw of the file just
/// before (`begin(stamps:)`): size, modification and change times, inode; the same things the
/// source digests trust (`SourceDigests`). A file the walk did not list as a plain file (a link,
/// or anything new since) is looked up as in any build. Only the last build's images are kept.
final class ImageMemo: @unchecked Sendable {
    struct Key: Hashable {
        var path: String
        var role: ImageRole
        /// The settings' digest (`digest`): a look-up of each of 10,000 keys hashes this number,
        /// not the settings' text.
        var fingerprint: UInt64

        static func digest(_ fingerprint: Data) -> UInt64 {
            var digest = DigestBuilder()
            digest.add([UInt8](fingerprint))
            return digest.value
        }
    }

    /// An image as found, never changed once made: held by reference, so the tables that copy
    /// 10,000 of them (restored, the whole look-up, the next build's) take one count each, not
    /// one per field of the image.
    final class Entry: Sendable {
        let stamp: [Int64]
        let image: ProcessedImage
        let cacheKey: String
        /// The source's name in the source digests (`SourceDigests.key(of:)`), made once.
        let sourceKey: String
        /// Where the memo's file held the entry, when it was read from there (`ImageMemo.readFrom`):
        /// written again as it was read (`save`).
        let encoded: Range<Int>?

        init(stamp: [Int64], image: ProcessedImage, cacheKey: String, sourceKey: String, encoded: Range<Int>? = nil) {
            self.stamp = stamp
            self.image = image
            self.cacheKey = cacheKey
            self.sourceKey = sourceKey
            self.encoded = encoded
        }
    }

    let lock = NSLock()
    /// Whether a build's look-up is kept for the next build of this process (`keepWhole`): not
    /// in a one-off build, which has no next one.
    let keepsWhole: Bool
    var entries: [Key: Entry] = [:]
    private var next: [Key: Entry] = [:]
    /// Whether `entries` differ from what was last read from or written to disk (`save`).
    var changed = false
    /// Whether a build has finished with this memo (`restore` fills only a fresh one).
    var used = false
    /// Each source's stamp by its site-relative path (`ImageSource.path`), for one build.
    private var stamps: [String: [Int64]] = [:]
    /// Images the last build took from memory.
    private(set) var reused = 0
    /// The last build's first look-up, when it found every key, and what it gave:
    /// a rebuild after a caption edit asks for the same 10,100 keys of unchanged files, and
    /// takes them in one piece (`lookupWhole`) instead of 10,100 look-ups and insertions.
    var lastWhole: Whole?
    /// Whether this build kept its own: a `Whole` serves the very next build only (the cache is
    /// pruned to each build's images, so an older one's files may be gone).
    private var keptWhole = false
    /// Whether this build took its images in one piece (`lookupWhole`).
    private(set) var tookWhole = false
    /// The keys of this build's first look-up when it found every key (as `keepWhole` keeps
    /// them), and those of the last build (`wholeOnDisk`): the file written for the next process
    /// lists its entries in this order (`save`), so a one-off build takes its images whole too.
    private var wholeKeys: [Key]?
    var wholeOnDisk: [Key]?
    /// The file the entries were read from (a one-off build's, see `restore`): its path, size and
    /// digest, by which `save` knows it again before copying entries from it.
    var readFrom: (path: String, count: Int, digest: UInt64)?
    /// Entries the last `save` copied from that file (tests).
    var copiedAsRead = 0

    init(keepsWhole: Bool = true) {
        self.keepsWhole = keepsWhole
    }

    /// What a look-up of every key of a build gave, as the image stage uses it.
    struct Whole {
        let keys: [Key]
        let stamps: [[Int64]]
        /// `next` right after the look-up: the entries a build that makes the same one keeps.
        let next: [Key: Entry]
        let images: [String: ProcessedImage]
        let cacheKeys: Set<String>
        let sourceKeys: [String]
    }

    /// Starts a build with the walk's stamps (none: nothing is taken from memory).
    func begin(stamps: [String: [Int64]]) {
        lock.withLock {
            self.stamps = stamps
            next = [:]
            // About as many as last time: growing it a step at a time was a tenth of the image stage.
            next.reserveCapacity(entries.count)
            reused = 0
            keptWhole = false
            tookWhole = false
            wholeKeys = nil
            around = nil
            cacheKeyLookups = 0
        }
    }

    /// What the last build's first look-up found (`keepWhole`) when this build's first one
    /// asks for the very same keys, in the same order, and every file is as it was then; nil
    /// otherwise, and nothing is looked up.
    func lookupWhole(_ keys: [Key]) -> Whole? {
        lock.withLock {
            guard next.isEmpty, let whole = lastWhole, whole.keys == keys,
                  zip(keys, whole.stamps).allSatisfy({ stamps[$0.path] == $1 }) else { return nil }
            next = whole.next
            reused += keys.count
            keptWhole = true  // this build's images are the same: it serves the next one too
            tookWhole = true
            wholeKeys = keys
            return whole
        }
    }

    /// Keeps a build's first look-up, once it has every key (as this build found or made them),
    /// and what the image stage made of it, for `lookupWhole` and `lookupAround`; a later one is
    /// not kept. The wide slides' second pass, made in the same run, may be in `next` already:
    /// kept with it. A process with no next build keeps only the keys, for the file (`wholeKeys`).
    func keepWhole(_ keys: [Key], images: [String: ProcessedImage], cacheKeys: Set<String>) {
        lock.withLock {
            guard !keptWhole, wholeKeys == nil, next.count >= keys.count else { return }
            var stamps: [[Int64]] = [], sourceKeys: [String] = []
            stamps.reserveCapacity(keys.count)
            sourceKeys.reserveCapacity(keys.count)
            for (index, key) in keys.enumerated() {
                // The keys `lookupAround` found unchanged at either end: the last whole's.
                if let around, index < around.prefix || index >= keys.count - around.suffix {
                    let old = index < around.prefix ? index : index - keys.count + around.oldCount
                    stamps.append(around.stamps[old])
                    sourceKeys.append(around.sourceKeys[old])
                    continue
                }
                guard let entry = next[key] else { return }
                stamps.append(entry.stamp)
                sourceKeys.append(entry.sourceKey)
            }
            wholeKeys = keys
            guard keepsWhole else { return }
            lastWhole = Whole(keys: keys, stamps: stamps, next: next, images: images, cacheKeys: cacheKeys, sourceKeys: sourceKeys)
            keptWhole = true
        }
    }

    /// What the last build's first look-up found (`keepWhole`) for the keys this build's first
    /// one shares with it at either end, every file of them as it was then: a new post's images
    /// come in between (the posts are in the same order), a deleted post's go, a replaced photo
    /// is looked up again. `prefix` and `suffix` are how many keys at the start and at the end
    /// are the same; the few in between are this build's to look up. Nil when more than
    /// `aroundLimit` keys differ, or when a source in between also appears with another role
    /// among the rest (its image is kept by path).
    /// `cacheKeys`: those of the images taken (the last build's less those of the images gone,
    /// unless another image uses the same).
    func lookupAround(_ keys: [Key]) -> (whole: Whole, prefix: Int, suffix: Int, cacheKeys: Set<String>)? {
        lock.withLock {
            guard next.isEmpty, let whole = lastWhole else { return nil }
            let old = whole.keys
            func same(_ index: Int, _ oldIndex: Int) -> Bool {
                old[oldIndex] == keys[index] && stamps[keys[index].path] == whole.stamps[oldIndex]
            }
            var prefix = 0
            while prefix < old.count, prefix < keys.count, same(prefix, prefix) { prefix += 1 }
            var suffix = 0
            while suffix < old.count - prefix, suffix < keys.count - prefix, same(keys.count - 1 - suffix, old.count - 1 - suffix) {
                suffix += 1
            }
            let gone = old[prefix..<(old.count - suffix)], added = keys[prefix..<(keys.count - suffix)]
            guard gone.count + added.count <= Self.aroundLimit else { return nil }
            let paths = Set(gone.map(\.path) + added.map(\.path))
            let kept = old[..<prefix] + old[(old.count - suffix)...]
            // Few keys in between, but a pass over the rest to rule out a shared path.
            guard !kept.contains(where: { paths.contains($0.path) }) else { return nil }
            // Handed over, not shared: this build adds the new images to its tables, which would
            // otherwise copy every entry first (10,000 at 10,000 posts, twice). The build keeps
            // its own whole for the next one (`keepWhole`); one that fails before has none, and
            // the next looks its images up one by one.
            lastWhole = nil
            around = Around(stamps: whole.stamps, sourceKeys: whole.sourceKeys, prefix: prefix, suffix: suffix, oldCount: old.count)
            var next = whole.next
            for key in gone { next[key] = nil }
            self.next = next
            reused += prefix + suffix
            // Kept as they were, a gone image's key would stay listed build after build (and
            // its line in the cache's index) for as long as the server runs.
            return (whole, prefix, suffix, gone.isEmpty ? whole.cacheKeys : Set(next.values.lazy.map(\.cacheKey)))
        }
    }

    /// At most this many keys in between for `lookupAround` (a post holds up to 20 photos).
    static let aroundLimit = 64

    /// What `lookupAround` took: the last whole's stamps and source keys, and how many keys it
    /// shares with this build's at each end, so `keepWhole` takes theirs from there instead of
    /// looking up each of this build's keys.
    private struct Around {
        let stamps: [[Int64]]
        let sourceKeys: [String]
        let prefix: Int
        let suffix: Int
        let oldCount: Int
    }

    private var around: Around?

    /// What the last build found for each key, where its file is unchanged (nil elsewhere): all
    /// at once, under one lock, as a serve rebuild after an edit finds nearly every image here.
    func lookup(_ keys: [Key]) -> [Entry?] {
        lock.withLock {
            keys.map { key in
                guard let stamp = stamps[key.path], let entry = entries[key], entry.stamp == stamp else { return nil }
                next[key] = entry
                reused += 1
                return entry
            }
        }
    }

    /// The image the last build had under `cacheKey`: a file of another name with the same bytes
    /// and settings (a photo moved, a post folder renamed, the same photo in a new post), found
    /// without the cache's index (10,000 lines read for one look-up at 10,000 posts).
    func image(cacheKey: String) -> ProcessedImage? {
        lock.withLock {
            // A new post's few photos are found by a pass over the entries; a table of them all
            // (10,000 insertions at 10,000 posts, for one look-up) only once a build asks often.
            cacheKeyLookups += 1
            if byCacheKey == nil, cacheKeyLookups <= Self.cacheKeyScans {
                return entries.values.first { $0.cacheKey == cacheKey }?.image
            }
            if byCacheKey == nil {
                byCacheKey = Dictionary(entries.values.lazy.map { ($0.cacheKey, $0.image) }, uniquingKeysWith: { first, _ in first })
            }
            return byCacheKey?[cacheKey]
        }
    }

    /// `entries` by cache key, made once a build has asked `image(cacheKey:)` more than
    /// `cacheKeyScans` times (the same image as a scan finds: the first in `entries`' order).
    private var byCacheKey: [String: ProcessedImage]?
    private var cacheKeyLookups = 0
    static let cacheKeyScans = 16

    /// Keeps what this build found for `key` (when the walk listed its file).
    func remember(_ key: Key, image: ProcessedImage, cacheKey: String, source: URL) {
        lock.withLock {
            guard let stamp = stamps[key.path] else { return }
            next[key] = Entry(stamp: stamp, image: image, cacheKey: cacheKey, sourceKey: SourceDigests.key(of: source))
            changed = true
        }
    }

    /// Ends a build: only what it used is kept.
    func finish() {
        lock.withLock {
            if next.count != reused { changed = true }  // made anew: `remember` said so
            if reused != entries.count { changed = true }  // some are gone
            if wholeKeys != wholeOnDisk { changed = true }  // the same images in another order
            wholeOnDisk = wholeKeys
            used = true
            retired = (entries, lastWhole, stamps, byCacheKey)
            entries = next
            byCacheKey = nil
            around = nil
            if !keptWhole { lastWhole = nil }
            next = [:]
            stamps = [:]
        }
    }

    /// For a process with no next build (a one-off build): the table is let go unless `save`
    /// writes it (`PostMemo.keepOnlyWhatSaveWrites`).
    func keepOnlyWhatSaveWrites() {
        lock.withLock {
            // Both let go of on another thread: the last build's look-up (10,000 keys and
            // stamps) took 6 ms of the build's thread.
            Parallel.free(&lastWhole, replacingWith: nil)
            if !changed { Parallel.free(&entries, replacingWith: [:]) }
        }
    }

    /// The last build's tables, replaced by `finish`: handed over (`takeRetired`) to be freed
    /// where nobody waits (as `PostMemo`'s).
    private var retired: Any?

    func takeRetired() -> Any? {
        lock.withLock {
            defer { retired = nil }
            return retired
        }
    }

    func clear() {
        lock.withLock {
            changed = true
            entries = [:]
            byCacheKey = nil
            around = nil
            next = [:]
            stamps = [:]
            lastWhole = nil
            wholeKeys = nil
            wholeOnDisk = nil
            readFrom = nil
        }
    }

    /// Stamps of the plain files of a walk of `content/`, by site-relative path.
    static func stamps(_ content: [FolderWalk.Entry]) -> [String: [Int64]] {
        var stamps: [String: [Int64]] = [:]
        stamps.reserveCapacity(content.count)
        for entry in content where entry.isRegular && !entry.isLink {
            stamps["content/" + entry.path] = entry.stamp
        }
        return stamps
    }
}
