import Foundation
import GramgenCore
import GramgenImaging
import GramgenRender

/// Stage 5 for the preview server: updates its private output folder in place, writing only the
/// files whose bytes changed and removing the ones no longer produced. A caption edit then writes
/// a handful of pages instead of the whole site. `gramgen build` never uses this: its output is
/// always swapped in whole (see `Publisher`).
///
/// What a kill in the middle leaves: every file is either its previous version or its new one,
/// never cut short (each is written under another name and renamed); the folder as a whole may mix
/// the two builds until the next build, which repairs all of it (a file is trusted only when it is
/// exactly the one the manifest recorded, and everything not produced is removed). Not flushed to
/// disk: the folder is a preview (`ServeKillTests`).
final class InPlacePublisher: SitePublisher, @unchecked Sendable {
    let output: URL
    let cache: MediaCache
    let staticFiles: [StaticFiles.File]
    let manifestURL: URL
    private let previous: OutputManifest
    private var next = OutputManifest()
    private let lock = NSLock()
    private let writer = FileWriter()
    private(set) var written = 0
    private(set) var pageCount = 0
    private(set) var fileCount = 0
    private(set) var reused = 0
    /// Files are replaced in place, beside whatever else the folder holds: the output is walked.
    let publishedFiles: [FolderWalk.Entry]? = nil

    init(output: URL, cache: MediaCache, staticFiles: [StaticFiles.File], manifestURL: URL) throws {
        self.output = output
        self.cache = cache
        self.staticFiles = staticFiles
        self.manifestURL = manifestURL
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        previous = OutputManifest.load(manifestURL)
        try put(OutputMarker.name, Array(OutputMarker.text.utf8), inputs: nil)
    }

    func reuse(_ path: String, inputs: String) -> Bool {
        guard let entry = previous.intact(path, at: output.path + "/" + path), entry.inputs == inputs else { return false }
        record(path, entry, written: false)
        lock.lock()
        reused += 1
        lock.unlock()
        return true
    }

    func put(_ path: String, _ bytes: [UInt8], inputs: String?) throws {
        let content = BytesDigest.hex(bytes)
        let full = output.path + "/" + path
        if var entry = previous.intact(path, at: full), entry.content == content {
            entry.inputs = inputs ?? ""
            record(path, entry, written: false)
            return
        }
        if let existing = FileManager.default.contents(atPath: full), existing.elementsEqual(bytes),
           let identity = FileIdentity(path: full) {
            record(path, .init(inputs: inputs ?? "", content: content, size: identity.size,
                               modified: identity.modified, inode: identity.inode), written: false)
            return
        }
        let identity = try replace(full, with: bytes)
        record(path, .init(inputs: inputs ?? "", content: content, size: identity.size,
                           modified: identity.modified, inode: identity.inode), written: true)
    }

    /// A new name then a rename: the server never sends a half-written file.
    private func replace(_ full: String, with bytes: [UInt8]) throws -> FileIdentity {
        let temporary = full + ".gramgen-\(getpid())"
        let identity = try writer.write(bytes, to: temporary)
        guard rename(temporary, full) == 0 else {
            unlink(temporary)
            throw POSIXError.current(full)
        }
        return identity
    }

    private func record(_ path: String, _ entry: OutputManifest.Entry, written: Bool) {
        lock.lock()
        next.entries[path] = entry
        fileCount += 1
        if path.hasSuffix(".html") { pageCount += 1 }
        if written { self.written += 1 }
        lock.unlock()
    }

    /// The preview compares static files in memory; larger ones are an error in the preview only.
    static let maxStaticBytes = InputFile.maxMediaBytes

    /// Static files and media, then removes what is no longer produced. Returns how many files were written.
    func finish(media: Set<String>) throws {
        let fm = FileManager.default
        var wanted = Set(next.entries.keys)
        for file in staticFiles where !wanted.contains(file.relative) {
            wanted.insert(file.relative)
            let data: Data
            switch InputFile.read(atPath: file.source, limit: Self.maxStaticBytes) {
            case .success(let bytes): data = bytes
            case .failure(let failure): throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "static/\(file.relative): \(failure.message)"])
            }
            let target = output.path + "/" + file.relative
            if case .success(let existing) = InputFile.read(atPath: target, limit: Self.maxStaticBytes), existing == data { continue }
            _ = try replace(target, with: Array(data))
            written += 1
        }
        try writer.makeFolder(output.path + "/media")
        for name in media {
            let path = "media/" + name
            wanted.insert(path)
            let target = output.path + "/" + path
            guard !fm.fileExists(atPath: target) else { continue }
            // A media file is never rewritten once there (its name is its content's hash), so it must
            // appear whole: a link is; a copy is made under another name and renamed.
            let source = cache.fileURL(for: name).path
            if link(source, target) != 0 {
                let temporary = target + ".gramgen-\(getpid())"
                unlink(temporary)
                try fm.copyItem(atPath: source, toPath: temporary)
                guard rename(temporary, target) == 0 else {
                    unlink(temporary)
                    throw POSIXError.current(target)
                }
            }
            written += 1
        }
        fileCount += media.count
        var emptied = Set<String>()
        for path in UpToDateCheck.files(in: output) where !wanted.contains(path) {
            try? fm.removeItem(at: output.appendingPathComponent(path))
            var folder = (path as NSString).deletingLastPathComponent
            while !folder.isEmpty, emptied.insert(folder).inserted {
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        // The folders of pages no longer made (a removed post's), deepest first; rmdir leaves any
        // folder that still holds something.
        for folder in emptied.sorted(by: { $0.count > $1.count }) {
            rmdir(output.path + "/" + folder)
        }
        next.save(manifestURL)
    }

    /// The folder is the preview's own; what was written stays until the next build.
    func abandon() {}
}
