import Testing
@testable import GramgenCore

struct DigestBuilderTests {
    static func digest(_ parts: [String]) -> UInt64 {
        var digest = DigestBuilder()
        for part in parts { digest.add(part) }
        return digest.value
    }

    /// Pages are compared between builds by these digests: two inputs that differ must not meet.
    /// Every text of 0 to 40 bytes with one bit of one byte flipped, and the same texts cut in two
    /// at every place, give distinct digests. Seeded; the seed is printed.
    @Test("a flipped bit, a different cut or another order changes the digest")
    func sensitive() {
        var random = SeededRandom.forTest("DigestBuilderTests.sensitive")
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
            let text = String(decoding: bytes, as: UTF8.self)
            var seen: Set<UInt64> = [Self.digest([text])]
            for index in bytes.indices {
                for bit in 0..<7 {
                    var changed = bytes
                    changed[index] ^= 1 << bit
                    seen.insert(Self.digest([String(decoding: changed, as: UTF8.self)]))
                }
            }
            #expect(seen.count == 1 + length * 7, "length \(length)")
            var cuts: Set<UInt64> = []
            for cut in 0...length {
                cuts.insert(Self.digest([String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]))
            }
            #expect(cuts.count == length + 1 && cuts.isDisjoint(with: seen), "length \(length)")
        }
        #expect(Self.digest(["a", "b"]) != Self.digest(["b", "a"]))
        #expect(Self.digest(["a\u{0}"]) != Self.digest(["a"]))
        var numbers = DigestBuilder(), swapped = DigestBuilder()
        numbers.add(1); numbers.add(2)
        swapped.add(2); swapped.add(1)
        #expect(numbers.value != swapped.value)
        #expect(DigestBuilder.unordered(["x", "y", "z"]) == DigestBuilder.unordered(["z", "x", "y"]))
        #expect(DigestBuilder.unordered(["x", "y"]) != DigestBuilder.unordered(["x", "z"]))
    }

    @Test("the words of a buffer and its last bytes, at every length and offset within a larger buffer, are those of a byte-by-byte reading (seeded)")
    func wordsAndTail() {
        var random = SeededRandom.forTest("DigestBuilderTests.wordsAndTail")
        let bytes = (0..<96).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes.withUnsafeBytes { all in
            for start in 0..<24 {
                for length in 0...(all.count - start - 8) {
                    let buffer = UnsafeRawBufferPointer(rebasing: all[start..<(start + length)])
                    var words: [UInt64] = []
                    let tail = buffer.forEachWord { words.append($0) }
                    var expected: [UInt64] = [], expectedTail: UInt64 = 0
                    for index in 0..<length {
                        let word = index / 8
                        if word == length / 8 {
                            expectedTail |= UInt64(buffer[index]) << (UInt64(index % 8) * 8)
                        } else {
                            if expected.count == word { expected.append(0) }
                            expected[word] |= UInt64(buffer[index]) << (UInt64(index % 8) * 8)
                        }
                    }
                    #expect(words == expected && tail == expectedTail, "start \(start), length \(length)")
                }
            }
        }
    }
}
