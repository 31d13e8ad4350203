import Foundation
import GramgenCore

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

    /// Handles of the site's users (folders of `content/users/`).
    func siteUsers() -> Set<String> {
        let root = url("content/users")
        return Set(ExportLayout.visibleEntries(of: root).filter {
            Handle.isValid($0) && ExportLayout.isDirectory(root.appendingPathComponent($0))
        })
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }

    /// The file's text, or nil when it is missing, not a regular file or not UTF-8.
    func read(_ path: String) -> String? {
        guard FileContainment.linkOutside(path, root: siteRoot) == nil,
              case .success(let data) = InputFile.read(atPath: url(path).path, limit: 2 * 1024 * 1024) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// A link on the way to `path` that leads out of the site: the import would write there.
    private func checkInside(_ path: String) throws {
        if let link = FileContainment.linkOutside(path, root: siteRoot) {
            throw ImportError.linkOutside(path: link)
        }
    }

    func write(_ text: String, to path: String) throws {
        written.append(path)
        try checkInside(path)
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
        try checkInside(path)
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
