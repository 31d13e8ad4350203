import CFileSwap
import Foundation
import GramgenCore
import GramgenImaging
import GramgenRender

/// Where rendered files go; `finish` completes the output, `abandon` drops what was written after a failure.
protocol SitePublisher: PageSink {
    var pageCount: Int { get }
    var fileCount: Int { get }
    /// Pages and feeds taken over from the previous build without being drawn again.
    var reused: Int { get }
    /// After `finish`: every file the output holds, as `FolderWalk` would list it, when the
    /// publisher knows them all (nil: the output must be walked).
    var publishedFiles: [FolderWalk.Entry]? { get }
    func finish(media: Set<String>) throws
    func abandon()
}

/// Stage 5: the site goes into a temporary folder beside the output as it is rendered, then the
/// folder is swapped in whole. Until the swap the previous output is untouched; a build that
/// fails or is killed leaves it as it was. A file the last build already wrote with the same
/// inputs or bytes is hard-linked from the previous output instead of being drawn or written again.
final class Publisher: SitePublisher, @unchecked Sendable {
    let output: URL
    let cache: MediaCache
    let staticFiles: [StaticFiles.File]
    let manifestURL: URL
    let staging: URL
    private let previous: OutputManifest
    private var next = OutputManifest()
    private let lock = NSLock()
    private let writer = FileWriter()
    private(set) var pageCount = 0
    private(set) var fileCount = 0
    private(set) var reused = 0
    private(set) var publishedFiles: [FolderWalk.Entry]?
    /// Static and media files as placed in the staging folder, for `publishedFiles`.
    private var placed: [FolderWalk.Entry] = []

    init(output: URL, cache: MediaCache, staticFiles: [StaticFiles.File], manifestURL: URL) throws {
        self.output = output
        self.cache = cache
        self.staticFiles = staticFiles
        self.manifestURL = manifestURL
        let fm = FileManager.default
        let parent = output.deletingLastPathComponent()
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        staging = parent.appendingPathComponent(".\(output.lastPathComponent).building-\(getpid())")
        if Leftovers.isOurs(staging) { Leftovers.remove(staging) }
        previous = fm.fileExists(atPath: output.path) ? OutputManifest.load(manifestURL) : OutputManifest()
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
        // First, so that a folder left by a killed build is known as gramgen's (see `Leftovers`).
        try put(OutputMarker.name, Array(OutputMarker.text.utf8), inputs: nil)
        FileWriter.spread(staging.path)
    }

    func reuse(_ path: String, inputs: String) -> Bool {
        guard let entry = previous.intact(path, at: output.path + "/" + path), entry.inputs == inputs,
              writer.link(output.path + "/" + path, to: staging.path + "/" + path) else { return false }
        record(path, entry, reused: true)
        return true
    }

    func put(_ path: String, _ bytes: [UInt8], inputs: String?) throws {
        let content = BytesDigest.hex(bytes)
        let old = output.path + "/" + path, new = staging.path + "/" + path
        if var entry = previous.intact(path, at: old), entry.content == content, writer.link(old, to: new) {
            entry.inputs = inputs ?? ""
            record(path, entry, reused: false)
            return
        }
        let identity = try writer.write(bytes, to: new)
        record(path, .init(inputs: inputs ?? "", content: content, size: identity.size,
                           modified: identity.modified, inode: identity.inode), reused: false)
    }

    private func record(_ path: String, _ entry: OutputManifest.Entry, reused: Bool) {
        lock.lock()
        next.entries[path] = entry
        fileCount += 1
        if path.hasSuffix(".html") { pageCount += 1 }
        if reused { self.reused += 1 }
        lock.unlock()
    }

    /// Links media files from the cache, copies `static/`, swaps the folder in and remembers what it
    /// holds. Every file's identity is taken as it is placed, so the up-to-date record needs no
    /// walk of the finished output (a rename keeps sizes and times).
    func finish(media: Set<String>) throws {
        let fm = FileManager.default
        try copyStatic(into: staging)
        let mediaFolder = staging.path + "/media"
        try writer.makeFolder(mediaFolder)
        let names = Array(media)
        var failure: Error?
        var linked: [[FolderWalk.Entry]] = [[], []]
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            var entries: [FolderWalk.Entry] = []
            entries.reserveCapacity(names.count / 2 + 1)
            for index in stride(from: part, to: names.count, by: 2) {
                let name = names[index]
                let target = mediaFolder + "/" + name
                let source = cache.fileURL(for: name)
                do {
                    if link(source.path, target) != 0 { try fm.copyItem(atPath: source.path, toPath: target) }
                    guard let identity = FileIdentity(path: target) else { throw POSIXError.current(target) }
                    entries.append(.init(path: "media/" + name, size: identity.size, modified: identity.modified, isRegular: true))
                } catch {
                    lock.lock()
                    failure = failure ?? error
                    lock.unlock()
                }
            }
            lock.lock()
            linked[part] = entries
            lock.unlock()
        }
        if let failure { throw failure }
        lock.lock()
        fileCount += media.count
        lock.unlock()
        try swapIn()
        next.save(manifestURL)
        var files = next.entries.map { FolderWalk.Entry(path: $0.key, size: $0.value.size, modified: $0.value.modified, isRegular: true) }
        files += placed
        files += linked.joined()
        publishedFiles = files
    }

    /// Writes everything of the new tree to disk before it is swapped in, so a power cut right after
    /// a build cannot leave an output whose files are empty: one `syncfs` of the file system that
    /// holds it (far cheaper than an fsync per file), then the folder itself.
    static func flush(_ folder: String, fileSystem: Bool) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        if fileSystem { _ = gg_sync_file_system(fd) }
        fsync(fd)
        close(fd)
    }

    /// Removes the temporary folder after a failure.
    func abandon() {
        Leftovers.remove(staging)
    }

    private func swapIn() throws {
        let fm = FileManager.default
        Self.flush(staging.path, fileSystem: true)
        defer { Self.flush(output.deletingLastPathComponent().path, fileSystem: false) } // the rename itself
        guard fm.fileExists(atPath: output.path) else {
            try fm.moveItem(at: staging, to: output)
            return
        }
        if gg_exchange_paths(staging.path, output.path) == 0 {
            Leftovers.remove(staging) // now holds the previous output
            return
        }
        // Fallback where the file system cannot exchange: two renames in quick succession.
        let old = staging.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).old-\(getpid())")
        try fm.moveItem(at: output, to: old)
        try fm.moveItem(at: staging, to: output)
        Leftovers.remove(old)
    }

    /// Copies `static/` into the output (see `StaticFiles`). It runs after rendering, so a page
    /// wins over a static file of the same name.
    private func copyStatic(into destination: URL) throws {
        let fm = FileManager.default
        for file in staticFiles {
            let target = destination.appendingPathComponent(file.relative)
            guard !fm.fileExists(atPath: target.path) else { continue } // a page of the same name wins
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.copyItem(atPath: file.source, toPath: target.path)
            guard let identity = FileIdentity(path: target.path) else { throw POSIXError.current(target.path) }
            placed.append(.init(path: file.relative, size: identity.size, modified: identity.modified, isRegular: true))
        }
    }
}
