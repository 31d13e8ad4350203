import Foundation
import GramgenCore

/// What the last build left in an output folder: for each file, the digest of the inputs it was
/// made from (pages and feeds), the digest of its bytes, and its identity on disk. The next build
/// takes over a file only when both digests allow it and the file is still exactly the one written
/// (same inode, size and modification time), so a hand-edited output file is never trusted.
struct OutputManifest: Sendable {
    struct Entry: Sendable, Equatable {
        var inputs: Made
        /// The digest of its bytes (`BytesDigest`); nil for a file placed as it is.
        var content: UInt64?
        var size: Int64
        var modified: Int64
        var inode: UInt64

        /// Whether the file of this identity is the one recorded.
        func describes(_ identity: FileIdentity) -> Bool {
            identity.size == size && identity.modified == modified && identity.inode == inode
        }

        /// A static or media file as placed (`Made.placed`).
        static func placed(_ identity: FileIdentity) -> Entry {
            Entry(inputs: .placed, content: nil, size: identity.size, modified: identity.modified, inode: identity.inode)
        }
    }

    /// What a file was made from. Digests are kept as numbers, not text: each of a big site's
    /// entries (60,000 at 10,000 posts, in three tables of every build) then holds no string
    /// but its path, where two 16-digit texts were two allocations each.
    enum Made: Hashable, Sendable {
        /// A page or feed drawn from inputs of this digest (`PageDigests`).
        case inputs(UInt64)
        /// A file made again by every build (the theme's assets, the output's marker).
        case always
        /// A static or media file placed as it is: never reused as a page.
        case placed
        /// A page left as an earlier build drew it, to be drawn again (`FastRender`): no page's
        /// inputs are this, so the next build draws it.
        case later
    }

    var entries = Table()
    /// Lists static and media files too, not only pages and feeds: every file the build wrote
    /// (what a spare folder's manifest must say to be used).
    var listsEverything = false
    /// `.swap`: the stamp (`UpToDateCheck.folderStamp`) of the folder's `media/` as the build
    /// that filled it left it, last of all it did there. A build that later takes this folder as
    /// its spare and finds `media/` with the same stamp knows no name in it was added, removed
    /// or replaced since (each changes the folder's times), so it takes the media files this
    /// lists without a look at each (33,000 at 10,000 posts). A media file changed in place,
    /// keeping its name, is not seen, as in the no-op check of the output (`folderStamp`); most
    /// often it is another name of the cache's file, which the build would link again anyway.
    var mediaStamp: String?
    /// The media files' entries (`media/<name>`) as the file held them, not read one by one yet
    /// (`readMedia` puts them in `entries`): a swapping build that publishes the very media files
    /// its spare holds (most edits: `Publisher.finish`) takes them over as this section whole,
    /// and neither reads, looks up nor writes 33,000 entries (at 10,000 posts) one by one.
    private(set) var unreadMedia = MediaSection()

    struct MediaSection: Sendable {
        /// The entries as written (`save`): name, size, modified, inode each; checked when read.
        var bytes: ArraySlice<UInt8> = []
        var count = 0
        /// `DigestBuilder.unordered` of their names.
        var names: UInt64 = 0
    }

    /// Puts the unread media entries in `entries`; false (and none) when they are damaged.
    @discardableResult
    mutating func readMedia() -> Bool {
        guard unreadMedia.count > 0 else { return true }
        defer { unreadMedia = MediaSection() }
        var reader = ByteReader(Array(unreadMedia.bytes))
        // Into a copy, kept only when the whole section reads: a damaged one adds none of its entries.
        var read = entries
        read.reserveCapacity(entries.count + unreadMedia.count)
        var path = Array("media/".utf8)
        let prefix = path.count
        do {
            for _ in 0..<unreadMedia.count {
                try reader.withStringBytes { name in
                    guard Self.isPlain(name), !name.contains(UInt8(ascii: "/")) else { throw ByteReader.Malformed() }
                    path.removeSubrange(prefix...)
                    path.append(contentsOf: name)
                }
                let size: Int64 = try reader.int(), modified: Int64 = try reader.int(), inode: Int64 = try reader.int()
                let entry = Entry.placed(FileIdentity(size: size, modified: modified, inode: UInt64(bitPattern: inode)))
                path.withUnsafeBufferPointer { _ = read.update(entry, forKey: $0) }
            }
            guard reader.isAtEnd else { throw ByteReader.Malformed() }
        } catch {
            return false
        }
        entries = read
        return true
    }

