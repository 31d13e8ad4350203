import Testing
@testable import GramgenCore

/// `TableHash`, the hash of the output manifest's table of paths.
struct TableHashTests {
    @Test("the same bytes hash alike wherever they lie; 60,000 paths of a site, each byte changed, and trailing zeros hash apart")
    func spread() {
        func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.withUnsafeBytes { TableHash.value($0) } }
        var seen: [UInt64: String] = [:]
        var clashes = 0
        for user in 0..<100 {
            for post in 0..<200 {
                for file in ["index.html", "likes/index.html", "feed.json"] {
                    let path = "user\(user)/p/2024-\(post / 28 + 1)-\(post % 28 + 1)-post-\(post)/\(file)"
                    let value = hash(Array(path.utf8)[...])
                    if let other = seen.updateValue(path, forKey: value), other != path { clashes += 1 }
                }
            }
        }
        #expect(seen.count == 60_000 && clashes == 0)
        let path = Array("ana.haddad/p/2024-01-11-sunday-back-cold/index.html".utf8)
        // At every offset in a larger buffer (the table reads its keys where they lie).
        for offset in 0..<9 {
            let buffer = [UInt8](repeating: 0x41, count: offset) + path + [0x42]
            #expect(hash(buffer[offset..<(offset + path.count)]) == hash(path[...]))
        }
        var values: Set<UInt64> = [hash(path[...])]
        for index in path.indices {
            var changed = path
            changed[index] ^= 1
            values.insert(hash(changed[...]))
        }
        for zeros in 1...9 { values.insert(hash((path + [UInt8](repeating: 0, count: zeros))[...])) }
        values.insert(hash([][...]))
        #expect(values.count == 1 + path.count + 9 + 1)
    }
}
