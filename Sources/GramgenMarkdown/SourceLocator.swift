/// Finds where mentions stand in the caption the way a person counts: 1-based line, and a
/// 1-based column in characters (grapheme clusters: in `서울 @a` the `@` is in column 4; a tab is
/// one), counting the control characters `SanitizedInput` removed.
///
/// cmark's byte columns are hints: on indented or lazy continuation lines it misses the stripped
/// prefix (the same amount for the whole line), and in table rows each `\|` shifts it by one.
/// So for each line the one shift that puts every `@handle` reported on it onto an `@handle` in
/// the source wins; failing that (tables), each mention takes the nearest match.
struct SourceLocator {
    /// A mention as cmark placed it.
    struct Hint {
        var handle: String
        var line: Int
        var column: Int
    }

    private let bytes: [UInt8]
    private let lineStarts: [Int]
    private let removedOffsets: [Int: [Int]]
    /// How far from cmark's hint to look; its errors are a few indentation characters.
    private static let searchDistance = 1024

    init(_ input: SanitizedInput) {
        bytes = Array(input.text.utf8)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        lineStarts = starts
        removedOffsets = input.removedOffsets
    }

    /// The line and column of each hint, in the same order.
    func locate(_ hints: [Hint]) -> [(line: Int, column: Int)] {
        var result = hints.map { (line: $0.line, column: $0.column) }
        var indicesByLine: [Int: [Int]] = [:]
        for (index, hint) in hints.enumerated() where hint.line >= 1 && hint.line <= lineStarts.count {
            indicesByLine[hint.line, default: []].append(index)
        }
        for (line, indices) in indicesByLine {
            let start = lineStarts[line - 1]
            let end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
            let needles = indices.map { [UInt8(ascii: "@")] + Array(hints[$0].handle.utf8) }
            let guesses = indices.map { start + hints[$0].column - 1 }
            let offsets = offsets(of: needles, near: guesses, in: start..<end)
            // Characters are counted in ascending order, each count resuming from the last one.
            var counted = start, column = 1
            for position in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
                let offset = offsets[position]
                column += String(decoding: bytes[counted..<offset], as: UTF8.self).count
                counted = offset
                let removed = removedOffsets[line]?.count(where: { $0 <= offset - start }) ?? 0
                result[indices[position]] = (line: line, column: column + removed)
            }
        }
        return result
    }

    private func offsets(of needles: [[UInt8]], near guesses: [Int], in line: Range<Int>) -> [Int] {
        for shift in shifts(placing: needles[0], near: guesses[0], in: line)
        where zip(needles, guesses).allSatisfy({ matches($0, at: $1 + shift, in: line) }) {
            return guesses.map { $0 + shift }
        }
        return zip(needles, guesses).map { needle, guess in
            let clamped = min(max(guess, line.lowerBound), line.upperBound)
            return shifts(placing: needle, near: clamped, in: line, limit: 1).first.map { clamped + $0 } ?? clamped
        }
    }

    /// Every shift that puts `needle` on the line near `guess`, nearest first.
    private func shifts(placing needle: [UInt8], near guess: Int, in line: Range<Int>, limit: Int = .max) -> [Int] {
        var found: [Int] = []
        for distance in 0...Self.searchDistance where found.count < limit {
            if matches(needle, at: guess - distance, in: line) { found.append(-distance) }
            if distance > 0, matches(needle, at: guess + distance, in: line) { found.append(distance) }
            if guess - distance < line.lowerBound && guess + distance >= line.upperBound { break }
        }
        return found
    }

    private func matches(_ needle: [UInt8], at offset: Int, in line: Range<Int>) -> Bool {
        offset >= line.lowerBound && offset + needle.count <= line.upperBound
            && bytes[offset..<(offset + needle.count)].elementsEqual(needle)
    }
}