    /// Lets go of the unread media entries: for a manifest whose media files are never asked for
    /// (a swapping build takes the spare's, `Publisher`), 12 MB at 100,000 posts.
    mutating func forgetUnreadMedia() {
        unreadMedia = MediaSection()
    }

    /// Takes `other`'s unread media entries as this manifest's (which has none of its own).
    mutating func takeMedia(of other: OutputManifest) {
        unreadMedia = other.unreadMedia
    }

    /// Every file it lists, its unread media files too.
    var count: Int { entries.count + unreadMedia.count }
    /// Held in memory by the process that wrote every file it lists, into a folder nobody else
    /// writes (`gramgen serve`'s, see `BuildMemory`): its files are taken as they are, unlooked at.
    var trusted = false
    /// The format's name, first in the file: a manifest of an older gramgen (text) is not read,
    /// and its output is then made again whole, once.
    private static let magic = "gramgen files 5"

    /// The up-to-date record's mark of a build that left pages for later (`BuildPipeline`).
    static let drawLater = "later"

    /// A binary record (`ByteWriter`): whether it lists everything, the media folder's stamp, then
    /// each file but the media files: path, inputs, content, size, modified (ns), inode; then the
    /// media files (`unreadMedia`): the digest of their names, their count, the section's length
    /// and each one's name, size, modified, inode. Read whole or not at all: a file cut short or
    /// damaged gives an empty manifest, so nothing in the output is taken over (every page is
    /// drawn, every file placed again). Read as any input is: a regular file, bounded, never
    /// waited on (a FIFO in its place). A one-off build reads two of them and writes one: as text
    /// (60,000 lines at 10,000 posts) they cost a tenth of a caption edit's build.
    static func load(_ url: URL) -> OutputManifest {
        guard case .success(let bytes) = InputFile.readBytes(atPath: url.path, limit: maxBytes) else { return OutputManifest() }
        var reader = ByteReader(bytes)
        return (try? decode(&reader)) ?? OutputManifest()
    }

    /// 1 GiB: about 2,000,000 files (a site of 300,000 posts).
    static let maxBytes = 1 << 30

    private static func decode(_ reader: inout ByteReader) throws -> OutputManifest {
        guard try reader.string() == magic else { throw ByteReader.Malformed() }
        var manifest = OutputManifest()
        manifest.listsEverything = try reader.bool()
        manifest.mediaStamp = try reader.optional { try $0.string() }
        let count = try reader.count()
        // Sized for as many entries as the bytes left can hold (each takes at least seven: a
        // damaged or forged count reserves no more than the file could fill), and the paths'
        // bytes a guess, on the short side (a tag page's path is 20 bytes, a post's 40).
        let room = min(count, reader.remaining / 7)
        manifest.entries.reserveCapacity(room, pathBytes: min(room * 24, reader.remaining))
        var path: [UInt8] = []
        for _ in 0..<count {
            try reader.withStringBytes {
                guard isPlain($0) else { throw ByteReader.Malformed() }
                path.removeAll(keepingCapacity: true)
                path.append(contentsOf: $0)
            }
            let inputs: Made
            switch try reader.int() as Int {
            case 0: inputs = .always
            case 1: inputs = .placed
            case 2: inputs = .later
            case 3: inputs = .inputs(try reader.word())
            default: throw ByteReader.Malformed()
            }
            let content = try reader.optional { try $0.word() }
            let size: Int64 = try reader.int(), modified: Int64 = try reader.int(), inode: Int64 = try reader.int()
            let entry = Entry(inputs: inputs, content: content, size: size, modified: modified, inode: UInt64(bitPattern: inode))
            path.withUnsafeBufferPointer { _ = manifest.entries.update(entry, forKey: $0) }
        }
        manifest.unreadMedia.names = try reader.word()
        manifest.unreadMedia.count = try reader.count()
        // A copy of its own: a slice would hold the whole file's bytes as long as the manifest lives.
        manifest.unreadMedia.bytes = ArraySlice(Array(try reader.bytes(try reader.count())))
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return manifest
    }

