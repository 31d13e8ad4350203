import CFileSwap
import Foundation
import GramgenCore
import GramgenImaging
import GramgenRender

/// Stage 5: writes the site into a temporary folder beside the output, then swaps it in whole.
/// Until the swap the previous output is untouched; a build that fails or is killed leaves it as it was.
struct Publisher {
    let output: URL
    let cache: MediaCache
    let staticFolder: URL?

    /// Writes pages and assets, links media files from the cache, copies `static/`, then swaps.
    func publish(_ files: [OutputFile], media: Set<String>) throws {
        let fm = FileManager.default
        let parent = output.deletingLastPathComponent()
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".\(output.lastPathComponent).building-\(getpid())")
        try? fm.removeItem(at: staging)
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
        do {
            if let staticFolder, fm.fileExists(atPath: staticFolder.path) {
                try copyTree(staticFolder, into: staging)
            }
            var folders = Set<String>()
            for file in files {
                let url = staging.appendingPathComponent(file.path)
                let folder = url.deletingLastPathComponent().path
                if folders.insert(folder).inserted {
                    try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
                }
                try file.contents.write(to: url)
            }
            let mediaFolder = staging.appendingPathComponent("media")
            try fm.createDirectory(at: mediaFolder, withIntermediateDirectories: true)
            for name in media.sorted() {
                let target = mediaFolder.appendingPathComponent(name)
                let source = cache.fileURL(for: name)
                if link(source.path, target.path) != 0 {
                    try fm.copyItem(at: source, to: target)
                }
            }
            try swapIn(staging)
        } catch {
            try? fm.removeItem(at: staging)
            throw error
        }
    }

    private func swapIn(_ staging: URL) throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: output.path) else {
            try fm.moveItem(at: staging, to: output)
            return
        }
        if gg_exchange_paths(staging.path, output.path) == 0 {
            try fm.removeItem(at: staging) // now holds the previous output
            return
        }
        // Fallback where the file system cannot exchange: two renames in quick succession.
        let old = staging.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).old-\(getpid())")
        try fm.moveItem(at: output, to: old)
        try fm.moveItem(at: staging, to: output)
        try? fm.removeItem(at: old)
    }

    /// Copies `static/` into the output, files only (links are not followed out of the folder).
    private func copyTree(_ source: URL, into destination: URL) throws {
        let fm = FileManager.default
        guard let walker = fm.enumerator(at: source, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey]) else { return }
        let base = source.standardizedFileURL.path
        for case let url as URL in walker {
            let values = try url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            if values.isSymbolicLink == true { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            let target = destination.appendingPathComponent(relative)
            if values.isDirectory == true {
                try fm.createDirectory(at: target, withIntermediateDirectories: true)
            } else {
                try fm.copyItem(at: url, to: target)
            }
        }
    }
}
