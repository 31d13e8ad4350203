import Foundation
import Testing
@testable import GramgenCore

struct ByteSearchTests {
    /// `hasByte` agrees with a byte-by-byte look on every byte value, for texts native, sliced,
    /// empty, non-ASCII and bridged from Foundation. Seeded; the seed is printed.
    @Test("hasByte finds exactly the bytes a byte-by-byte look finds")
    func agrees() {
        var random = SeededRandom.forTest("ByteSearchTests.agrees")
        var texts: [String] = ["", "a", "users/ann/posts/2024-01-01-a/1.jpg", "caf\u{E9}/\u{FFFD}", "a\u{0}b", "日本/語"]
        for _ in 0..<40 {
            let length = Int.random(in: 0..<48, using: &random)
            texts.append(String((0..<length).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &random))) }))
        }
        texts.append(NSString(string: "bridged/na\u{EF}ve").description)
        for text in texts {
            let slice = text.dropFirst(min(2, text.count))
            for byte in UInt8.min...UInt8.max {
                #expect(text.hasByte(byte) == text.utf8.contains(byte), "\(text.debugDescription) \(byte)")
                #expect(slice.hasByte(byte) == slice.utf8.contains(byte), "\(slice.debugDescription) \(byte)")
            }
        }
    }
}