    func save(_ url: URL) {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard let file = try? AtomicFile.Writer(url.path) else { return }
        // Written a megabyte at a time: at 100,000 posts the whole of it is tens of megabytes, at
        // the peak of a build's memory.
        var writer = ByteWriter()
        writer.string(Self.magic)
        writer.bool(listsEverything)
        writer.optional(mediaStamp) { $0.string($1) }
        // The media files in `entries` join the unread ones in their section (written after the
        // others, its length first): a pass to write it, then the others, without a second table.
        var media = ByteWriter(), names = unreadMedia.names, mediaCount = unreadMedia.count
        media.append(unreadMedia.bytes)
        entries.forEach { path, entry in
            guard entry.inputs == .placed, let name = Self.mediaName(path) else { return }
            media.string(bytes: name)
            media.int(entry.size)
            media.int(entry.modified)
            media.int(Int64(bitPattern: entry.inode))
            names &+= DigestBuilder.unorderedPart(String(decoding: name, as: UTF8.self))
            mediaCount += 1
        }
        writer.int(entries.count + unreadMedia.count - mediaCount)
        entries.forEach { path, entry in
            guard !(entry.inputs == .placed && Self.mediaName(path) != nil) else { return }
            writer.string(bytes: path)
            switch entry.inputs {
            case .always: writer.int(0)
            case .placed: writer.int(1)
            case .later: writer.int(2)
            case .inputs(let digest):
                writer.int(3)
                writer.word(digest)
            }
            writer.optional(entry.content) { $0.word($1) }
            writer.int(entry.size)
            writer.int(entry.modified)
            writer.int(Int64(bitPattern: entry.inode))
            writer.flush(into: file)
        }
        writer.word(names)
        writer.int(mediaCount)
        writer.int(media.bytes.count)
        file.append(writer.bytes)
        file.append(media.bytes)
        try? file.commit()
    }

    /// Whether `path` is one an output file can have: relative, each of its names neither empty
    /// nor `.` nor `..`. A record that lists any other (a damaged or forged one) is not used: a
    /// file it names is never looked at, linked or removed outside the folder it describes.
    static func isPlain(_ path: String) -> Bool {
        // Over the bytes in place (a record's 60,000 paths are checked as it is read).
        path.utf8.withContiguousStorageIfAvailable(isPlain) ?? Array(path.utf8).withUnsafeBufferPointer(isPlain)
    }

