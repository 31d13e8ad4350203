import Foundation
import GramgenCore

extension OutputManifest {
    /// A manifest's entries by path: every path's bytes end to end in one buffer, the entries in
    /// an array beside them, found through an open-addressed table of their positions. At
    /// 100,000 posts a manifest lists 280,000 pages, and a build holds three (the previous
    /// output's, the spare's and its own): as `[String: Entry]`, each path was a string of its own
    /// and each entry a slot of some 135 bytes, 63 MB a manifest at a site-wide change's peak
    /// memory. Here an entry costs its path's bytes, its 56 bytes and 8 to 16 of the table.
    ///
    /// Used as a dictionary (look-up, update, removal, iteration in no given order). A removed
    /// entry keeps its place (its bytes and its slot) until the table is copied whole; removals
    /// are rare (a build's own record of a few files it leaves).
    struct Table: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
        /// The paths' bytes, each after the one before it: the `i`th ends at `ends[i]`.
        private var bytes: [UInt8] = []
        private var ends: [Int] = []
        private var values: [Entry] = []
        /// Empty while nothing was removed; else whether each entry is still in the table.
        private var alive: [Bool] = []
        /// A power of two, never more than three quarters used: 0 for a free slot, else the top
        /// 32 bits of the path's hash above the entry's index + 1.
        private var slots: [UInt64] = []
        private(set) var count = 0

        init() {}

        init(dictionaryLiteral elements: (String, Entry)...) {
            self.init(elements)
        }

        /// The entries given, the last of each path kept.
        init(_ elements: some Collection<(String, Entry)>) {
            reserveCapacity(elements.count)
            for (path, entry) in elements { updateValue(entry, forKey: path) }
        }

        var isEmpty: Bool { count == 0 }

        /// Room for `count` entries and `pathBytes` bytes of their paths, made once.
        mutating func reserveCapacity(_ count: Int, pathBytes: Int = 0) {
            values.reserveCapacity(count)
            ends.reserveCapacity(count)
            if pathBytes > 0 { bytes.reserveCapacity(pathBytes) }
            let wanted = Self.slotCount(for: count)
            if wanted > slots.count { rehash(wanted) }
        }

        subscript(path: String) -> Entry? {
            get { Self.withBytes(path) { index(of: $0) }.map { values[$0] } }
            set {
                if let newValue { updateValue(newValue, forKey: path) } else { removeValue(forKey: path) }
            }
        }

        @discardableResult
        mutating func updateValue(_ value: Entry, forKey path: String) -> Entry? {
            Self.withBytes(path) { update(value, forKey: $0) }
        }

        /// `updateValue` for a path given as its bytes (as a record holds them).
        @discardableResult
        mutating func update(_ value: Entry, forKey key: UnsafeBufferPointer<UInt8>) -> Entry? {
            if (values.count + 1) * 4 > slots.count * 3 { rehash(Self.slotCount(for: values.count + 1)) }
            let hash = Self.hash(key)
            let (slot, found) = find(key, hash: hash)
            if let found {
                defer { values[found] = value }
                if isAlive(found) { return values[found] }
                alive[found] = true
                count += 1
                return nil
            }
            bytes.append(contentsOf: key)
            ends.append(bytes.count)
            values.append(value)
            if !alive.isEmpty { alive.append(true) }
            slots[slot] = hash & 0xffff_ffff_0000_0000 | UInt64(values.count)
            count += 1
            return nil
        }

        @discardableResult
        mutating func removeValue(forKey path: String) -> Entry? {
            guard let index = Self.withBytes(path, { index(of: $0) }) else { return nil }
            if alive.isEmpty { alive = Array(repeating: true, count: values.count) }
            alive[index] = false
            count -= 1
            return values[index]
        }

        /// The paths it lists that `other` does not, looked up on all cores (280,000 at 100,000
        /// posts, most often none of them missing): no string is made for a path `other` lists.
        func keys(notIn other: Table, parallel: Parallel) -> [String] {
            let chunk = 4096
            return Array(parallel.map(count: (values.count + chunk - 1) / chunk) { part in
                (part * chunk..<Swift.min(values.count, (part + 1) * chunk)).compactMap { index -> String? in
                    guard isAlive(index) else { return nil }
                    return withKey(index) { other.index(of: $0) == nil ? String(decoding: $0, as: UTF8.self) : nil }
                }
            }.joined())
        }

