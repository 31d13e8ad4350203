import Foundation
import GramgenCore

/// The drawn bytes of list items (a post's card in a feed, its tile in a grid) and each post's
/// JSON Feed item (`FeedSet.itemJSON`), kept by a digest
/// of everything they are made from (`TemplateObjectList.memoKey` and where the template draws
/// them), so an item drawn again, on another page or by a later build, is copied instead of made
/// and drawn. A new post moves every post of the home feed, the following feeds and the grids
/// one place down: at 10,000 posts, 700 pages drawn again, every card of which the last build
/// drew already.
///
/// Kept in memory by `gramgen serve` and on disk for one-off builds (`fragments` in the cache
/// folder, `restore` and `save`): a file whose new items are added at its end with a new table,
/// so saving costs what the build drew, and written anew (renamed into place) when it holds as
/// much that is no longer read as it holds that is. At most `budget` bytes of items are kept, and
/// a one-off build holds at most `memoryBudget` of new ones: once full, it drops those it kept
/// first to keep the next (`dropsOldest`), so the items of the pages drawn last are at hand, as
/// the pages of a big site list the same posts near each other in the drawing order (the home
/// feed, the lists and the following feeds in one run, page by page; the tag pages right after
/// the profiles' grids; the feeds, for which it holds the whole budget: `widen`). What it
/// dropped a later build draws again.
///
/// The file: a 24-byte header (magic, the salt's digest), items, then a table of (key, offset,
/// length, digest of the bytes) sorted by key and a 40-byte footer (the table's offset, count and
/// digest, the salt's digest, magic). It is opened only when an item is first looked for, without
/// following a link and only when it is a regular file; its table is checked whole, and each item
/// read is checked against its digest before use. Anything that does not check out is a miss.
public final class FragmentMemo: @unchecked Sendable {
    /// Items at most (bytes): the cards and tiles of a 10,000-post site's feeds and grids. A larger
    /// site keeps those drawn most recently.
    public static let budget = 96 << 20
    /// New items a one-off build holds at most (bytes).
    public static let oneOffMemory = 32 << 20
    /// Items read from the file held at most (bytes), to copy again without reading them again.
    public static let checkedMemory = 48 << 20
    /// A file of at most this many bytes is read whole once a build has read `wholeAfter` items
    /// from it one by one (see `whole`): a 10,000-post site's 63 MB, not a larger site's file of
    /// 96 MB or more, whose items held after their second read (`checkedMemory`) take less (read
    /// whole, the 50,000-post corpus's 102 MB raised a pages-only build's peak from 457 to 530 MiB
    /// for no time saved).
    public static let wholeFileMemory = 80 << 20
    public static let wholeAfter = 2048
    /// A build that kept fewer new items than this does not write the file (a caption edit keeps
    /// a few cards, drawn again next time for less than writing them costs).
    public static let saveThreshold = 32
    private let saveThreshold: Int

