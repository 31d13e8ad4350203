import Testing
@testable import GramgenCore

struct BytesDigestTests {
    @Test("a one-byte change anywhere, or trailing zero bytes, change the digest")
    func sensitive() {
        let page = Array("<!doctype html><title>x</title><p>caption with some words</p>".utf8)
        var seen: Set<String> = [BytesDigest.hex(page)]
        for index in page.indices {
            var changed = page
            changed[index] ^= 1
            seen.insert(BytesDigest.hex(changed))
        }
        for zeros in 1...9 { seen.insert(BytesDigest.hex(page + [UInt8](repeating: 0, count: zeros))) }
        seen.insert(BytesDigest.hex([]))
        #expect(seen.count == 1 + page.count + 9 + 1)
        #expect(BytesDigest.hex(page) == BytesDigest.hex(Array(page)))
    }
}