    /// The same on a path's bytes: name by name, each found with `memchr` (a look at every byte
    /// with a count of its dots was 1.4% of a caption edit's instructions at 10,000 posts).
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        while true {
            let end = bytes.index(of: UInt8(ascii: "/"), from: start) ?? bytes.count
            let length = end - start
            // Not empty, not `.`, not `..`.
            guard length > 0, !(length <= 2 && bytes[start] == UInt8(ascii: ".") && bytes[end - 1] == UInt8(ascii: ".")) else { return false }
            if end == bytes.count { return true }
            start = end + 1
        }
    }

    /// The name in `media/` of a file at `path`, when it is one (a plain name there).
    static func mediaName(_ path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let prefix = "media/".utf8
        guard path.count > prefix.count, path.starts(with: prefix) else { return nil }
        let name = UnsafeBufferPointer(rebasing: path[prefix.count...])
        return name.contains(UInt8(ascii: "/")) ? nil : name
    }

    /// A manifest read ahead of its use (`Publisher`), with the identity its file had then.
    struct ReadAhead: Sendable {
        let path: String
        let identity: FileIdentity?
        let manifest: OutputManifest

        init(_ path: String) {
            self.path = path
            identity = FileIdentity(path: path)
            manifest = identity == nil ? OutputManifest() : OutputManifest.load(URL(fileURLWithPath: path))
        }

        /// What the file holds now: the manifest read ahead while it is the file it was read from
        /// (a manifest is always replaced whole, by a rename), else the file read again.
        var current: OutputManifest {
            isCurrent ? manifest : OutputManifest.load(URL(fileURLWithPath: path))
        }

        /// Whether the file is still the one read ahead.
        var isCurrent: Bool { identity != nil && FileIdentity(path: path) == identity }
    }

    /// The entry for `path` when the file at `relative` (by default `path`) in `folder` is still
    /// the one it describes.
    func intact(_ path: String, in folder: OpenFolder, relative: String? = nil) -> Entry? {
        guard let entry = entries[path], isIntact(entry, at: relative ?? path, in: folder) else { return nil }
        return entry
    }

    /// Whether the file at `relative` in `folder` is still the one `entry` (of this manifest)
    /// describes: for a caller that holds the entry already (one look-up of its path, not two).
    func isIntact(_ entry: Entry, at relative: String, in folder: OpenFolder) -> Bool {
        trusted || Self.isIntact(entry, at: relative, in: folder)
    }

    /// Whether the file at `relative` in `folder` is the one `entry` describes, looked at.
    static func isIntact(_ entry: Entry, at relative: String, in folder: OpenFolder) -> Bool {
        guard let identity = folder.identity(relative) else { return false }
        return entry.describes(identity)
    }
}

/// A folder held open, so that its files are looked at by their names in it: a look at each of
/// 60,000 files by its whole path walked the folders above it each time (half the cost of the
/// look, at 10,000 posts; the media files all sit in one folder). Falls back to whole paths when
/// it cannot be opened.
final class OpenFolder: @unchecked Sendable {
    let path: String
    /// -1 when the folder could not be opened.
    let descriptor: Int32

    init(_ path: String) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    /// A folder already open as `descriptor`, which it now closes.
    init(descriptor: Int32, path: String) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The whole path of `relative` in it (made from the path it was opened with: a URL makes its
    /// path anew at each ask).
    func path(of relative: String) -> String { path + "/" + relative }

    /// Removes the file (or the empty folder) at `relative` in it, never through a link (`FileWriter.remove`).
    func remove(_ relative: String, folder: Bool = false) {
        if descriptor >= 0 { FileWriter.remove(relative, in: descriptor, folder: folder) }
    }

    /// The identity of the regular file at `relative` (no `..` in it, as every output path).
    func identity(_ relative: String) -> FileIdentity? {
        guard descriptor >= 0 else { return FileIdentity(path: path(of: relative)) }
        return FileIdentity(in: descriptor, at: relative)
    }
}

/// Size, modification time and inode of a regular file (links are not followed).
struct FileIdentity: Equatable, Sendable {
    var size: Int64
    var modified: Int64
    var inode: UInt64

    init?(path: String) {
        self.init(in: AT_FDCWD, at: path)
    }

    /// The regular file `name` in the open folder `descriptor` (AT_FDCWD: `name` is a path), the
    /// last name not followed if a link; nil for anything but a regular file.
    init?(in descriptor: Int32, at name: UnsafePointer<CChar>) {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        self.init(info)
    }

    init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        inode = UInt64(info.st_ino)
    }
}

extension POSIXError {
    /// The error in `errno`, naming the file.
    static func current(_ path: String) -> Error {
        let code = errno
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code),
                       userInfo: [NSLocalizedDescriptionKey: "\(path): \(String(cString: strerror(code)))"])
    }
}
