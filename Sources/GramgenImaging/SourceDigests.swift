import Foundation

/// Remembers each source file's digest by its size and modification time, so a rebuild
/// does not re-read unchanged photos just to learn they are unchanged.
public final class SourceDigests: @unchecked Sendable {
    struct Entry: Codable {
        var size: Int64
        var modified: Double
        var digest: String
    }

    private let url: URL
    private var entries: [String: Entry]
    private var used: [String: Entry] = [:]
    private let lock = NSLock()

    public init(directory: URL) {
        url = directory.appendingPathComponent("sources.json")
        entries = (FileManager.default.contents(atPath: url.path))
            .flatMap { try? JSONDecoder().decode([String: Entry].self, from: $0) } ?? [:]
    }

    /// The SHA-256 of the file, from the index when its size and time are unchanged.
    public func digest(of file: URL) throws -> String {
        var info = stat()
        guard stat(file.path, &info) == 0 else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: file.path])
        }
        let size = Int64(info.st_size)
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        let key = file.standardizedFileURL.path
        lock.lock()
        let known = entries[key]
        lock.unlock()
        if let known, known.size == size, known.modified == modified {
            remember(key, known)
            return known.digest
        }
        let digest = try MediaCache.digest(of: file)
        remember(key, Entry(size: size, modified: modified, digest: digest))
        return digest
    }

    private func remember(_ key: String, _ entry: Entry) {
        lock.lock()
        used[key] = entry
        lock.unlock()
    }

    /// Writes the entries used by this build (others are dropped).
    public func save() {
        lock.lock()
        defer { lock.unlock() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try? encoder.encode(used).write(to: url, options: .atomic)
    }
}