    private let lock = NSLock()
    private let budget: Int
    private var memoryBudget: Int
    /// `memoryBudget` as made, which each build starts from (`widen` raises it for one build).
    private let pagesBudget: Int
    /// Items drawn by this process, not yet in the file.
    private var fresh: [UInt64: [UInt8]] = [:]
    private var freshBytes = 0
    /// Whether a full memo drops its oldest items to keep a new one (a one-off build), or keeps
    /// no more until the next build (`gramgen serve`: `startBuild` drops the least recently used).
    private let dropsOldest: Bool
    /// With `dropsOldest`: the keys of `fresh` in the order kept, from `keptOrderStart`.
    private var keptOrder: [UInt64] = []
    private var keptOrderStart = 0
    /// The builds so far (`startBuild`), and the last of them each item in `fresh` was used by.
    private var build = 0
    private var lastUsed: [UInt64: Int] = [:]
    /// Keys copied or kept by the build under way.
    private var used: Set<UInt64> = []
    private var keptThisBuild = 0
    private var copiedThisBuild = 0
    /// The file, opened at the first look-up (`restore` only names it).
    private var source: (path: String, salt: UInt64)?
    private var file: KeptItems?
    private var opened = false
    /// Items read from the file a second time and found sound, at most `checkedBudget` bytes of
    /// them: a card is on several pages (a pages-only build of 10,000 posts read 21,700 items
    /// 154,600 times), and each read from the file is a system call, an array and a digest of its
    /// bytes. Held from the second read on, not the first: a new post's build reads most of its
    /// 13,000 cards once, and holding each (33 MB) cost it more than it saved. A key's bytes are
    /// the same whichever file they come from (the key is a digest of all they are made of, with
    /// the salt): they are dropped only with the salt (`restore`).
    private var checked: [UInt64: [UInt8]] = [:]
    private var checkedBytes = 0
    private let checkedBudget: Int
    /// The keys of the items read from the file once so far.
    private var readOnce: Set<UInt64> = []
    /// The file read whole, once items are read from it one by one `wholeAfter` times: a
    /// pages-only build of 10,000 posts read 85,000 items from its 63 MB, each a system call, an
    /// array and a digest, and looked up 70,000 more among those held (`checked`). Held whole,
    /// an item is copied from where it lies, checked against its digest the first time only.
    /// Not at once: a caption edit reads a few hundred items, for which reading the whole file
    /// cost more than it saves. In place of `checked`, which is dropped when it is read.
    private var whole: WholeFile?
    private var readingWhole = false
    private let wholeBudget: Int
    private let wholeAfter: Int
    private let mapsWhole: Bool

    /// `memoryBudget`: new items held at most (`gramgen serve`, which keeps them only in memory:
    /// the whole budget). `dropsOldest`: a one-off build's memo, which once full drops the items
    /// it kept first to keep new ones. `mapsWhole`: the file is mapped to be read whole where the
    /// system lets it (`WholeBytes`); false reads it (tests: what a build does where it cannot).
    public init(budget: Int = FragmentMemo.budget, memoryBudget: Int = FragmentMemo.budget,
                saveThreshold: Int = FragmentMemo.saveThreshold, dropsOldest: Bool = false,
                checkedBudget: Int = FragmentMemo.checkedMemory, wholeBudget: Int = FragmentMemo.wholeFileMemory,
                wholeAfter: Int = FragmentMemo.wholeAfter, mapsWhole: Bool = true) {
        self.budget = budget
        self.memoryBudget = min(budget, memoryBudget)
        pagesBudget = self.memoryBudget
        self.checkedBudget = min(budget, checkedBudget)
        self.wholeBudget = wholeBudget
        self.wholeAfter = wholeAfter
        self.mapsWhole = mapsWhole
        self.saveThreshold = saveThreshold
        self.dropsOldest = dropsOldest
    }

    /// A one-off build's memo (`dropsOldest`) holds up to the whole budget of new items from now
    /// on, until the next build (`startBuild`): for the feeds, drawn last, whose items a user's
    /// feed files share with the site's and the tags' across half the timeline (a user's 50
    /// newest posts in one file, sorted by its newest): at 50,000 posts, 1.7 items made a post
    /// with the cards' bound, which held them all at 10,000 posts. The cards and tiles kept
    /// before are the first dropped for them.
    public func widen() {
        lock.withLock { if dropsOldest { memoryBudget = budget } }
    }

    /// Items copied and kept since the last `startBuild` (tests, `--verbose`).
    public var counts: (copied: Int, kept: Int) {
        lock.withLock { (copiedThisBuild, keptThisBuild) }
    }

    /// Items read from the file so far (tests).
    public var fileReads: Int { lock.withLock { fileReadCount } }
    private var fileReadCount = 0

    /// A new build: counts and the set of items it used start again. `gramgen serve` keeps the
    /// memo between builds; once it holds more than seven eighths of its budget, the items used
    /// least recently are dropped until it holds three quarters, leaving room for the next
    /// builds' new ones (a sort of its keys, seldom). Dropping every item the last build did not
    /// use, as before, emptied it after a caption edit, which uses a few hundred: the next new
    /// post drew every card again.
    public func startBuild() {
        lock.withLock {
            build += 1
            memoryBudget = pagesBudget
            for key in used where fresh[key] != nil { lastUsed[key] = build }
            let keep = memoryBudget / 4 * 3
            if freshBytes > memoryBudget / 8 * 7 {
                // Each key's last build looked up once, not at every comparison of the sort.
                let oldestFirst = fresh.keys.map { (build: lastUsed[$0, default: 0], key: $0) }.sorted { $0.build < $1.build }
                for (_, key) in oldestFirst {
                    guard freshBytes > keep else { break }
                    freshBytes -= fresh.removeValue(forKey: key)?.count ?? 0
                    lastUsed[key] = nil
                }
            }
            used.removeAll(keepingCapacity: true)
            keptThisBuild = 0
            copiedThisBuild = 0
        }
    }

