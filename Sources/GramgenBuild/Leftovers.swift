import Foundation

/// What builds that were killed left beside the output: `.<name>.building-<pid>` (a half-written
/// site) and, where the file system cannot exchange two folders, `.<name>.old-<pid>` (the
/// previous output, moved aside for the instant between two renames). Only folders of processes
/// that no longer run are touched, so a build running at the same time keeps its own.
struct Leftovers {
    let output: URL

    func clean() {
        let fm = FileManager.default
        let parent = output.deletingLastPathComponent()
        let name = output.lastPathComponent
        guard let entries = try? fm.contentsOfDirectory(atPath: parent.path) else { return }
        for entry in entries.sorted() {
            for kind in ["building", "old"] {
                let prefix = ".\(name).\(kind)-"
                guard entry.hasPrefix(prefix), let pid = pid_t(entry.dropFirst(prefix.count)),
                      !Self.isRunning(pid) else { continue }
                let url = parent.appendingPathComponent(entry)
                // Only a real folder that gramgen made (it holds the marker, written first) or an
                // empty one (killed before the marker): never a link, never a stranger's folder.
                guard Self.isOurs(url) else { continue }
                // Killed between the two renames: the previous output is here, and nothing at the output.
                if kind == "old", !fm.fileExists(atPath: output.path), (try? fm.moveItem(at: url, to: output)) != nil {
                    continue
                }
                Self.remove(url)
            }
        }
    }

    /// Deletes a folder gramgen made, its marker last: a build killed while deleting leaves a
    /// folder the next build still knows as its own (and finishes deleting).
    static func remove(_ folder: URL) {
        let fm = FileManager.default
        if !OutputMarker.isPresent(in: folder) { try? OutputMarker.write(into: folder) }
        for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] where name != OutputMarker.name {
            try? fm.removeItem(at: folder.appendingPathComponent(name))
        }
        try? fm.removeItem(at: folder)
    }

    static func isOurs(_ folder: URL) -> Bool {
        var info = stat()
        guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
        return OutputMarker.isPresent(in: folder) || ((try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty ?? false)
    }

    static func isRunning(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        if pid == getpid() { return false }  // our own leftover from an earlier build in this process
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
