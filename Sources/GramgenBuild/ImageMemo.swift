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

    struct Entry {
        var stamp: [Int64]
        var image: ProcessedImage
        var cacheKey: String
        /// The source's name in the source digests (`SourceDigests.key(of:)`), made once.
        var sourceKey: String
    }

    let lock = NSLock()
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
    private var lastWhole: Whole?
    /// Whether this build kept its own: a `Whole` serves the very next build only (the cache is
    /// pruned to each build's images, so an older one's files may be gone).
    private var keptWhole = false
    /// Whether this build took its images in one piece (`lookupWhole`).
    private(set) var tookWhole = false

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
            return whole
        }
    }

    /// Keeps a build's first look-up, which found every key (`found`, in the keys' order), and
    /// what the image stage made of it, for `lookupWhole`; a later one (a second pass over some
    /// slides) is not kept.
    func keepWhole(_ keys: [Key], found: [Entry], images: [String: ProcessedImage], cacheKeys: Set<String>) {
        lock.withLock {
            guard next.count == keys.count else { return }
            lastWhole = Whole(keys: keys, stamps: found.map(\.stamp), next: next, images: images, cacheKeys: cacheKeys,
                              sourceKeys: found.map(\.sourceKey))
            keptWhole = true
        }
    }

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
            used = true
            entries = next
            if !keptWhole { lastWhole = nil }
            next = [:]
            stamps = [:]
        }
    }

    func clear() {
        lock.withLock {
            changed = true
            entries = [:]
            next = [:]
            stamps = [:]
            lastWhole = nil
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