    /// The last build's items are in the file at `path`, written with `salt`.
    public func restore(from path: String, salt: String) {
        lock.withLock {
            let digest = Self.digest(salt)
            if source?.salt != digest {
                checked.removeAll()
                readOnce.removeAll()
                checkedBytes = 0
            }
            source = (path, digest)
            closeFile()
        }
    }

    /// Appends the item kept under `key` to `out`; false when there is none.
    func copy(_ key: UInt64, into out: inout [UInt8]) -> Bool {
        read(key) { out.append(contentsOf: $0) }
    }

    /// Hands the item kept under `key` to `use` (a kept one is checked first), which must not
    /// keep the bytes; false when there is none. `use` runs outside the lock: the two threads of
    /// a build copy cards at once.
    ///
    /// The file and what was read of it whole are handed out of the lock uncounted: counted, each
    /// read took two counts and dropped them, of two objects both threads read at every item. The
    /// memo holds them until `restore` or `save`, which no build runs beside its reads.
    func read(_ key: UInt64, _ use: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        let (held, file, whole): ([UInt8]?, Unmanaged<KeptItems>?, Unmanaged<WholeFile>?) = lock.withLock {
            if let bytes = fresh[key] ?? checked[key] {
                countCopy(key)
                return (bytes, nil, nil)
            }
            return (nil, openedFile().map { Unmanaged.passUnretained($0) }, self.whole.map { Unmanaged.passUnretained($0) })
        }
        if let held {
            held.withUnsafeBufferPointer(use)
            return true
        }
        guard let file else { return false }
        return file._withUnsafeGuaranteedRef { file in
            if let whole {
                return whole._withUnsafeGuaranteedRef { whole in
                    guard let index = whole.find(key, in: file) else { return false }
                    return read(key, index, of: file, in: whole, use)
                }
            }
            return readOne(key, of: file, use)
        }
    }

    /// Item `key` read from `file` on its own, checked against its digest; false when it is not there
    /// or does not check out.
    private func readOne(_ key: UInt64, of file: KeptItems, _ use: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard let index = file.find(key) else { return false }
        let bytes = file.bytes(of: file.entry(at: index))
        // One turn of the lock: the read counted, and a sound item's use (held from its second).
        let readWhole: Bool = lock.withLock {
            fileReadCount += 1
            guard let bytes else { return false }
            countCopy(key)
            let readWhole = self.whole == nil && !readingWhole && fileReadCount >= wholeAfter && file.size <= wholeBudget
            if readWhole { readingWhole = true }
            if readOnce.insert(key).inserted { return readWhole }
            if checkedBytes + bytes.count <= checkedBudget, checked.updateValue(bytes, forKey: key) == nil {
                checkedBytes += bytes.count
            }
            return readWhole
        }
        if readWhole { readWholeFile(file) }
        guard let bytes else { return false }
        bytes.withUnsafeBufferPointer(use)
        return true
    }

    /// Entry `index` of `file` handed to `use` from the file read whole, checked first if it was
    /// not yet; false when it does not check out.
    private func read(_ key: UInt64, _ index: Int, of file: KeptItems, in whole: WholeFile,
                      _ use: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        let entry = file.entry(at: index)
        let checkedBefore: Bool = lock.withLock {
            guard whole.checked[index] else { return false }
            countCopy(key)
            return true
        }
        let item = UnsafeBufferPointer(rebasing: whole.bytes.buffer[entry.offset..<entry.offset + entry.length])
        if !checkedBefore {
            // Checked outside the lock: two threads may both check an item, and both find it sound.
            let found = KeptItems.isSound(UnsafeRawBufferPointer(item), entry)
            lock.withLock {
                fileReadCount += 1
                guard found else { return }
                whole.checked[index] = true
                countCopy(key)
            }
            guard found else { return false }
        }
        use(item)
        return true
    }

