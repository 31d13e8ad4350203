import Foundation

/// Every change the import makes to the site goes through here, so `--dry-run` can list the
/// same writes a real run would make without touching the disk.
final class SiteWriter {
    let siteRoot: URL
    let dryRun: Bool
    /// Site-relative paths written (or, in a dry run, that would be), in order.
    private(set) var written: [String] = []

    init(siteRoot: URL, dryRun: Bool) {
        self.siteRoot = siteRoot
        self.dryRun = dryRun
    }

    func url(_ path: String) -> URL { siteRoot.appendingPathComponent(path) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }

    /// The file's text, or nil when it is missing or not UTF-8.
    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: url(path).path).flatMap { String(data: $0, encoding: .utf8) }
    }

    func write(_ text: String, to path: String) throws {
        written.append(path)
        guard !dryRun else { return }
        do {
            try makeParent(of: path)
            try Data(text.utf8).write(to: url(path), options: .atomic)
        } catch {
            throw ImportError.writeFailed(path: path, detail: error.localizedDescription)
        }
    }

    /// Copies a file from the export, replacing what is at `path`.
    func copy(_ source: URL, to path: String) throws {
        written.append(path)
        guard !dryRun else { return }
        do {
            try makeParent(of: path)
            if FileManager.default.fileExists(atPath: url(path).path) { try FileManager.default.removeItem(at: url(path)) }
            try FileManager.default.copyItem(at: source, to: url(path))
        } catch {
            throw ImportError.writeFailed(path: path, detail: error.localizedDescription)
        }
    }

    private func makeParent(of path: String) throws {
        try FileManager.default.createDirectory(at: url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
    }
}
