import CFileSwap
import Foundation

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

    /// Every non-folder entry below `root` (relative paths, unsorted); nil when `root` is not a folder.
    /// With `follow`, links are followed (to files and folders) like the build reads them; a folder
    /// reached twice (a link loop) is listed once, and the walk stops 64 folders deep.
    ///
    /// With `threads` above 1 the top of the tree is listed first, then its subfolders are walked
    /// on that many threads, each from what the top listing saw (so the result does not depend on
    /// which thread took which folder; a folder linked from two of them is listed under both).
    ///
    /// A followed link to a folder is only walked when the folder lies inside `within` (a resolved
    /// path): a link to `/` in `content/` must not make the walk read the whole file system.
    ///
    /// With `listings`, a folder it holds a listing of is not read again (see `Listings`).
    ///
    /// A subfolder is opened by its name in its open parent (the kernel does not walk the whole
    /// path again) and never through a link it did not follow on purpose; a real folder is not
    /// stat'ed by name, as the listing says what it is and the open folder says which one it is
    /// (a third of the entries of `content/` and of an output are folders; with the whole-path
    /// opens, 0.66-0.85x the time of a walk of `content/` at 10,000 posts; `bench/edit_floor.c`
    /// walks the same way, in C).
    static func entries(_ root: String, follow: Bool, within: String? = nil, threads: Int = 1, listings: Listings? = nil) -> [Entry]? {
        var info = stat()
        guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        var result: [Entry] = []
        var seen: Set<[UInt64]> = []
        var now: [Folder]? = nil
        let top = Folder(path: root, name: "", prefix: "", depth: 0, viaLink: false, follows: true)
        let buffer = ReadBuffer()
        guard threads > 1 else {
            walk(top, parent: -1, buffer: buffer, follow: follow, within: within, listings: listings, seen: &seen, into: &result, deferring: &now)
            return result
        }
        // Breadth first until there are folders enough to share out.
        var pending = [top]
        while let first = pending.first, pending.count < threads * 8, first.depth < 3 {
            pending.removeFirst()
            var deferred: [Folder]? = []
            walk(first, parent: -1, buffer: buffer, follow: follow, within: within, listings: listings, seen: &seen, into: &result,
                 deferring: &deferred)
            pending += deferred ?? []
        }
        let lock = NSLock()
        var next = 0
        var found = [[Entry]](repeating: [], count: pending.count)
        let start = seen
        DispatchQueue.concurrentPerform(iterations: min(threads, max(1, pending.count))) { _ in
            while true {
                let index: Int = lock.withLock {
                    defer { next += 1 }
                    return next
                }
                guard index < pending.count else { return }
                let folder = pending[index]
                var seen = start, listing: [Entry] = [], now: [Folder]? = nil
                walk(folder, parent: -1, buffer: ReadBuffer(), follow: follow, within: within, listings: listings, seen: &seen, into: &listing,
                     deferring: &now)
                lock.withLock { found[index] = listing }
            }
        }
        for listing in found { result += listing }
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
        /// A link followed on purpose, or an entry of no type the listing told: opened as a link
        /// would be. Any other folder is opened only if it is still a folder, not a link.
        var follows = false
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
            /// The folder's device and inode (for the walk's loop check).
            var id: [UInt64]
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

    /// Lists `folder` (opened by its name in `parent` when that is an open folder, else by its
    /// path), then walks its subfolders (or appends them to `subfolders` when given). A folder
    /// already `seen` (by device and inode) is not listed again.
    private static func walk(_ folder: Folder, parent: Int32, buffer: ReadBuffer, follow: Bool, within: String?, listings: Listings?,
                             seen: inout Set<[UInt64]>, into result: inout [Entry], deferring subfolders: inout [Folder]?) {
        guard folder.depth < 64 else { return }
        var found: [Folder] = []
        var fd: Int32 = -1
        defer { if fd >= 0 { close(fd) } }
        if !folder.viaLink, let kept = listings?.listing(folder.prefix) {
            guard seen.insert(kept.id).inserted else { return }
            result += kept.entries
            listings?.keep(folder.prefix, kept)
            for name in kept.subfolders {
                found.append(Folder(path: folder.path + "/" + name, name: name, prefix: folder.prefix + name + "/",
                                    depth: folder.depth + 1, viaLink: false))
            }
        } else {
            fd = opened(folder, parent: parent, into: &result)
            var info = stat()
            guard fd >= 0, fstat(fd, &info) == 0 else { return }
            let id = [UInt64(info.st_dev), UInt64(info.st_ino)]
            guard seen.insert(id).inserted else { return }
            list(folder, fd, id: id, buffer: buffer, follow: follow, within: within, listings: listings, into: &result, subfolders: &found)
        }
        for sub in found {
            if subfolders != nil {
                subfolders!.append(sub)
            } else {
                walk(sub, parent: fd, buffer: buffer, follow: follow, within: within, listings: listings, seen: &seen, into: &result,
                     deferring: &subfolders)
            }
        }
    }

    /// Opens `folder` for reading: by its name in `parent` when that is open, else by its path;
    /// never through a link it did not mean to follow (one put in a folder's place since the
    /// listing). -1 when it cannot be opened; one that may not be read is listed as unreadable.
    private static func opened(_ folder: Folder, parent: Int32, into result: inout [Entry]) -> Int32 {
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | (folder.follows ? 0 : O_NOFOLLOW)
        let fd = parent >= 0 ? openat(parent, folder.name, flags) : open(folder.path, flags)
        if fd < 0, errno == EACCES {
            result.append(Entry(path: String(folder.prefix.dropLast()), size: -1, modified: -1, isRegular: false, unreadable: true))
        }
        return fd
    }

    /// Reads the open `folder`: its entries into `result`, its subfolders into `found`.
    private static func list(_ folder: Folder, _ fd: Int32, id: [UInt64], buffer: ReadBuffer, follow: Bool, within: String?,
                             listings: Listings?, into result: inout [Entry], subfolders found: inout [Folder]) {
        listings?.counted()
        let start = result.count
        var names: [String] = []
        var linked = folder.viaLink
        while true {
            let got = gg_read_folder(fd, buffer.bytes, UInt(ReadBuffer.size))
            guard got > 0 else { break }
            var offset = 0
            while offset < got {
                // One record: inode, offset, length (2 bytes), type (1 byte), the name and a zero byte.
                let record = buffer.bytes + offset
                offset += Int(record.loadUnaligned(fromByteOffset: 16, as: UInt16.self))
                let type = record.load(fromByteOffset: 18, as: UInt8.self)
                let cName = (record + 19).assumingMemoryBound(to: CChar.self)
                // By the name's own bytes: one that is not UTF-8 reads with U+FFFD in it, and is listed so.
                let name = String(decoding: UnsafeRawBufferPointer(start: record + 19, count: strlen(cName)), as: UTF8.self)
                if name == "." || name == ".." { continue }
                var info = stat()
                // Relative to the open folder: the kernel does not walk the whole path again.
                if type != UInt8(DT_DIR), fstatat(fd, cName, &info, follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0 { continue }
                let kind = type == UInt8(DT_DIR) ? S_IFDIR : info.st_mode & S_IFMT
                // A link, an entry whose type the file system does not tell, or a file with another
                // name (a hard link, written through with no event here): the listing is not kept.
                if type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) || (kind != S_IFDIR && info.st_nlink > 1) { linked = true }
                if kind == S_IFDIR, isMisread(name) {
                    // Not opened (its name as read is not its name): listed, so it is seen.
                    result.append(Entry(path: folder.prefix + name, size: -1, modified: -1, isRegular: false))
                } else if kind == S_IFDIR {
                    // A real folder (the listing says so: no stat) is inside; a link is resolved.
                    if follow, let within, type != UInt8(DT_DIR), !isInside(folder.path + "/" + name, within) { continue }
                    if listings != nil { names.append(name) }
                    found.append(Folder(path: folder.path + "/" + name, name: name, prefix: folder.prefix + name + "/",
                                        depth: folder.depth + 1, viaLink: folder.viaLink || type != UInt8(DT_DIR),
                                        follows: follow && type != UInt8(DT_DIR)))
                } else {
                    result.append(Entry(path: folder.prefix + name, size: Int64(info.st_size),
                                        modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                                        isRegular: kind == S_IFREG, isLink: type == UInt8(DT_LNK),
                                        changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
                                        inode: UInt64(info.st_ino)))
                }
            }
        }
        if !linked { listings?.keep(folder.prefix, Listings.Listing(id: id, entries: Array(result[start...]), subfolders: names)) }
    }

    /// Whether a folder reached through links resolves inside `root`; asked only for links.
    private static func isInside(_ path: String, _ root: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return true }
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        let real = String(cString: resolved)
        return real == root || real.hasPrefix(root == "/" ? "/" : root + "/")
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
