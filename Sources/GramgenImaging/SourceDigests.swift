import Foundation
import GramgenCore
#if canImport(Glibc)
import Glibc
#endif

/// Remembers each source file's digest by its size, times and inode, so a rebuild does not re-read
/// unchanged photos just to learn they are unchanged. A file written since (its change time moves
/// even when the modification time is set back) or replaced by another is read again.
///
/// Stored in `sources`, one tab-separated line per file: size, modification and change time in
/// nanoseconds, inode, SHA-256 and path (escaped).
public final class SourceDigests: @unchecked Sendable {
    struct Stamp: Equatable {
        var size: Int64
        var modified: Int64
        var changed: Int64
        var inode: Int64

        init(_ info: stat) {
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
            inode = Int64(bitPattern: UInt64(info.st_ino))
        }

        init(size: Int64, modified: Int64, changed: Int64, inode: Int64) {
            self.size = size
            self.modified = modified
            self.changed = changed
            self.inode = inode
        }
    }

    struct Entry: Equatable {
        var stamp: Stamp
        var digest: String
    }

    static let header = "gramgen source digests 2"
    /// The header of the files of gramgen versions before the count and digest of the keys.
    static let headerWithoutKeys = "gramgen source digests 1"

    private let directory: URL
    private var entries: [String: Entry] = [:]
    /// Whether `entries` holds the file, parsed.
    private var loaded = false
    private var used: [String: Entry] = [:]
    /// Whether `used` holds an entry `entries` (as read or last saved) does not: else, when it
    /// holds all of them, the file is already what `save` would write (10,000 lines at 10,000 posts).
    private var changed = false
    /// The file's bytes, read but not parsed (`raw`), and whether they were read. Kept once
    /// parsed, with where each entry's line is in them (`lines`), for `save`.
    private var raw: [UInt8]?
    private var lines: [(key: String, line: Range<Int>)] = []
    private var rawRead = false
    /// How many keys the file holds, and their digest, as its first line says (nil for a file
    /// of an older gramgen, which is written anew).
    private var fileKeys: (count: Int, digest: UInt64)?
    /// Whether the file is written as this version writes it (an older one is written anew).
    private var fileIsCurrent = false
    /// Entries found by a look in `raw` for their line, before the file is parsed.
    private var peeked: [String: Entry] = [:]
    private var peeks = 0
    /// Times the file was parsed whole (tests).
    private(set) var parses = 0
    private let lock = NSLock()

    public init(directory: URL) {
        self.directory = directory
    }

    private var path: String { directory.appendingPathComponent("sources").path }

    /// The SHA-256 of the file, from the index when its size, times and inode are unchanged.
    public func digest(of file: URL) throws -> String {
        let path = file.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        let stamp = Stamp(info)
        // Paths from the content loader are absolute and clean; others are cleaned first.
        let key = Self.isClean(path) ? path : file.standardizedFileURL.path
        let known = lock.withLock { entry(key) }
        if let known, known.stamp == stamp {
            remember(key, known)
            return known.digest
        }
        let digest = try MediaCache.digest(of: file)
        remember(key, Entry(stamp: stamp, digest: digest))
        return digest
    }

    /// The file's entry for `key`; called with the lock held. The first few are found by a look
    /// for their line in the file's bytes: a build that asks for one digest (the site's icon)
    /// and keeps every other entry (`keep`) does not parse 10,000 lines.
    private func entry(_ key: String) -> Entry? {
        if loaded { return entries[key] }
        if let known = peeked[key] { return known }
        guard peeks < 16 else {
            loadIfNeeded()
            return entries[key]
        }
        peeks += 1
        readIfNeeded()
        guard let raw, let found = Self.line(of: key, in: raw) else { return nil }
        peeked[key] = found
        return found
    }