    /// Reads `file` whole (outside the lock: the other threads read items one by one meanwhile)
    /// and holds it in place of `checked`, unless the file was closed meanwhile.
    private func readWholeFile(_ file: KeptItems) {
        let bytes = WholeBytes(file, map: mapsWhole)
        lock.withLock {
            readingWhole = false
            guard let bytes, self.file === file else { return }
            whole = WholeFile(bytes: bytes, of: file)
            checked.removeAll()
            readOnce.removeAll()
            checkedBytes = 0
        }
    }

    /// An item copied by this build. Called with the lock held.
    private func countCopy(_ key: UInt64) {
        used.insert(key)
        copiedThisBuild += 1
    }

    /// Lets go of the file and what was read of it whole. Called with the lock held.
    private func closeFile() {
        file = nil
        whole = nil
        opened = false
    }

    /// The salt as the file records it.
    private static func digest(_ salt: String) -> UInt64 {
        var digest = DigestBuilder()
        digest.add(salt)
        return digest.value
    }

    /// The file, opened the first time it is asked for. Called with the lock held.
    private func openedFile() -> KeptItems? {
        if !opened {
            opened = true
            file = source.flatMap { KeptItems(path: $0.path, salt: $0.salt) }
        }
        return file
    }

    /// Keeps `bytes` as the item under `key`, within the budget.
    func keep(_ key: UInt64, _ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { keep(key, $0) }
    }

    func keep(_ key: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) {
        lock.withLock {
            guard fresh[key] == nil, bytes.count <= KeptItems.maxItemBytes else { return }
            if freshBytes + bytes.count > memoryBudget {
                guard dropsOldest else { return }
                dropOldest(toFit: bytes.count)
            }
            fresh[key] = Array(bytes)
            freshBytes += bytes.count
            if dropsOldest { keptOrder.append(key) }
            used.insert(key)
            keptThisBuild += 1
        }
    }

    /// Drops the items kept first until `count` more bytes fit. Called with the lock held.
    private func dropOldest(toFit count: Int) {
        while freshBytes + count > memoryBudget, keptOrderStart < keptOrder.count {
            freshBytes -= fresh.removeValue(forKey: keptOrder[keptOrderStart])?.count ?? 0
            keptOrderStart += 1
        }
        if keptOrderStart > keptOrder.count / 2 {
            keptOrder.removeFirst(keptOrderStart)
            keptOrderStart = 0
        }
    }

    /// Writes the items kept since the file was read, when there are enough of them: added at the
    /// file's end, or the file written anew (this build's items first, then the file's, up to
    /// the budget) when it has none yet or would hold too much no longer read.
    public func save(to path: String, salt: String) {
        let saltDigest = Self.digest(salt)
        lock.withLock {
            guard keptThisBuild >= saveThreshold, !fresh.isEmpty else { return }
            let old = openedFile().flatMap { $0.salt == saltDigest ? $0 : nil }
            let written: Bool
            if let old, old.liveBytes + freshBytes <= budget, old.size <= 2 * (old.liveBytes + freshBytes) + (1 << 20) {
                written = KeptItems.append(fresh, to: old, path: path)
            } else {
                written = KeptItems.write(fresh, old: old, used: used, budget: budget, salt: saltDigest, path: path)
            }
            if written {
                fresh.removeAll()
                lastUsed.removeAll()
                keptOrder.removeAll()
                keptOrderStart = 0
                freshBytes = 0
                closeFile()
                source = (path, saltDigest)
            }
        }
    }
}

/// The memo's file whole: mapped read-only where the system lets it (`mmap`), else read. Mapped,
/// its pages come from the system's cache of the file as they are first touched, neither zeroed
/// nor copied: the 57 MB file of a 10,000-post site took 62-84 ms to read into fresh memory on
/// this machine, 5-7 ms to map and touch (`edits.md`, fifty-second session). gramgen never
/// shortens the file (it appends to it, or writes a new one and renames it into place), and a
/// file shorter now than when it was opened is not mapped; each item is checked against its digest
/// before it is used, as read items are.
private final class WholeBytes {
    let buffer: UnsafeBufferPointer<UInt8>
    /// Whether `buffer` is a mapping (unmapped at the end) or memory of its own (freed).
    private let mapped: Bool

