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

        /// As the manifest's text holds it: the digest's 16 hexadecimal digits, or a word.
        var text: String {
            switch self {
            case .inputs(let digest): Hex.string(digest)
            case .always: ""
            case .placed: "placed"
            case .later: "later"
            }
        }
    }

    var entries: [String: Entry] = [:]
    /// Lists static and media files too, not only pages and feeds: every file the build wrote
    /// (what a spare folder's manifest must say to be used).
    var listsEverything = false
    /// Held in memory by the process that wrote every file it lists, into a folder nobody else
    /// writes (`gramgen serve`'s, see `BuildMemory`): its files are taken as they are, unlooked at.
    var trusted = false
    private static let header = "#gramgen files\t2"

    /// The up-to-date record's mark of a build that left pages for later (`BuildPipeline`).
    static let drawLater = "later"

    /// Tab-separated lines: path, inputs, content, size, modified (ns), inode.
    static func load(_ url: URL) -> OutputManifest {
        // Read as any input is: a regular file, bounded, never waited on (a FIFO in its place).
        guard case .success(let data) = InputFile.read(atPath: url.path, limit: InputFile.maxMediaBytes) else { return OutputManifest() }
        var manifest = OutputManifest()
        manifest.listsEverything = data.starts(with: Array((header + "\n").utf8))
        // One pass over the bytes (a big site's manifest has tens of thousands of lines, read by
        // every build): fields found by their tabs, numbers read digit by digit.
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            manifest.entries.reserveCapacity(bytes.reduce(0) { $1 == 10 ? $0 + 1 : $0 })
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 10 { end += 1 }
                if let (path, entry) = Self.entry(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                    manifest.entries[path] = entry
                }
                start = end + 1
            }
        }
        return manifest
    }

    /// One line: path, inputs, content, size, modified (ns), inode; nil for anything else.
    private static func entry(_ line: UnsafeBufferPointer<UInt8>) -> (String, Entry)? {
        var tabs: [Int] = []
        tabs.reserveCapacity(5)
        for index in line.indices where line[index] == 9 {
            tabs.append(index)
            if tabs.count > 5 { return nil }
        }
        guard tabs.count == 5 else { return nil }
        func text(_ field: Int) -> String {
            let from = field == 0 ? 0 : tabs[field - 1] + 1, to = field == 5 ? line.count : tabs[field]
            return String(decoding: UnsafeBufferPointer(rebasing: line[from..<to]), as: UTF8.self)
        }
        func number(_ field: Int, negative: Bool = false) -> UInt64? {
            let from = tabs[field - 1] + 1 + (negative ? 1 : 0), to = field == 5 ? line.count : tabs[field]
            guard from < to else { return nil }
            var value: UInt64 = 0
            for index in from..<to {
                let digit = line[index] &- 48
                let (tens, over) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = tens.addingReportingOverflow(UInt64(digit))
                guard digit < 10, !over, !carry else { return nil }
                value = sum
            }
            return value
        }
        /// 16 hexadecimal digits (as `Hex` writes them); nil for anything else.
        func digest(_ field: Int) -> UInt64? {
            let from = tabs[field - 1] + 1, to = tabs[field]
            guard to - from == 16 else { return nil }
            var value: UInt64 = 0
            for index in from..<to {
                let byte = line[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                value = value << 4 | UInt64(digit)
            }
            return value
        }
        let inputs: Made
        switch tabs[1] - tabs[0] - 1 {
        case 0: inputs = .always
        case 16: guard let value = digest(1) else { return nil }; inputs = .inputs(value)
        default:
            switch text(1) {
            case "placed": inputs = .placed
            case "later": inputs = .later
            default: return nil
            }
        }
        let content: UInt64?
        if tabs[2] - tabs[1] == 1 { content = nil } else { guard let value = digest(2) else { return nil }; content = value }
        let beforeEpoch = line[tabs[3] + 1] == UInt8(ascii: "-")  // a file time before 1970
        guard let size = number(3), let time = number(4, negative: beforeEpoch), let inode = number(5) else { return nil }
        guard size <= UInt64(Int64.max), time <= UInt64(Int64.max) else { return nil }
        let modified = beforeEpoch ? -Int64(time) : Int64(time)
        return (text(0), Entry(inputs: inputs, content: content, size: Int64(size), modified: modified, inode: inode))
    }

    func save(_ url: URL) {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard let file = try? AtomicFile.Writer(url.path) else { return }
        // Written a megabyte at a time: at 100,000 posts the whole of it is 56 MB, at the peak of
        // a build's memory.
        let piece = 1 << 20
        var out: [UInt8] = []
        out.reserveCapacity(piece + 4096)
        if listsEverything { out += (Self.header + "\n").utf8 }
        // Written byte by byte: tens of thousands of lines on every build of a big site.
        // No array or string made per line: 60,000 lines at 10,000 posts, on every build.
        func append(_ number: Int64) {
            if number < 0 { out.append(UInt8(ascii: "-")) }
            append(number.magnitude)
        }
        func append(_ number: UInt64) {
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            var rest = number
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                } while rest > 0
                out.append(contentsOf: buffer[(20 - count)...])
            }
        }
        func append(digest: UInt64) {
            for shift in stride(from: 60, through: 0, by: -4) { out.append(Hex.lowerDigits[Int(digest >> UInt64(shift) & 0xF)]) }
        }
        for (path, entry) in entries where !path.utf8.contains(where: { $0 == 9 || $0 == 10 }) {
            out += path.utf8
            out.append(9)
            if case .inputs(let digest) = entry.inputs { append(digest: digest) } else { out += entry.inputs.text.utf8 }
            out.append(9)
            if let content = entry.content { append(digest: content) }
            out.append(9)
            append(entry.size)
            out.append(9)
            append(entry.modified)
            out.append(9)
            append(entry.inode)
            out.append(10)
            if out.count >= piece {
                file.append(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        file.append(out)
        try? file.commit()
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
        if trusted { return true }
        guard let identity = folder.identity(relative) else { return false }
        return identity.size == entry.size && identity.modified == entry.modified && identity.inode == entry.inode
    }
}

/// A folder held open, so that its files are looked at by their names in it: a look at each of
/// 60,000 files by its whole path walked the folders above it each time (half the cost of the
/// look, at 10,000 posts; the media files all sit in one folder). Falls back to whole paths when
/// it cannot be opened.
final class OpenFolder: @unchecked Sendable {
    let path: String
    private let descriptor: Int32

    init(_ path: String) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The identity of the regular file at `relative` (no `..` in it, as every output path).
    func identity(_ relative: String) -> FileIdentity? {
        guard descriptor >= 0 else { return FileIdentity(path: path + "/" + relative) }
        var info = stat()
        guard fstatat(descriptor, relative, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(info)
    }
}

/// Size, modification time and inode of a regular file (links are not followed).
struct FileIdentity: Equatable, Sendable {
    var size: Int64
    var modified: Int64
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
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
