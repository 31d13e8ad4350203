import Testing
@testable import GramgenCore

struct BytesDigestTests {
    @Test("a one-byte change anywhere, or trailing zero bytes, change the digest")
    func sensitive() {
        let page = Array("<!doctype html><title>x</title><p>caption with some words</p>".utf8)
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
}
