import Foundation
import GramgenCore

/// Posts as the last load left them, for a process that loads the same site again and again
/// (`gramgen serve`): a post whose folder is exactly as it was is not read and parsed again.
///
/// "Exactly as it was" is the folder's stamp, from the walk of `content/` the up-to-date check
/// has just made (`use(listing:)`): every file below the folder by name, with its kind, size,
/// inode, modification and change times. A write, a rename, a new or removed file: each moves
/// one of them. A post reached through a link, or holding one, is never kept: whether its files
/// are inside the site depends on folders elsewhere, which its stamp does not see, so it is read
/// (and checked) anew each time. The stamp is taken before the post is read, so a file saved
/// while it is read is read again next time. The loaded post depends on the configuration
/// and the site's handles too (`Context`); when either differs, nothing is reused. Only the posts
/// of the last load are kept, so the memo is as large as the site, no larger.
///
/// A one-off `gramgen build` keeps it on disk between runs (`PostMemo+Disk.swift`): the next
/// build starts from what the last one loaded, and reads only the posts whose folders changed.
public final class PostMemo: @unchecked Sendable {
    struct Context: Equatable {
        var contentPath: String
        var config: SiteConfig
        var handles: Set<String>
    }

    struct Entry {
        var stamp: [Int64]
        var loaded: LoadedPost?
        var diagnostics: [Diagnostic]
    }

    /// A user's profile as the last load read it, by the stamp of the user's own files
    /// (`users/<handle>`, every file there but the posts): a server's rebuild read and parsed
    /// every profile again (a twentieth of it at 100 users), and so did a one-off build, which
    /// takes those read without a diagnostic from the last build's file (`PostMemo+Disk.swift`).
    struct ProfileEntry {
        var stamp: [Int64]
        var profile: Profile
        var following: [Reference]
        var diagnostics: [Diagnostic]
    }

    let lock = NSLock()
    var context: Context?
    /// The context as a digest that outlives the process (`ContentLoader.memoKey`): what entries
    /// read from disk were made under, and what those saved are.
    var contextKey: UInt64?
    var entries: [String: Entry] = [:]
    private var next: [String: Entry] = [:]
    /// Profiles by user folder, as `entries` are by post folder.
    var profiles: [String: ProfileEntry] = [:]
    private var nextProfiles: [String: ProfileEntry] = [:]
    /// Profiles taken from the memo by the last load.
    public private(set) var profilesReused = 0
    /// Whether `profiles` differ from the file on disk (`save`).
    var profilesChanged = false
    /// The shards of the file on disk that no longer hold what `entries` does (`save`).
    var changedShards: Set<Int> = []
    /// The shards the load under way changed (`finish` adds them to `changedShards`).
    private var loadChanged: Set<Int> = []
    /// Whether the entries came from disk and no load has used them yet.
    var restored = false
    /// Each post folder's stamp from a walk of `content/` made just before (`use(listing:)`), for
    /// the next load only.
    private var listed: [String: [Int64]]?
    /// Posts taken from the memo by the last load, and read anew.
    public private(set) var reused = 0
    public private(set) var read = 0
    /// Posts read anew whose folders the last load had too.
    private var replaced = 0

    public init() {}

    /// Stamps of the post folders by `users/<handle>/posts/<id>`, taken from a walk of `content/`
    /// that has just been made (the up-to-date check's): the next load looks at no folder again.
    /// A folder missing from it is read anew.
    public func use(listing: [String: [Int64]]) {
        lock.withLock { listed = listing }
    }

    /// What a load looks its posts up in, taken once (`Kept`).
    func kept() -> Kept {
        lock.withLock { Kept(listed: listed, entries: entries, profiles: profiles) }
    }

    /// The listing's stamps and the posts as the last load left them, read by a load's threads
    /// without the lock: taking it twice for each of 10,000 posts made the load one thread's
    /// work. The posts taken from it are recorded in one pass (`took`).
    struct Kept: @unchecked Sendable {
        let listed: [String: [Int64]]?
        let entries: [String: Entry]
        let profiles: [String: ProfileEntry]

        /// The stamp of the post folder `folder` from the listing; nil without one (the post is read).
        func stamp(of folder: String) -> [Int64]? { listed?[folder] }

