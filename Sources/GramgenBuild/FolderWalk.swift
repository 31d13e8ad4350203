import CFileSwap
import Foundation
import GramgenCore

/// Lists a folder tree with getdents64 and one stat per entry that is not a folder — the
/// up-to-date check walks tens of thousands of files on every build, and Foundation's enumerator
/// costs several times more.
enum FolderWalk {
    struct Entry {
        var path: String
        var size: Int64
        var modified: Int64
        var isRegular: Bool
        /// The entry itself is a link (followed or not).
        var isLink = false
        /// Change time (ns) and inode, of the link's target when it was followed.
        var changed: Int64 = 0
        var inode: UInt64 = 0
        /// A folder the walk could not open for want of permission (`path` is the folder's).
        var unreadable = false

        /// Size, times and inode: what says a file is the same one as before.
        var stamp: [Int64] {
            var stamp: [Int64] = []
            appendStamp(to: &stamp)
            return stamp
        }

        /// Adds `stamp` to `numbers` without making an array of its own.
        func appendStamp(to numbers: inout [Int64]) {
            numbers.append(size)
            numbers.append(modified)
            numbers.append(changed)
            numbers.append(Int64(bitPattern: inode))
        }
    }

    /// A name that is not UTF-8 is listed with U+FFFD in its place (two such names can read alike);
    /// a real U+FFFD reads so too, and is treated the same.
    static func isMisread(_ path: String) -> Bool {
        path.hasByte(0xEF) && path.unicodeScalars.contains("\u{FFFD}")
    }

    /// A folder's device and inode: which folder it is, whatever it is called.
    struct FolderID: Hashable {
        let device: UInt64
        let inode: UInt64

        init(device: UInt64, inode: UInt64) {
            (self.device, self.inode) = (device, inode)
        }

