import Foundation
import GramgenCore
import GramgenImaging
import GramgenRender

/// Stage 5 for the preview server: updates its private output folder in place, writing only the
/// files whose bytes changed and removing the ones no longer produced. A caption edit then writes
/// a handful of pages instead of the whole site. `gramgen build` never uses this: its output is
/// always swapped in whole (see `Publisher`).
struct InPlacePublisher {
    let output: URL
    let cache: MediaCache
    let staticFolder: URL?

    /// Returns how many files were written.
    @discardableResult
    func publish(_ files: [OutputFile], media: Set<String>) throws -> Int {
        let fm = FileManager.default
        try fm.createDirectory(at: output, withIntermediateDirectories: true)
        var wanted = Set<String>()
        var written = 0
        var folders = Set<String>()
        func write(_ data: Data, to path: String) throws {
            wanted.insert(path)
            let url = output.appendingPathComponent(path)
            if let existing = fm.contents(atPath: url.path), existing == data { return }
            let folder = url.deletingLastPathComponent().path
            if folders.insert(folder).inserted { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try data.write(to: url, options: .atomic)
            written += 1
        }
        if let staticFolder {
            for path in UpToDateCheck.files(in: staticFolder) {
                if let data = fm.contents(atPath: staticFolder.appendingPathComponent(path).path) { try write(data, to: path) }
            }
        }
        for file in files { try write(file.contents, to: file.path) }
        try fm.createDirectory(at: output.appendingPathComponent("media"), withIntermediateDirectories: true)
        for name in media {
            let path = "media/" + name
            wanted.insert(path)
            let target = output.appendingPathComponent(path)
            guard !fm.fileExists(atPath: target.path) else { continue }
            if link(cache.fileURL(for: name).path, target.path) != 0 {
                try fm.copyItem(at: cache.fileURL(for: name), to: target)
            }
            written += 1
        }
        for path in UpToDateCheck.files(in: output) where !wanted.contains(path) {
            try? fm.removeItem(at: output.appendingPathComponent(path))
        }
        return written
    }
}
