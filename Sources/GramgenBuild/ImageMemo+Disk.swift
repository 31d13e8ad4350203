import Foundation
import GramgenCore
import GramgenImaging

/// `ImageMemo` kept on disk, so a one-off `gramgen build` after an edit looks up only the photos
/// whose files changed: for each source as the last build found it, its stamp, the settings and
/// role it was made for, its key in the image cache and the processed image itself, whose files
/// must still be in the cache's `media/` (`MediaCache.haveFiles`; an entry whose files are gone is
/// simply looked up again). With them, the keys of the last build's first look-up in order, when
/// it found every key: a build that asks for the same keys, every file unchanged, takes its
/// images in one piece (`lookupWhole`), as a server's next build does, without the cache's index.
/// Written only when the memo changed (nothing is written after a caption edit), as a `KeptFile`
/// under the build's salt; a file cut short, damaged or from another gramgen is ignored.
extension ImageMemo {
    private static let magic = "gramgen images 3"

    /// Fills a memo no build has used yet with what `save` wrote to `path`.
    func restore(from path: String, salt: String, cache: MediaCache) {
        guard lock.withLock({ !used && entries.isEmpty }) else { return }  // a process's later builds
        guard var reader = KeptFile.reader(atPath: path, limit: InputFile.maxMediaBytes, magic: Self.magic, salt: salt),
              let (decoded, whole) = try? Self.decode(&reader, keepingEncoded: !keepsWhole) else { return }
        let fingerprint = keepsWhole ? nil : reader.fingerprint
        let read = fingerprint.map { (path, $0.count, $0.digest) }
        let present = cache.haveFiles(decoded.map(\.entry.image))
        var restored: [Key: Entry] = [:]
        restored.reserveCapacity(decoded.count)
        for ((key, entry), present) in zip(decoded, present) where present { restored[key] = entry }
        let last = whole.flatMap { indexes -> Whole? in
            guard indexes.allSatisfy({ present[$0] }) else { return nil }
            return Self.whole(indexes.map { decoded[$0] }, all: indexes.count == restored.count ? restored : nil)
        }
        lock.withLock {
            guard !used, entries.isEmpty else { return }
            entries = restored
            readFrom = read
            lastWhole = last
            wholeOnDisk = last?.keys
            changed = restored.count != decoded.count || (whole != nil && last == nil)
        }
    }

    /// The last build's first look-up as `keepWhole` keeps it, from its entries in order; `all`:
    /// the table of every entry when these are all of them.
    private static func whole(_ items: [(key: Key, entry: Entry)], all: [Key: Entry]?) -> Whole {
        var images: [String: ProcessedImage] = [:]
        images.reserveCapacity(items.count)
        for (key, entry) in items { images[key.path] = entry.image }
        return Whole(keys: items.map(\.key), stamps: items.map(\.entry.stamp),
                     next: all ?? Dictionary(items.map { ($0.key, $0.entry) }, uniquingKeysWith: { first, _ in first }),
                     images: images, cacheKeys: Set(items.map(\.entry.cacheKey)), sourceKeys: items.map(\.entry.sourceKey))
    }

    /// Writes the memo to `path` when it changed since it was read or last written.
    func save(to path: String, salt: String) {
        // Taken as changes are: a build that changes the memo while this writes marks it again.
        let taken: (entries: [Key: Entry], whole: [Key]?)? = lock.withLock {
            guard changed else { return nil }
            changed = false
            return (entries, wholeOnDisk)
        }
        guard let (entries, whole) = taken else { return }
        let (items, places) = Self.ordered(entries, whole: whole)
        // An entry read from the file is written as it was read, when the file is still the one
        // it was read from: a new photo's build wrote 10,000 processed images again, 70 ms on
        // its critical path. Read again rather than held: held, its bytes raised every build's
        // peak memory.
        let was = lock.withLock {
            defer { readFrom = nil }  // the file is written anew: its places are no longer these
            return readFrom
        }
        let read = was.flatMap { was -> [UInt8]? in
            guard let bytes = KeptFile.bytes(atPath: was.path, limit: InputFile.maxMediaBytes),
                  ByteReader(bytes).fingerprint == (was.count, was.digest) else { return nil }
            return bytes
        }
        var copied = 0
        let written = KeptFile.write(toPath: path, magic: Self.magic, salt: salt) { writer, file in
            writer.list(items) { writer, item in
                let (key, entry) = item
                writer.string(key.path)
                writer.string(key.role.rawValue)
                writer.word(key.fingerprint)
                if let read, let encoded = entry.encoded, encoded.upperBound <= read.count {
                    writer.append(read[encoded])
                    copied += 1
                } else {
                    Self.write(entry, to: &writer)
                }
                writer.flush(into: file)
            }
            writer.optional(places) { writer, indexes in writer.list(indexes) { $0.int($1) } }
        }
        lock.withLock {
            copiedAsRead = copied
            if !written { changed = true }
        }
    }