        /// The open folder's.
        init?(_ fd: Int32) {
            var info = stat()
            guard fstat(fd, &info) == 0 else { return nil }
            (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino))
        }
    }

    /// How deep a walk goes: `static/` may be nested 32 folders deep (`StaticFiles`), `content/` is
    /// read 16 deep (`NameCheck`). A path holds at most this many names, so an entry's path, and
    /// the memory a walk takes for each file, stay bounded (8 KB) however deep a tree is made.
    static let maxDepth = 32

    /// Every non-folder entry below `root` (relative paths, unsorted); nil when `root` is not a folder.
    /// With `follow`, links are followed (to files and folders) like the build reads them, and the
    /// walk stops `maxDepth` folders deep.
    ///
    /// Links to folders are followed after the tree of real folders was walked, round by round
    /// (the links the last round found, sorted by path), and a folder is listed once, the first
    /// time it is met: under its own path when the tree holds it, else under the first link's.
    /// So a link loop ends, a folder that a thousand links lead to is read once, and the result
    /// does not depend on how many threads walked or which took which folder.
    ///
    /// With `threads` above 1 the top of the tree is listed first, then its subfolders are walked
    /// on that many threads.
    ///
    /// A followed link to a folder is only walked when the folder it opened lies inside `within`
    /// (a resolved path; asked of the open folder, so a link changed meanwhile cannot lead out): a
    /// link to `/` in `content/` must not make the walk read the whole file system.
    ///
    /// With `listings`, a folder it holds a listing of is not read again (see `Listings`).
    ///
    /// Every folder but the root and a link's is opened by its name in its open parent (the
    /// kernel does not walk the whole path again), never through a link: a folder swapped for a
    /// link during the walk is not followed. A real folder is not stat'ed by name, as the listing
    /// says what it is and the open folder says which one it is (a third of the entries of
    /// `content/` and of an output are folders; with the whole-path opens, 0.66-0.85x the time of
    /// a walk of `content/` at 10,000 posts; `bench/edit_floor.c` walks the same way, in C).
    ///
    /// A folder that could not be read whole (no permission, an error of the disk, too many open
    /// files) is listed as `unreadable`: the walk never passes for complete when it is not.
    static func entries(_ root: String, follow: Bool, within: String? = nil, threads: Int = 1, listings: Listings? = nil) -> [Entry]? {
        var info = stat()
        guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        let walker = Walker(follow: follow, within: within, listings: listings)
        var result: [Entry] = []
        var seen: Set<FolderID> = []
        var links: [Folder] = []
        let top = Folder(path: root, name: "", prefix: "", depth: 0, viaLink: false)
        let buffer = ReadBuffer()
        if threads > 1 {
            // Breadth first until there are folders enough to share out; each keeps its parent
            // open, to be opened in it.
            var pending = [top]
            while let first = pending.first, pending.count < threads * 8, first.depth < 3 {
                pending.removeFirst()
                var deferred: [Folder]? = []
                walker.walk(first, parent: -1, buffer: buffer, seen: &seen, into: &result, links: &links, deferring: &deferred)
                pending += deferred ?? []
            }
            let lock = NSLock()
            var next = 0
            var found = [(entries: [Entry], seen: Set<FolderID>, links: [Folder])](repeating: ([], [], []), count: pending.count)
            let start = seen
            DispatchQueue.concurrentPerform(iterations: min(threads, max(1, pending.count))) { _ in
                let buffer = ReadBuffer()
                while true {
                    let index: Int = lock.withLock {
                        defer { next += 1 }
                        return next
                    }
                    guard index < pending.count else { return }
                    var seen = start, listing: [Entry] = [], links: [Folder] = [], now: [Folder]? = nil
                    walker.walk(pending[index], parent: -1, buffer: buffer, seen: &seen, into: &listing, links: &links, deferring: &now)
                    lock.withLock { found[index] = (listing, seen, links) }
                }
            }
            pending = []  // their parents closed
            for part in found { result += part.entries }
            links += found.flatMap(\.links)
            // The real folders every thread met, so that no link lists one again.
            if !links.isEmpty { for part in found { seen.formUnion(part.seen) } }
        } else {
            var now: [Folder]? = nil
            walker.walk(top, parent: -1, buffer: buffer, seen: &seen, into: &result, links: &links, deferring: &now)
        }
        while !links.isEmpty {
            let round = links.sorted { $0.prefix < $1.prefix }
            links = []
            var now: [Folder]? = nil
            for link in round {
                walker.walk(link, parent: -1, buffer: buffer, seen: &seen, into: &result, links: &links, deferring: &now)
            }
        }
        return result
    }

    private struct Folder {
        var path: String
        /// Its name in its parent folder ("" for the root).
        var name: String
        var prefix: String
        var depth: Int
        /// Reached through a link to a folder: what it holds may change with no event in it.
        var viaLink: Bool
        /// A link followed on purpose: opened by its path, through it, and walked only when the
        /// folder it opened is inside `within`. Any other folder but the root is opened in its
        /// parent, and only if it is still a folder, not a link.
        var link = false
        /// Its parent, kept open for it when it was handed to another thread (closed when the last
        /// of those lets go).
        var parent: OpenFolder? = nil
    }

    /// What a walk found in each folder, for the next walk of the same tree by a process that is
    /// told which folders changed since (`gramgen serve`, by inotify: `FolderChanges`): a folder
    /// with no change is taken from here instead of being read and each of its entries stat'ed
    /// (30,000 stats, the largest part of a rebuild's up-to-date check at 10,000 posts). Only a
    /// folder reached without links and holding none, and no file with a second name (a hard
    /// link), is kept: a link's target, or a file written through its other name, can change with
    /// no event in the folder that holds the link.
    final class Listings: @unchecked Sendable {
        struct Listing {
            /// Which folder it is (for the walk's loop check).
            var id: FolderID
            var entries: [Entry]
            /// Subfolders by name.
            var subfolders: [String]
        }

        private var kept: [String: Listing] = [:]
        private var made: [String: Listing] = [:]
        private let lock = NSLock()
        /// Folders the last walk read from disk.
        private(set) var read = 0

        /// Before a walk: forgets the listings of the `changed` folders (by prefix, as `Entry.path`
        /// starts: "" for the root, "users/ana/" below it), or every listing when nil (unknown).
        func begin(changed: Set<String>?) {
            read = 0
            guard let changed else { return kept = [:] }
            for prefix in changed { kept[prefix] = nil }
        }

        /// After a walk: what it found is what the next one starts from.
        func finish() {
            kept = made
            made = [:]
        }

        func forget() {
            kept = [:]
            made = [:]
        }

        /// Read during a walk, from any thread (nothing changes `kept` meanwhile).
        fileprivate func listing(_ prefix: String) -> Listing? { kept[prefix] }

        fileprivate func keep(_ prefix: String, _ listing: Listing) {
            lock.withLock { made[prefix] = listing }
        }

        fileprivate func counted() {
            lock.withLock { read += 1 }
        }
    }

    /// Where a walk's thread reads folders' entries to (each folder is read whole before its
    /// subfolders are walked, so one is enough).
    private final class ReadBuffer {
        static let size = 32768
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        deinit { bytes.deallocate() }
    }

    /// What a walk is asked for, shared by its threads.
    private struct Walker: @unchecked Sendable {
        let follow: Bool
        let within: String?
        let listings: Listings?

        /// Lists `folder` (opened by its name in its open parent, by its path when it is the root or
        /// a link), then walks its subfolders (or appends them to `subfolders` when given), and
        /// appends the links to folders it holds to `links`. A folder already `seen` is not listed again.
        func walk(_ folder: Folder, parent: Int32, buffer: ReadBuffer, seen: inout Set<FolderID>, into result: inout [Entry],
                  links: inout [Folder], deferring subfolders: inout [Folder]?) {
            guard folder.depth < maxDepth else { return }
            let parent = folder.parent?.descriptor ?? parent
            var found: [Folder] = []
            var fd: Int32 = -1
            defer { if fd >= 0 { close(fd) } }
            var kept = folder.viaLink ? nil : listings?.listing(folder.prefix)
            if let listing = kept, !listing.subfolders.isEmpty {
                // Its subfolders are opened in it; one that is no longer the folder listed is read anew.
                fd = opened(folder, parent: parent, into: &result)
                guard fd >= 0 else { return }
                if FolderID(fd) != listing.id { kept = nil }
            }
            if let listing = kept {
                guard seen.insert(listing.id).inserted else { return }
                result += listing.entries
                listings?.keep(folder.prefix, listing)
                for name in listing.subfolders {
                    found.append(Folder(path: folder.path + "/" + name, name: name, prefix: folder.prefix + name + "/",
                                        depth: folder.depth + 1, viaLink: false))
                }
            } else {
                if fd < 0 { fd = opened(folder, parent: parent, into: &result) }
                guard fd >= 0, let id = FolderID(fd) else { return }
                if folder.link, let within, !FileContainment.isInside(descriptor: fd, path: folder.path, within) { return }
                guard seen.insert(id).inserted else { return }
                list(folder, fd, id: id, buffer: buffer, into: &result, subfolders: &found, links: &links)
            }
            if subfolders != nil {
                guard !found.isEmpty else { return }
                let open = OpenFolder(descriptor: fd, path: folder.path)
                fd = -1  // closed by `open`, once its subfolders were walked
                subfolders! += found.map { sub in
                    var sub = sub
                    sub.parent = open
                    return sub
                }
                return
            }
            for sub in found {
                walk(sub, parent: fd, buffer: buffer, seen: &seen, into: &result, links: &links, deferring: &subfolders)
            }
        }

        /// Opens `folder` for reading: by its name in `parent` when that is open, else by its path;
        /// never through a link it did not mean to follow (one put in a folder's place since the
        /// listing). -1 when it cannot be opened; one that is there but could not be opened is
        /// listed as unreadable.
        private func opened(_ folder: Folder, parent: Int32, into result: inout [Entry]) -> Int32 {
            let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | (folder.link || folder.depth == 0 ? 0 : O_NOFOLLOW)
            let fd = parent >= 0 ? openat(parent, folder.name, flags) : open(folder.path, flags)
            // Gone, or no longer a folder, since it was listed: nothing to list.
            if fd < 0, errno != ENOENT, errno != ENOTDIR { result.append(unreadable(folder)) }
            return fd
        }

        private func unreadable(_ folder: Folder) -> Entry {
            Entry(path: String(folder.prefix.dropLast()), size: -1, modified: -1, isRegular: false, unreadable: true)
        }

        /// Reads the open `folder`: its entries into `result`, its subfolders into `found`, the
        /// links to folders it holds into `links`.
        private func list(_ folder: Folder, _ fd: Int32, id: FolderID, buffer: ReadBuffer, into result: inout [Entry],
                          subfolders found: inout [Folder], links: inout [Folder]) {
            listings?.counted()
            let start = result.count
            var names: [String] = []
            var linked = folder.viaLink
            reading: while true {
                let got = gg_read_folder(fd, buffer.bytes, UInt(ReadBuffer.size))
                if got == 0 { break }
                guard got > 0 else {
                    if errno == EINTR { continue }
                    result.append(unreadable(folder))
                    linked = true  // not kept: read again next time
                    break
                }
                var offset = 0
                while offset < got {
                    // One record: inode, offset, length (2 bytes), type (1 byte), the name and a zero byte.
                    let record = buffer.bytes + offset
                    let length = Int(record.loadUnaligned(fromByteOffset: 16, as: UInt16.self))
                    guard length > 19, offset + length <= got else {
                        result.append(unreadable(folder))
                        linked = true
                        break reading
                    }
                    offset += length
                    let type = record.load(fromByteOffset: 18, as: UInt8.self)
                    let cName = (record + 19).assumingMemoryBound(to: CChar.self)
                    let nameBytes = UnsafeRawBufferPointer(start: record + 19, count: strnlen(cName, length - 19))
                    if nameBytes.count <= 2, nameBytes.allSatisfy({ $0 == UInt8(ascii: ".") }) { continue }  // "." and ".."
                    var info = stat()
                    var isLink = type == UInt8(DT_LNK)
                    // Relative to the open folder: the kernel does not walk the whole path again.
                    if type == UInt8(DT_UNKNOWN) {
                        // A file system that does not tell the type: what the entry itself is, then
                        // what a link leads to.
                        guard fstatat(fd, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                        isLink = info.st_mode & S_IFMT == S_IFLNK
                        if isLink, follow, fstatat(fd, cName, &info, 0) != 0 { continue }
                    } else if type != UInt8(DT_DIR), fstatat(fd, cName, &info, follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0 {
                        continue
                    }
                    let kind = type == UInt8(DT_DIR) ? S_IFDIR : info.st_mode & S_IFMT
                    // A link, or a file with another name (a hard link, written through with no event
                    // here): the listing is not kept.
                    if isLink || (kind != S_IFDIR && info.st_nlink > 1) { linked = true }
                    // By the name's own bytes: one that is not UTF-8 reads with U+FFFD in it, and is listed so.
                    let name = kind == S_IFDIR ? String(decoding: nameBytes, as: UTF8.self) : ""
                    if kind == S_IFDIR, isMisread(name) {
                        // Not opened (its name as read is not its name): listed, so it is seen.
                        result.append(Entry(path: Self.joined(folder.prefix, nameBytes), size: -1, modified: -1, isRegular: false))
                    } else if kind == S_IFDIR {
                        let sub = Folder(path: Self.joined(folder.path, nameBytes, before: UInt8(ascii: "/")), name: name,
                                         prefix: Self.joined(folder.prefix, nameBytes, after: UInt8(ascii: "/")),
                                         depth: folder.depth + 1, viaLink: folder.viaLink || isLink, link: isLink)
                        if isLink {
                            links.append(sub)  // after the tree of real folders
                        } else {
                            if listings != nil { names.append(name) }
                            found.append(sub)
                        }
                    } else {
                        result.append(Entry(path: Self.joined(folder.prefix, nameBytes), size: Int64(info.st_size),
                                            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                                            isRegular: kind == S_IFREG, isLink: isLink,
                                            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
                                            inode: UInt64(info.st_ino)))
                    }
                }
            }
            if !linked { listings?.keep(folder.prefix, Listings.Listing(id: id, entries: Array(result[start...]), subfolders: names)) }
        }

        /// `head`, then `before` (when given), the entry's name as read and `after`, as one text made
        /// at once, as `String(decoding:)` reads the name (a name that is not UTF-8 reads with
        /// U+FFFD in it). Made as `head + name` (a name decoded, then the two joined into a third
        /// text), the 30,000 entries of a walk of 10,000 posts took 2.5% of a caption edit.
        private static func joined(_ head: String, _ name: UnsafeRawBufferPointer, before: UInt8? = nil, after: UInt8? = nil) -> String {
            var head = head
            return head.withUTF8 { head in
                let count = head.count + (before == nil ? 0 : 1) + name.count + (after == nil ? 0 : 1)
                return String(unsafeUninitializedCapacity: count) { buffer in
                    var at = buffer.initialize(fromContentsOf: head)
                    if let before { buffer[at] = before; at += 1 }
                    at = UnsafeMutableBufferPointer(rebasing: buffer[at...]).initialize(fromContentsOf: name) + at
                    if let after { buffer[at] = after; at += 1 }
                    return at
                }
            }
        }
    }
}

/// Which folders of the site changed since the last build, as a watcher that sees every change
/// tells them (`gramgen serve`'s inotify watcher): the next build's walk of `content/` reads only
/// those again (`FolderWalk.Listings`). Unknown (every folder is read) until a watcher is
/// attached, at the first build, after events were lost, and for good once a folder could not be
/// watched.
public final class FolderChanges: @unchecked Sendable {
    private let lock = NSLock()
    private var folders: Set<String> = []
    private var attached = false
    private var known = false
    private var blind = false
    private var endedBursts = 0

    public init() {}

    /// A watcher will tell every change from now on.
    public func attach() {
        lock.withLock { attached = true }
    }

    /// Something in the folder at `path` (relative to the site folder) changed, or the folder is
    /// new to the watcher (what happened in it before it was watched is not known).
    public func changed(_ path: String) {
        lock.withLock { _ = folders.insert(path) }
    }

    /// A burst of changes ended (the watcher is about to signal the rebuild).
    public func burstEnded() {
        lock.withLock { endedBursts += 1 }
    }

    /// Bursts ended so far (tests wait on it: the rebuild loop's signal needs a free task thread).
    var bursts: Int { lock.withLock { endedBursts } }

    /// Events were lost: the next build reads every folder.
    public func lost() {
        lock.withLock { known = false }
    }

    /// A folder could not be watched: every build reads every folder.
    public func unwatched() {
        lock.withLock { blind = true }
    }

    /// The folders that changed since the last call (relative to the site folder), or nil when
    /// that is not known.
    func take() -> Set<String>? {
        lock.withLock {
            defer {
                folders = []
                known = true
            }
            return attached && !blind && known ? folders : nil
        }
    }
}