    init?(_ file: KeptItems, map: Bool) {
        let count = file.size
        var info = stat()
        if map, fstat(file.fd, &info) == 0, Int(info.st_size) >= count,
           let start = mmap(nil, count, PROT_READ, MAP_PRIVATE, file.fd, 0), start != MAP_FAILED {
            // Read ahead from a disk whose pages are not cached yet (on a tmpfs, nothing to do).
            _ = madvise(start, count, MADV_WILLNEED)
            buffer = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
            mapped = true
            return
        }
        // Not mapped (a system or file that does not allow it): read into memory of its own.
        let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count)
        guard KeptItems.read(file.fd, at: 0, into: memory) == count else {
            memory.deallocate()
            return nil
        }
        buffer = UnsafeBufferPointer(memory)
        mapped = false
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
        } else {
            UnsafeMutableBufferPointer(mutating: buffer).deallocate()
        }
    }
}

/// The memo's file as read whole (`FragmentMemo.whole`): its bytes, where each key's entry is
/// (a table of places by the key's low bits, probed in turn: the keys are digests, so one or two
/// probes find it, where searching the sorted table took a cache miss a step), and which entries
/// were found sound (read and written with the memo's lock held).
private final class WholeFile {
    let bytes: WholeBytes
    var checked: [Bool]
    /// Entry numbers, -1 for none; a power of two, at least twice the entries. Empty when an
    /// entry lay more than `maxProbes` places past its own (keys that are not spread, as in a
    /// file made to slow a build): then the sorted table is searched.
    private let places: [Int32]
    private static let maxProbes = 32

    init(bytes: WholeBytes, of file: KeptItems) {
        self.bytes = bytes
        checked = Array(repeating: false, count: file.count)
        var places = [Int32](repeating: -1, count: 1 << (Int.bitWidth - max(1, 2 * file.count - 1).leadingZeroBitCount))
        let mask = places.count - 1
        for index in 0..<file.count {
            var place = Int(truncatingIfNeeded: file.entry(at: index).key) & mask
            var probes = 0
            while places[place] >= 0 {
                place = (place + 1) & mask
                probes += 1
                if probes > Self.maxProbes {
                    self.places = []
                    return
                }
            }
            places[place] = Int32(index)
        }
        self.places = places
    }

    /// The number of `file`'s entry under `key`.
    func find(_ key: UInt64, in file: KeptItems) -> Int? {
        guard !places.isEmpty else { return file.find(key) }
        let mask = places.count - 1
        var place = Int(truncatingIfNeeded: key) & mask
        for _ in 0...Self.maxProbes {
            let index = places[place]
            guard index >= 0 else { return nil }
            if file.entry(at: Int(index)).key == key { return Int(index) }
            place = (place + 1) & mask
        }
        return nil
    }
}

/// The memo's file, open for reading (see `FragmentMemo`).
private final class KeptItems {
    struct Entry {
        let key: UInt64
        let offset: Int
        let length: Int
        let digest: UInt64
    }

    static let magic: UInt64 = 0x3167_6172_6647_4721  // "!GGfrag1"
    static let headerSize = 24, entrySize = 32, footerSize = 40
    /// Never more than this is read as a table (a million items).
    static let maxEntries = 1 << 20
    /// Nor as one item (a card is a few kilobytes).
    static let maxItemBytes = 1 << 20

    let fd: Int32
    let size: Int
    let salt: UInt64
    let tableOffset: Int
    /// The table as it is on disk: keys sorted, looked up in place.
    let table: [UInt8]
    let count: Int
    let liveBytes: Int

