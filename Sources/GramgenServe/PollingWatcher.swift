import Foundation

/// The portable fallback: a list of every input file with its size and modification time, taken
/// every 500 ms; a difference (then a quiet interval) is a change.
struct PollingWatcher: Sendable {
    let siteRoot: URL
    let debounceMilliseconds: Int
    var intervalMilliseconds = 500

    struct Entry: Equatable {
        var size: Int
        var modified: Date
    }

    func run(until flag: StopFlag, changed: @Sendable () -> Void) {
        var last = snapshot()
        while !flag.isStopped {
            Thread.sleep(forTimeInterval: Double(intervalMilliseconds) / 1000)
            var current = snapshot()
            guard current != last else { continue }
            // Wait until the folder holds still, so a half-copied file is not built.
            while !flag.isStopped {
                Thread.sleep(forTimeInterval: Double(debounceMilliseconds) / 1000)
                let next = snapshot()
                if next == current { break }
                current = next
            }
            last = current
            if !flag.isStopped { changed() }
        }
    }

    func snapshot() -> [String: Entry] {
        var entries: [String: Entry] = [:]
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isDirectoryKey]
        for folder in WatchFilter.inputFolders {
            let root = siteRoot.appendingPathComponent(folder)
            guard FileManager.default.fileExists(atPath: root.path),
                  let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else { continue }
            entries[folder] = Entry(size: 0, modified: .distantPast)
            for case let url as URL in walker {
                if WatchFilter.isIgnored(name: url.lastPathComponent) {
                    walker.skipDescendants()
                    continue
                }
                let values = try? url.resourceValues(forKeys: Set(keys))
                // A folder's own time changes with every scratch file an editor makes in it: only its
                // existence counts (its files have entries of their own).
                entries[url.path] = values?.isDirectory == true ? Entry(size: -1, modified: .distantPast)
                    : Entry(size: values?.fileSize ?? 0, modified: values?.contentModificationDate ?? .distantPast)
            }
        }
        return entries
    }
}
