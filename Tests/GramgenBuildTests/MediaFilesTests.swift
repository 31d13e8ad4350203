import Foundation
import GramgenCore
import Testing
@testable import GramgenBuild

/// `MediaFiles`: the count and digests of a build's media files made in one pass, the set of
/// names only when asked for.
struct MediaFilesTests {
    /// Images whose variants' names come from a small pool, so some images share files (a photo
    /// published twice) and some names repeat within one image.
    private static func images(_ random: inout SeededRandom, count: Int) -> [String: ProcessedImage] {
        var images: [String: ProcessedImage] = [:]
        for index in 0..<count {
            let variants = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                ImageVariant(format: .webp, width: 100, height: 100, file: "f\(Int.random(in: 0..<(count * 2), using: &random)).webp")
            }
            let squares = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                ImageVariant(format: .jpeg, width: 50, height: 50, file: "s\(Int.random(in: 0..<count, using: &random)).jpg")
            }
            images["content/\(index).jpg"] = ProcessedImage(width: 100, height: 100, variants: variants, squares: squares,
                                                             focusX: 0.5, focusY: 0.5, dominantColor: "#000000", placeholder: "")
        }
        return images
    }

    private static func expected(_ images: [String: ProcessedImage], part: (String) -> UInt64) -> (names: Set<String>, files: UInt64) {
        var names = Set<String>(), files: UInt64 = 0
        for image in images.values {
            _ = image.allFiles { name in
                names.insert(name)
                files &+= part(name)
                return true
            }
        }
        return (names, files)
    }

    @Test("the count and digests are those of the set of names, shared and repeated files counted once; the names are the set (seeded)")
    func countsEachNameOnce() {
        var random = SeededRandom.forTest("MediaFilesTests.countsEachNameOnce")
        for round in 0..<40 {
            let images = Self.images(&random, count: Int.random(in: 0...60, using: &random))
            let (names, files) = Self.expected(images, part: DigestBuilder.unorderedPart)
            let media = MediaFiles(images)
            #expect(media.count == names.count, "round \(round)")
            #expect(media.namesDigest == DigestBuilder.unordered(names), "round \(round)")
            #expect(media.filesDigest == files, "round \(round)")
            #expect(media.names == names, "round \(round)")
        }
    }

    @Test("two names that share a digest part are still two names (seeded)")
    func sharedPartsCounted() {
        var random = SeededRandom.forTest("MediaFilesTests.sharedPartsCounted")
        // A part that many names share: their length.
        let byLength = { (name: String) in UInt64(name.utf8.count) }
        for round in 0..<20 {
            let images = Self.images(&random, count: Int.random(in: 2...60, using: &random))
            let names = Self.expected(images, part: byLength).names
            let media = MediaFiles(images, part: byLength)
            #expect(media.count == names.count, "round \(round)")
            #expect(media.names == names, "round \(round)")
            // Names that share a part are digested as a set; when none do, the parts are summed.
            let shared = Set(names.map(byLength)).count < names.count
            let expected = shared ? DigestBuilder.unordered(names) : names.reduce(UInt64(0)) { $0 &+ byLength($1) }
            #expect(media.namesDigest == expected, "round \(round)")
        }
    }
}