    /// Opens the file at `path` if it is a regular file with a sound table written with `salt`.
    init?(path: String, salt: UInt64) {
        guard !FileContainment.isLink(path) else { return nil }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) >= Self.headerSize + Self.footerSize,
              let footer = Self.read(fd, at: Int(info.st_size) - Self.footerSize, count: Self.footerSize) else {
            close(fd)
            return nil
        }
        let size = Int(info.st_size)
        let word = { (index: Int) in footer.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) } }
        let (tableOffset, count, tableDigest) = (Int(truncatingIfNeeded: word(0)), Int(truncatingIfNeeded: word(1)), word(2))
        guard word(4) == Self.magic, word(3) == salt, count >= 0, count <= Self.maxEntries, tableOffset >= Self.headerSize,
              tableOffset + count * Self.entrySize == size - Self.footerSize,
              let table = Self.read(fd, at: tableOffset, count: count * Self.entrySize),
              Self.digest(table) == tableDigest else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.size = size
        self.salt = salt
        self.tableOffset = tableOffset
        self.table = table
        self.count = count
        var live = 0
        for index in 0..<count {
            let entry = Self.entry(table, index)
            // Every item lies between the header and the table, keys in order.
            guard entry.offset >= Self.headerSize, entry.length >= 0, entry.length <= Self.maxItemBytes,
                  entry.offset + entry.length <= tableOffset,
                  index == 0 || Self.entry(table, index - 1).key < entry.key else {
                close(fd)
                return nil
            }
            live += entry.length
        }
        liveBytes = live
    }

    deinit { close(fd) }

    static func entry(_ table: [UInt8], _ index: Int) -> Entry {
        table.withUnsafeBytes { raw in
            let at = index * entrySize
            func word(_ n: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at + n * 8, as: UInt64.self)) }
            return Entry(key: word(0), offset: Int(truncatingIfNeeded: word(1)), length: Int(truncatingIfNeeded: word(2)), digest: word(3))
        }
    }

    /// The entry under `key`. The keys are digests, spread evenly over their 64 bits, so where a
    /// key lies between the keys at both ends of the range says where it is within a few places:
    /// a few such guesses, then halves (a table whose keys are not spread so still takes the
    /// halving's steps). Halving alone took 15 steps at 30,000 items, each a cache miss: the
    /// look-ups of a new post's 20,000 kept cards were 1% of its build.
    func find(_ key: UInt64) -> Int? {
        var (low, high) = (0, count)  // the entry, if any, is in low..<high
        var guesses = 0
        while low < high {
            let middle: Int
            if guesses < 4, high - low > 8 {
                guesses += 1
                let (first, last) = (Self.entry(table, low).key, Self.entry(table, high - 1).key)
                guard key >= first, key <= last else { return nil }
                // (key - first) / (last - first) of the places after `low` (a guess: a fraction
                // of them, never past the last).
                let fraction = last == first ? 0 : Double(key - first) / Double(last - first)
                middle = low + min(high - 1 - low, Int(fraction * Double(high - 1 - low)))
            } else {
                middle = (low + high) / 2
            }
            let entry = Self.entry(table, middle)
            if entry.key == key { return middle }
            if entry.key < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    func entry(at index: Int) -> Entry { Self.entry(table, index) }

    var entries: [Entry] { (0..<count).map { Self.entry(table, $0) } }

    /// Appends the item's bytes when they read back whole and match their digest.
    /// The entry's bytes, when they are what the table says.
    func bytes(of entry: Entry) -> [UInt8]? {
        guard let bytes = Self.read(fd, at: entry.offset, count: entry.length),
              bytes.withUnsafeBytes({ Self.isSound($0, entry) }) else { return nil }
        return bytes
    }

    /// Whether `item` is the entry's bytes, by their digest.
    static func isSound(_ item: UnsafeRawBufferPointer, _ entry: Entry) -> Bool {
        item.count == entry.length && BytesDigest.value(item) == entry.digest
    }

    static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var filled = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            filled = read(fd, at: offset, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
            initialized = filled
        }
        return filled == count ? bytes : nil
    }

    /// Reads from `offset` until `buffer` is full or the file ends; the bytes read.
    static func read(_ fd: Int32, at offset: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var filled = 0
        while filled < buffer.count {
            let got = pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset + filled))
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            filled += got
        }
        return filled
    }

    private static func words(_ values: UInt64...) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in values { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        return bytes
    }

    /// Each entry's four words stored in place: made as arrays of their own and appended, the
    /// 30,000 entries of a caption edit's table at 10,000 posts took 2.4% of its instructions.
    private static func tableAndFooter(_ entries: [Entry], at offset: Int, salt: UInt64) -> [UInt8] {
        let sorted = entries.sorted { $0.key < $1.key }
        var table = [UInt8](unsafeUninitializedCapacity: sorted.count * entrySize + footerSize) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            for (index, entry) in sorted.enumerated() {
                let at = index * entrySize
                raw.storeBytes(of: entry.key.littleEndian, toByteOffset: at, as: UInt64.self)
                raw.storeBytes(of: UInt64(entry.offset).littleEndian, toByteOffset: at + 8, as: UInt64.self)
                raw.storeBytes(of: UInt64(entry.length).littleEndian, toByteOffset: at + 16, as: UInt64.self)
                raw.storeBytes(of: entry.digest.littleEndian, toByteOffset: at + 24, as: UInt64.self)
            }
            count = sorted.count * entrySize
        }
        table += words(UInt64(offset), UInt64(entries.count), digest(table), salt, magic)
        return table
    }

    private static func digest(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { BytesDigest.value($0) } }

    /// `fresh` added at the end of `old`'s file, after its footer, then a table of all and a new
    /// footer: the file is sound before (the old footer is last) and after; cut short between,
    /// it is not read at all. False when it could not be written.
    static func append(_ fresh: [UInt64: [UInt8]], to old: KeptItems, path: String) -> Bool {
        guard !FileContainment.isLink(path) else { return false }
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat(), oldInfo = stat()
        // The very file that was read, unchanged since.
        guard fstat(fd, &info) == 0, fstat(old.fd, &oldInfo) == 0, info.st_ino == oldInfo.st_ino, info.st_dev == oldInfo.st_dev,
              Int(info.st_size) == old.size else { return false }
        var entries = old.entries.filter { fresh[$0.key] == nil }
        // Written a megabyte at a time: gathered whole, the items of a build that drew every card
        // again (a new gramgen's first build) were copied once more at the peak of its memory
        // (50 MB of a 194 MB peak at 10,000 posts).
        var data: [UInt8] = []
        data.reserveCapacity(Self.chunk)
        var at = old.size
        func flush() -> Bool {
            let done = data.withUnsafeBytes { raw in
                var written = 0
                while written < raw.count {
                    let count = pwrite(fd, raw.baseAddress! + written, raw.count - written, off_t(at + written))
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { return false }
                    written += count
                }
                return true
            }
            at += data.count
            data.removeAll(keepingCapacity: true)
            return done
        }
        for (key, bytes) in fresh {
            entries.append(Entry(key: key, offset: at + data.count, length: bytes.count, digest: digest(bytes)))
            data += bytes
            if data.count >= Self.chunk, !flush() { return false }
        }
        data += tableAndFooter(entries, at: at + data.count, salt: old.salt)
        return flush()
    }

    /// How much `append` gathers before it writes.
    static let chunk = 1 << 20

    /// The file written anew and renamed into place: `fresh` first, then `old`'s items this build
    /// used, then the rest of them, as long as the budget lasts.
    static func write(_ fresh: [UInt64: [UInt8]], old: KeptItems?, used: Set<UInt64>, budget: Int, salt: UInt64,
                      path: String) -> Bool {
        guard let writer = try? AtomicFile.Writer(path) else { return false }
        writer.append(words(magic, salt, 0))
        var offset = headerSize, total = 0
        var entries: [Entry] = []
        for (key, bytes) in fresh {
            writer.append(bytes)
            entries.append(Entry(key: key, offset: offset, length: bytes.count, digest: digest(bytes)))
            offset += bytes.count
            total += bytes.count
        }
        if let old {
            let rest = old.entries.filter { fresh[$0.key] == nil }
            for entry in rest.filter({ used.contains($0.key) }) + rest.filter({ !used.contains($0.key) }) {
                guard total + entry.length <= budget else { break }
                guard let bytes = old.bytes(of: entry) else { continue }
                writer.append(bytes)
                entries.append(Entry(key: entry.key, offset: offset, length: entry.length, digest: entry.digest))
                offset += entry.length
                total += entry.length
            }
        }
        writer.append(tableAndFooter(entries, at: offset, salt: salt))
        return (try? writer.commit()) != nil
    }
}
