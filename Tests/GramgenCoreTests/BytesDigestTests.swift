import Testing
@testable import GramgenCore

struct BytesDigestTests {
    @Test("a one-byte change anywhere, or trailing zero bytes, change the digest")
    func sensitive() {
        // Long enough for every path of the digest: blocks of four words, single words, a tail.
        let page = Array("<!doctype html><title>x</title><p>caption with some words</p><p>and a second paragraph, long enough for four blocks</p>".utf8)
        func digest(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { BytesDigest.value($0) } }
        var seen: Set<UInt64> = [digest(page)]
        for index in page.indices {
            var changed = page
            changed[index] ^= 1
            seen.insert(digest(changed))
        }
        for zeros in 1...9 { seen.insert(digest(page + [UInt8](repeating: 0, count: zeros))) }
        seen.insert(digest([]))
        #expect(seen.count == 1 + page.count + 9 + 1)
        #expect(digest(page) == digest(Array(page)))
    }

    @Test("words moved between places change the digest")
    func positions() {
        func digest(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { BytesDigest.value($0) } }
        let words = (0..<12).map { Array("word\($0 + 10)xx".utf8) }  // eight bytes each
        let page = words.flatMap { $0 }
        var seen: Set<UInt64> = [digest(page)]
        for (a, b) in [(0, 1), (0, 4), (1, 2), (3, 7), (8, 9), (10, 11), (0, 11)] {
            var swapped = words
            swapped.swapAt(a, b)
            seen.insert(digest(swapped.flatMap { $0 }))
        }
        #expect(seen.count == 8)
    }
}