        /// The post as loaded last time, when its folder's stamp is the same.
        func lookup(_ folder: String, stamp: [Int64]) -> Entry? {
            guard let entry = entries[folder], entry.stamp == stamp else { return nil }
            return entry
        }

        /// The profile as loaded last time, when the user folder's stamp is the same.
        func profile(_ folder: String, stamp: [Int64]) -> ProfileEntry? {
            guard let entry = profiles[folder], entry.stamp == stamp else { return nil }
            return entry
        }
    }

    /// Starts a load: what was kept is usable only with the same context (`key` for entries
    /// read from disk, whose context is known only by its digest).
    func begin(_ context: Context, key: UInt64) {
        lock.withLock {
            let same = restored ? contextKey == key : self.context == context
            if !same {
                // Every file, empty ones too: each says which context it was written under.
                changedShards = Set(0..<Self.shardCount)
                entries = [:]
                profiles = [:]
                profilesChanged = true
            }
            restored = false
            self.context = context
            contextKey = key
            next = [:]
            next.reserveCapacity(entries.count)
            nextProfiles = [:]
            profilesReused = 0
            reused = 0
            read = 0
            replaced = 0
            loadChanged = []
        }
    }

    /// The posts (by folder) a load took from `kept()`: kept for the next load.
    func took(_ folders: [String]) {
        lock.withLock {
            reused += folders.count
            // Every kept post taken or read anew (most loads): the kept table itself, with the
            // posts read anew put in, instead of 10,000 posts looked up and inserted one by one.
            // Each folder is taken once, and only from `entries`, as each read anew is remembered.
            if folders.count + replaced == entries.count {
                var all = entries
                for (folder, entry) in next { all[folder] = entry }
                next = all
                return
            }
            for folder in folders { next[folder] = entries[folder] }
        }
    }

    /// The profile of the user folder `folder` a load used: taken from `kept()` or read anew,
    /// kept for the next load either way (with `stamp`; without one it is not kept).
    func used(profile entry: ProfileEntry?, of folder: String, taken: Bool) {
        lock.withLock {
            if let entry { nextProfiles[folder] = entry }
            if taken { profilesReused += 1 }
        }
    }

    func remember(_ folder: String, _ entry: Entry) {
        lock.withLock {
            next[folder] = entry
            read += 1
            if entries[folder] != nil { replaced += 1 }
            loadChanged.insert(Self.shard(folder))
        }
    }

    /// Ends a load: only the posts it saw are kept.
    func finish() {
        lock.withLock {
            if reused + replaced != entries.count {  // some kept post is gone: its shard changes
                for folder in entries.keys where next[folder] == nil { loadChanged.insert(Self.shard(folder)) }
            }
            // Marked only now, with the entries they describe (a save taken during the load
            // writes the last load's entries, and must not take this one's marks with it).
            changedShards.formUnion(loadChanged)
            loadChanged = []
            retired = (entries, listed, profiles)
            entries = next
            next = [:]
            // Unchanged when every kept profile was taken and none was read anew.
            if profilesReused != profiles.count || nextProfiles.count != profilesReused { profilesChanged = true }
            profiles = nextProfiles
            nextProfiles = [:]
            listed = nil
        }
    }

    /// For a process with no next load (a one-off build): keeps only the entries `save` writes
    /// (those of the files that changed; none after a load that changed nothing). At 100,000
    /// posts the table was some 80 MB, held to the end of the build for nothing.
    public func keepOnlyWhatSaveWrites() {
        lock.withLock {
            let kept = changedShards.isEmpty ? [:] : entries.filter { changedShards.contains(Self.shard($0.key)) }
            Parallel.free(&entries, replacingWith: kept)
            if !profilesChanged { profiles = [:] }
        }
    }

    /// The last load's tables, replaced by `finish`: handed over (`takeRetired`) to be freed
    /// where nobody waits (10,000 posts' entries took a tenth of a new post's loading).
    private var retired: Any?

    public func takeRetired() -> Any? {
        lock.withLock {
            defer { retired = nil }
            return retired
        }
    }

    /// Forgets everything (after a load that could not finish).
    public func clear() {
        lock.withLock {
            changedShards.formUnion(entries.keys.map(Self.shard))
            profilesChanged = true
            restored = false
            entries = [:]
            next = [:]
            profiles = [:]
            nextProfiles = [:]
            listed = nil
            context = nil
        }
    }
}
