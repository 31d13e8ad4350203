import Foundation
import GramgenCore

/// What the last build left in an output folder: for each file, the digest of the inputs it was
/// made from (pages and feeds), the digest of its bytes, and its identity on disk. The next build
/// takes over a file only when both digests allow it and the file is still exactly the one written
/// (same inode, size and modification time), so a hand-edited output file is never trusted.
struct OutputManifest: Sendable {
    struct Entry: Sendable, Equatable {
        var inputs: String
        var content: String
        var size: Int64
        var modified: Int64
        var inode: UInt64
    }

    var entries: [String: Entry] = [:]
    /// Lists static and media files too, not only pages and feeds: every file the build wrote
    /// (what a spare folder's manifest must say to be used).
    var listsEverything = false
    private static let header = "#gramgen files\t2"

    /// The `inputs` of a static or media file: placed as it is, not drawn (so never reused as a
    /// page; `Publisher.reuse` asks for a page's own inputs digest).
    static let placed = "placed"

    /// Tab-separated lines: path, inputs, content, size, modified (ns), inode.
    static func load(_ url: URL) -> OutputManifest {
        guard let data = FileManager.default.contents(atPath: url.path) else { return OutputManifest() }
        var manifest = OutputManifest()
        manifest.listsEverything = data.starts(with: Array((header + "\n").utf8))
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 6, let size = Int64(String(decoding: fields[3], as: UTF8.self)),
                  let modified = Int64(String(decoding: fields[4], as: UTF8.self)),
                  let inode = UInt64(String(decoding: fields[5], as: UTF8.self)) else { continue }
            manifest.entries[String(decoding: fields[0], as: UTF8.self)] = Entry(
                inputs: String(decoding: fields[1], as: UTF8.self), content: String(decoding: fields[2], as: UTF8.self),
                size: size, modified: modified, inode: inode)
        }
        return manifest
    }

    func save(_ url: URL) {
        var text = listsEverything ? Self.header + "\n" : ""
        text.reserveCapacity(entries.count * 100)
        for (path, entry) in entries where !path.contains("\t") && !path.contains("\n") {
            text += "\(path)\t\(entry.inputs)\t\(entry.content)\t\(entry.size)\t\(entry.modified)\t\(entry.inode)\n"
        }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: url, options: .atomic)
    }

    /// The entry for `path` when the file at `full` is still the one it describes.
    func intact(_ path: String, at full: String) -> Entry? {
        guard let entry = entries[path], let identity = FileIdentity(path: full),
              identity.size == entry.size, identity.modified == entry.modified, identity.inode == entry.inode
        else { return nil }
        return entry
    }
}

/// Size, modification time and inode of a regular file (links are not followed).
struct FileIdentity {
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