    /// The entry on the line of `key` in `bytes`, found by its last field, or nil.
    static func line(of key: String, in bytes: [UInt8]) -> Entry? {
        let needle = Array(("\t" + CacheFiles.escape(key) + "\n").utf8)
        // At each tab (memchr), the needle compared whole (memcmp).
        let offset: Int? = bytes.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard let base = haystack.baseAddress, let wanted = needle.baseAddress else { return nil }
                var at = 0
                while haystack.count - at >= needle.count, let tab = memchr(base + at, 0x09, haystack.count - at - needle.count + 1) {
                    at = base.distance(to: UnsafeRawPointer(tab))
                    if memcmp(base + at, wanted, needle.count) == 0 { return at }
                    at += 1
                }
                return nil
            }
        }
        guard let offset else { return nil }
        let start = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        guard start > 0, let (file, entry) = record(bytes[start..<(offset + needle.count - 1)]),
              file == key else { return nil }
        return entry
    }

    /// A line (without its newline) as a path and its entry; nil when it is not what `save`
    /// writes. Its six fields are cut at its tabs, each found with `memchr` (split into a list,
    /// a byte at a time, reading the file's 10,000 lines was 2% of a new post's build).
    private static func record(_ line: ArraySlice<UInt8>) -> (String, Entry)? {
        let cuts: (Int, Int, Int, Int, Int)? = line.withUnsafeBufferPointer { buffer in
            var at = 0
            func tab() -> Int? {
                guard let found = buffer.index(of: 0x09, from: at) else { return nil }
                at = found + 1
                return found
            }
            guard let a = tab(), let b = tab(), let c = tab(), let d = tab(), let e = tab(), tab() == nil else { return nil }
            return (a, b, c, d, e)
        }
        guard let (a, b, c, d, e) = cuts else { return nil }
        let start = line.startIndex
        func field(_ from: Int, _ to: Int) -> ArraySlice<UInt8> { line[(start + from)..<(start + to)] }
        let digest = field(d + 1, e)
        guard let size = CacheFiles.integer(field(0, a)), let modified = CacheFiles.integer(field(a + 1, b)),
              let changed = CacheFiles.integer(field(b + 1, c)), let inode = CacheFiles.integer(field(c + 1, d)),
              digest.count == 64, let file = CacheFiles.unescape(line[(start + e + 1)...])
        else { return nil }
        return (file, Entry(stamp: Stamp(size: size, modified: modified, changed: changed, inode: inode),
                            digest: String(decoding: digest, as: UTF8.self)))
    }

    /// Absolute, with no `//` and no `/.` (so no `.` or `..` part): looked at byte by byte, as
    /// every photo's path is, on every build (Foundation's `contains` was most of this step).
    static func isClean(_ path: String) -> Bool {
        var previous: UInt8 = 0
        for byte in path.utf8 {
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") { return false }
            if previous == 0, byte != UInt8(ascii: "/") { return false }
            previous = byte
        }
        return previous != 0
    }

    /// The name a file's entry is kept under: its absolute, clean path.
    public static func key(of file: URL) -> String {
        let path = file.path
        return isClean(path) ? path : file.standardizedFileURL.path
    }

    /// Keeps the entries of files this build did not look at again (its caller knows them
    /// unchanged), as if `digest(of:)` had found them; `keys` as `key(of:)` names them. Taken
    /// into `used` when it is written (`save`), not on the build's way: 10,000 of them held the
    /// image stage, which runs alone, for 8 ms.
    public func keep(keys: [String]) {
        lock.withLock { kept.append(keys) }
    }

    /// Keys given to `keep`, not yet in `used`.
    private var kept: [[String]] = []

    /// Puts the entries of `kept` into `used`, after what `digest(of:)` found (as if they had been
    /// kept first); called with the lock held.
    private func takeKept() {
        guard !kept.isEmpty else { return }
        loadIfNeeded()
        // Every entry either kept or found unchanged (an edit that changed no photo): the entries
        // stay as they are, without 10,000 of them put into `used` one by one. A file both looked
        // up and kept (an avatar that is also the site's icon) is counted once.
        if !changed {
            let (covered, known) = coverage()
            if known, covered == entries.count {
                used = entries
                kept = []
                return
            }
        }
        for keys in kept {
            for key in keys where used[key] == nil {
                if let entry = entries[key] {
                    used[key] = entry
                    keptOneByOne += 1
                }
            }
        }
        kept = []
    }

    /// How many entries of the file this build looked up again or kept (a key kept twice counts
    /// twice), and whether every key kept is one of them; called with the lock held.
    private func coverage() -> (count: Int, allKnown: Bool) {
        var covered = 0, known = true
        for key in used.keys where entries[key] != nil { covered += 1 }
        for keys in kept {
            for key in keys where used[key] == nil {
                if entries[key] != nil { covered += 1 } else { known = false }
            }
        }
        return (covered, known)
    }

    /// Entries `takeKept` put into `used` one by one (tests).
    private(set) var keptOneByOne = 0

    private func remember(_ key: String, _ entry: Entry) {
        lock.lock()
        used[key] = entry
        if (loaded ? entries[key] : peeked[key]) != entry {
            // The file will be written: parsed now on another thread, not when it is saved, at
            // the build's end.
            if !changed, !loaded { DispatchQueue.global().async { [self] in lock.withLock { loadIfNeeded() } } }
            changed = true
        }
        lock.unlock()
    }

    /// Reads `sources` now, on the caller's thread, rather than on a build's first look-up: its
    /// bytes, which are parsed only when more than a few entries are looked up.
    public func preload() {
        lock.withLock { readIfNeeded() }
    }

    /// Reads the file's bytes and its first line; called with the lock held.
    private func readIfNeeded() {
        guard !rawRead else { return }
        rawRead = true
        guard let bytes = CacheFiles.read(path), let end = bytes.firstIndex(of: 0x0A) else { return }
        let first = bytes[..<end].split(separator: 0x09, omittingEmptySubsequences: false)
        let name = first.first.map { String(decoding: $0, as: UTF8.self) }
        if first.count == 3, name == Self.header, let count = CacheFiles.integer(first[1]), let digest = UInt64(String(decoding: first[2], as: UTF8.self), radix: 16) {
            fileKeys = (Int(count), digest)
            fileIsCurrent = true
            raw = bytes
        } else if first.count == 1, name == Self.headerWithoutKeys {
            fileIsCurrent = false
            raw = bytes
        }
    }

    /// Parses the file; called with the lock held.
    private func loadIfNeeded() {
        guard !loaded else { return }
        loaded = true
        readIfNeeded()
        guard let bytes = raw else { return }
        // Each line's end found with `memchr`, not a byte at a time.
        let ends: [Int] = bytes.withUnsafeBufferPointer { buffer in
            var ends: [Int] = [], at = 0
            ends.reserveCapacity(fileKeys.map { $0.count + 1 } ?? 0)
            while let end = buffer.index(of: 0x0A, from: at) {
                ends.append(end)
                at = end + 1
            }
            return ends
        }
        guard var start = ends.first.map({ $0 + 1 }) else { return }
        parses += 1
        entries.reserveCapacity(fileKeys?.count ?? 0)  // not rehashed a dozen times as it grows
        for end in ends.dropFirst() {
            // The first line of a file wins (one looked up, not two).
            if let (file, entry) = Self.record(bytes[start..<end]) {
                if let first = entries.updateValue(entry, forKey: file) {
                    entries[file] = first
                } else {
                    lines.append((file, start..<(end + 1)))
                }
            }
            start = end + 1
        }
    }

    /// Writes the entries used by this build (others are dropped); they are what a next build
    /// with the same object starts from.
    public func save() {
        lock.lock()
        defer { lock.unlock() }
        // Nothing found changed, the file never parsed: when the keys this build used or kept are
        // the very keys the file holds (its first line says how many and their digest), it is
        // already what would be written. The next build of this object reads it again.
        if !loaded, !changed, let fileKeys {
            var keys = Set(used.keys)
            for list in kept { keys.formUnion(list) }
            if keys.count == fileKeys.count, DigestBuilder.unordered(keys) == fileKeys.digest {
                used = [:]
                kept = []
                peeked = [:]
                peeks = 0
                raw = nil
                rawRead = false
                self.fileKeys = nil
                return
            }
        }
        if writeAround() { return }
        takeKept()
        defer {
            entries = used
            used = [:]
            changed = false
            raw = nil
            lines = []
            fileKeys = nil
        }
        if loaded, !changed, fileIsCurrent, used.count == entries.count { return }
        var text = Self.header + "\t\(used.count)\t" + String(DigestBuilder.unordered(used.keys), radix: 16) + "\n"
        for (file, entry) in used.sorted(by: { $0.key < $1.key }) { text += Self.line(file, entry) }
        fileIsCurrent = (try? AtomicFile.write(text: text, to: path)) != nil
        // The index of gramgen versions that kept it as JSON.
        unlink(directory.appendingPathComponent("sources.json").path)
    }

    /// `save`, then as a new object (a look-up reads the file again): what a one-off build does
    /// once no step of it asks for a digest, so that their table and the file's bytes (57 MB at
    /// 100,000 posts) are not held through the render, the build's peak of memory.
    public func saveAndForget() {
        save()
        lock.withLock {
            entries = [:]
            loaded = false
            used = [:]
            kept = []
            raw = nil
            lines = []
            rawRead = false
            fileKeys = nil
            fileIsCurrent = false
            peeked = [:]
            peeks = 0
        }
    }

    /// An entry's line as `save` writes it.
    private static func line(_ file: String, _ entry: Entry) -> String {
        let stamp = entry.stamp
        return "\(stamp.size)\t\(stamp.modified)\t\(stamp.changed)\t\(stamp.inode)\t\(entry.digest)\t\(CacheFiles.escape(file))\n"
    }

    /// `save` when the build keeps every entry of the file it parsed and adds or changes some (a
    /// new photo): the file's lines, as read, less those of the changed entries, then the lines of
    /// the new and changed ones. Formatting and sorting 10,000 lines again and putting each kept
    /// entry into `used` one by one took a new post's build 80 ms, on its critical path. False
    /// when it does not apply (an entry dropped, the file not parsed or of an older gramgen);
    /// called with the lock held.
    private func writeAround() -> Bool {
        guard changed else { return false }
        loadIfNeeded()  // most often done on another thread when the change was found (`remember`)
        guard fileIsCurrent, let raw, !lines.isEmpty else { return false }
        guard coverage().count >= entries.count else { return false }
        let fresh = used.filter { entries[$0.key] != $0.value }.sorted { $0.key < $1.key }
        let added = fresh.filter { entries[$0.key] == nil }
        let count = entries.count + added.count
        let digest = DigestBuilder.unordered(entries.keys) &+ DigestBuilder.unordered(added.map(\.key))
        var bytes = Array((Self.header + "\t\(count)\t" + String(digest, radix: 16) + "\n").utf8)
        bytes.reserveCapacity(raw.count + fresh.count * 160)
        raw.withUnsafeBufferPointer { raw in
            for (key, line) in lines where used[key].map({ $0 == entries[key] }) ?? true {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: raw[line]))
            }
        }
        for (file, entry) in fresh { bytes += Array(Self.line(file, entry).utf8) }
        fileIsCurrent = (try? AtomicFile.write(bytes, to: path)) != nil
        for (file, entry) in fresh { entries[file] = entry }
        used = [:]
        kept = []
        changed = false
        self.raw = nil
        lines = []
        fileKeys = nil
        return true
    }
}
