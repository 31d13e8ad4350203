import Foundation
import GramgenCore
import GramgenImaging

/// `ImageMemo` kept on disk, so a one-off `gramgen build` after an edit looks up only the photos
/// whose files changed: for each source as the last build found it, its stamp, the settings and
/// role it was made for, and its key in the image cache. The processed image itself is the
/// cache's (`MediaCache.lookup`, which also checks its files are still there), so this file
/// holds names and numbers only, and an entry the cache no longer has is simply looked up again.
/// Written only when the memo changed (nothing is written after a caption edit), as a `KeptFile`
/// under the build's salt; a file cut short, damaged or from another gramgen is ignored.
extension ImageMemo {
    private static let magic = "gramgen images 2"

    /// Fills a memo no build has used yet with what `save` wrote to `path`.
    func restore(from path: String, salt: String, cache: MediaCache) {
        guard lock.withLock({ !used && entries.isEmpty }) else { return }  // a process's later builds
        guard var reader = KeptFile.reader(atPath: path, limit: InputFile.maxMediaBytes, magic: Self.magic, salt: salt),
              let decoded = try? Self.decode(&reader) else { return }
        var restored: [Key: Entry] = [:]
        restored.reserveCapacity(decoded.count)
        for (key, stamp, cacheKey, sourceKey) in decoded {
            guard let image = cache.lookup(cacheKey) else { continue }
            restored[key] = Entry(stamp: stamp, image: image, cacheKey: cacheKey, sourceKey: sourceKey)
        }
        lock.withLock {
            guard !used, entries.isEmpty else { return }
            entries = restored
            changed = restored.count != decoded.count
        }
    }

    /// Writes the memo to `path` when it changed since it was read or last written.
    func save(to path: String, salt: String) {
        // Taken as changes are: a build that changes the memo while this writes marks it again.
        let entries: [Key: Entry]? = lock.withLock {
            guard changed else { return nil }
            changed = false
            return self.entries
        }
        guard let entries else { return }
        var writer = KeptFile.writer(magic: Self.magic, salt: salt)
        writer.list(Array(entries)) { writer, item in
            let (key, entry) = item
            writer.string(key.path)
            writer.string(key.role.rawValue)
            writer.word(key.fingerprint)
            writer.list(entry.stamp) { $0.int($1) }
            writer.string(entry.cacheKey)
            writer.string(entry.sourceKey)
        }
        if !KeptFile.write(writer, toPath: path) { lock.withLock { changed = true } }
    }

    private static func decode(_ reader: inout ByteReader) throws -> [(Key, [Int64], String, String)] {
        let entries = try reader.list { reader -> (Key, [Int64], String, String) in
            let path = try reader.string()
            guard let role = ImageRole(rawValue: try reader.string()) else { throw ByteReader.Malformed() }
            let fingerprint = try reader.word()
            let stamp: [Int64] = try reader.list { try $0.int() }
            return (Key(path: path, role: role, fingerprint: fingerprint), stamp, try reader.string(), try reader.string())
        }
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return entries
    }
}