    /// The entries in the order `save` lists them, and the whole's keys as places in that list
    /// (none when one of them has no entry). When the whole is every entry (most often), in its
    /// order: its places are then the list's, without a table of 10,000 places (20 ms of a new
    /// post's build).
    private static func ordered(_ entries: [Key: Entry], whole: [Key]?) -> (items: [(key: Key, value: Entry)], places: [Int]?) {
        if let whole, whole.count == entries.count {
            var items: [(key: Key, value: Entry)] = []
            items.reserveCapacity(whole.count)
            // Each entry once (a key listed twice would leave another out).
            var listed = Set<ObjectIdentifier>(minimumCapacity: whole.count)
            for key in whole {
                guard let entry = entries[key], listed.insert(ObjectIdentifier(entry)).inserted else { break }
                items.append((key, entry))
            }
            if items.count == entries.count { return (items, Array(items.indices)) }
        }
        let items = Array(entries)
        return (items, places(of: whole, in: items))
    }

    private static func places(of whole: [Key]?, in items: [(key: Key, value: Entry)]) -> [Int]? {
        var places: [Key: Int] = [:]
        if whole != nil { for (index, item) in items.enumerated() { places[item.key] = index } }
        return whole.flatMap { keys -> [Int]? in
            var indexes: [Int] = []
            indexes.reserveCapacity(keys.count)
            for key in keys {
                guard let index = places[key] else { return nil }
                indexes.append(index)
            }
            return indexes
        }
    }

    /// An entry's fields after its key, as `decode` reads them.
    private static func write(_ entry: Entry, to writer: inout ByteWriter) {
        writer.list(entry.stamp) { $0.int($1) }
        writer.string(entry.cacheKey)
        writer.string(entry.sourceKey)
        entry.image.write(to: &writer)
    }

    /// `keepingEncoded`: each entry keeps where its bytes are (`Entry.encoded`); a one-off
    /// build's only (a server's entries live on from build to build, past the file's next write).
    private static func decode(_ reader: inout ByteReader, keepingEncoded: Bool) throws -> ([(key: Key, entry: Entry)], [Int]?) {
        let entries = try reader.list { reader -> (key: Key, entry: Entry) in
            let path = try reader.string()
            let role = try reader.rawCase(ImageRole.self)
            let fingerprint = try reader.word()
            let start = reader.offset
            let stamp: [Int64] = try reader.list { try $0.int() }
            let cacheKey = try reader.string(), sourceKey = try reader.string()
            let image = try ProcessedImage(reading: &reader)
            return (Key(path: path, role: role, fingerprint: fingerprint),
                    Entry(stamp: stamp, image: image, cacheKey: cacheKey, sourceKey: sourceKey, encoded: keepingEncoded ? start..<reader.offset : nil))
        }
        // Each entry at most once (as the keys of a look-up are).
        var listed = [Bool](repeating: false, count: entries.count)
        let whole = try reader.optional { reader in try reader.list { reader -> Int in
            let index: Int = try reader.int()
            guard entries.indices.contains(index), !listed[index] else { throw ByteReader.Malformed() }
            listed[index] = true
            return index
        } }
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return (entries, whole)
    }
}