        /// Each entry with its path's bytes (no string made), in no given order.
        func forEach(bytes body: (UnsafeBufferPointer<UInt8>, Entry) throws -> Void) rethrows {
            try bytes.withUnsafeBufferPointer { bytes in
                for index in values.indices where isAlive(index) {
                    try body(UnsafeBufferPointer(rebasing: bytes[span(index)]), values[index])
                }
            }
        }

        /// The places entries take, removed ones included: a position (`position(of:)`) is below
        /// this, and stays the entry's while the table is not changed.
        var positions: Int { values.count }

        /// The place of `path`'s entry, for a table of facts about the entries kept beside this one.
        func position(of path: String) -> Int? {
            Self.withBytes(path) { index(of: $0) }
        }

        /// The entry at `position` with its path's bytes; nil for a removed one.
        func withEntry<Result>(at position: Int, _ body: (UnsafeBufferPointer<UInt8>, Entry) -> Result) -> Result? {
            guard isAlive(position) else { return nil }
            return withKey(position) { body($0, values[position]) }
        }

        struct Iterator: IteratorProtocol {
            fileprivate let table: Table
            fileprivate var index = 0

            mutating func next() -> (key: String, value: Entry)? {
                while index < table.values.count {
                    defer { index += 1 }
                    guard table.isAlive(index) else { continue }
                    return (table.withKey(index) { String(decoding: $0, as: UTF8.self) }, table.values[index])
                }
                return nil
            }
        }

        func makeIterator() -> Iterator { Iterator(table: self) }

        var underestimatedCount: Int { count }

        static func == (lhs: Table, rhs: Table) -> Bool {
            lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
        }

        // MARK: - Slots

        private static func slotCount(for count: Int) -> Int {
            var slots = 16
            while slots * 3 < count * 4 { slots *= 2 }
            return slots
        }

        private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
            TableHash.value(UnsafeRawBufferPointer(key))
        }

        private static func withBytes<Result>(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            if let result = path.utf8.withContiguousStorageIfAvailable(body) { return result }
            var copy = path
            return copy.withUTF8(body)
        }

        /// Where the `index`th path's bytes are in `bytes`.
        private func span(_ index: Int) -> Range<Int> {
            (index == 0 ? 0 : ends[index - 1])..<ends[index]
        }

        private func isAlive(_ index: Int) -> Bool {
            alive.isEmpty || alive[index]
        }

        private func withKey<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[span(index)])) }
        }

        private func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
            guard count > 0, let found = find(key, hash: Self.hash(key)).index, isAlive(found) else { return nil }
            return found
        }

        /// The slot of `key`'s entry and its index, or the free slot where it would go.
        private func find(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (slot: Int, index: Int?) {
            let mask = slots.count - 1, tag = hash >> 32
            var slot = Int(truncatingIfNeeded: hash) & mask
            return slots.withUnsafeBufferPointer { slots in
                bytes.withUnsafeBufferPointer { bytes in
                    ends.withUnsafeBufferPointer { ends in
                        while true {
                            let held = slots[slot]
                            if held == 0 { return (slot, nil) }
                            if held >> 32 == tag {
                                let index = Int(held & 0xffff_ffff) - 1
                                let start = index == 0 ? 0 : ends[index - 1]
                                if ends[index] - start == key.count,
                                   key.isEmpty || memcmp(bytes.baseAddress! + start, key.baseAddress!, key.count) == 0 {
                                    return (slot, index)
                                }
                            }
                            slot = (slot + 1) & mask
                        }
                    }
                }
            }
        }

        private mutating func rehash(_ slotCount: Int) {
            var fresh = [UInt64](repeating: 0, count: slotCount)
            let mask = slotCount - 1
            for index in values.indices {
                let hash = withKey(index) { Self.hash($0) }
                var slot = Int(truncatingIfNeeded: hash) & mask
                while fresh[slot] != 0 { slot = (slot + 1) & mask }
                fresh[slot] = hash & 0xffff_ffff_0000_0000 | UInt64(index + 1)
            }
            slots = fresh
        }
    }
}
