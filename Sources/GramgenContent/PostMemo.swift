import Foundation
import GramgenCore

/// Posts as the last load left them, for a process that loads the same site again and again
/// (`gramgen serve`): a post whose folder is exactly as it was is not read and parsed again.
///
/// "Exactly as it was" is the folder's `stamp`: the folder's own identity and times, and every
/// entry in it by name, with what `lstat` says of it: kind, size, inode, modification and change
/// times. A write, a rename, a new or removed file: each moves one of them. A post reached through
/// a link, or holding one, is never kept: whether its files are inside the site depends on folders
/// elsewhere, which its stamp does not see, so it is read (and checked) anew each time. The stamp is taken before the post is read, so a file
/// saved while it is read is read again next time. The loaded post depends on the configuration
/// and the site's handles too (`Context`); when either differs, nothing is reused. Only the posts
/// of the last load are kept, so the memo is as large as the site, no larger.
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

    private let lock = NSLock()
    private var context: Context?
    private var entries: [String: Entry] = [:]
    private var next: [String: Entry] = [:]
    /// Each post folder's stamp from a walk of `content/` made just before (`use(listing:)`), for
    /// the next load only.
    private var listed: [String: [Int64]]?
    /// Posts taken from the memo by the last load, and read anew.
    public private(set) var reused = 0
    public private(set) var read = 0

    public init() {}

    /// Stamps of the post folders by `users/<handle>/posts/<id>`, taken from a walk of `content/`
    /// that has just been made (the up-to-date check's): the next load looks at no folder again.
    /// A folder missing from it is read anew.
    public func use(listing: [String: [Int64]]) {
        lock.withLock { listed = listing }
    }

    /// The stamp of the post folder `folder` (at `path`): from the listing, or read now.
    func stamp(of folder: String, at path: String) -> [Int64]? {
        if let listed = lock.withLock({ listed }) { return listed[folder] }
        return Self.stamp(ofFolderAtPath: path)
    }

    /// Starts a load: what was kept is usable only with the same context.
    func begin(_ context: Context) {
        lock.withLock {
            if self.context != context { entries = [:] }
            self.context = context
            next = [:]
            next.reserveCapacity(entries.count)
            reused = 0
            read = 0
        }
    }

    /// The post as loaded last time, when its folder's stamp is the same.
    func lookup(_ folder: String, stamp: [Int64]) -> Entry? {
        lock.withLock {
            guard let entry = entries[folder], entry.stamp == stamp else { return nil }
            next[folder] = entry
            reused += 1
            return entry
        }
    }

    func remember(_ folder: String, _ entry: Entry) {
        lock.withLock {
            next[folder] = entry
            read += 1
        }
    }

    /// Ends a load: only the posts it saw are kept.
    func finish() {
        lock.withLock {
            entries = next
            next = [:]
            listed = nil
        }
    }

    /// Forgets everything (after a load that could not finish).
    public func clear() {
        lock.withLock {
            entries = [:]
            next = [:]
            listed = nil
            context = nil
        }
    }

    /// The folder's identity and times and each entry's, sorted by name; nil when it cannot be
    /// read, is a link or holds one.
    static func stamp(ofFolderAtPath path: String) -> [Int64]? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        var stamp = fields(info)
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        names.sort { $0.lexicographicallyPrecedes($1) }
        for name in names {
            append(name, to: &stamp)
            let cName = name.map { CChar(bitPattern: $0) } + [0]
            var info = stat()
            guard fstatat(dirfd(dir), cName, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT != S_IFLNK else {
                return nil
            }
            stamp += fields(info)
        }
        return stamp
    }

    /// Adds a name to a stamp: its length, then its bytes eight to a number.
    public static func append<Name: Collection>(_ name: Name, to stamp: inout [Int64]) where Name.Element == UInt8 {
        stamp.append(Int64(name.count))
        var word: Int64 = 0, shift: Int64 = 0
        for byte in name {
            word |= Int64(byte) << shift
            shift += 8
            if shift == 64 { stamp.append(word); word = 0; shift = 0 }
        }
        if shift > 0 { stamp.append(word) }
    }

    private static func fields(_ info: stat) -> [Int64] {
        [Int64(info.st_mode), Int64(info.st_size), Int64(bitPattern: UInt64(info.st_dev)), Int64(bitPattern: UInt64(info.st_ino)),
         Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec)]
    }
}
