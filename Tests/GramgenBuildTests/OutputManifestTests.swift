import Foundation
import Testing
@testable import GramgenBuild

/// The manifest a build leaves (`OutputManifest`) reads back exactly as it was written, and a line
/// it cannot read is skipped, never half read.
struct OutputManifestTests {
    @Test("entries round-trip, extreme numbers included; malformed lines are skipped")
    func roundTrip() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(folder) }
        let url = folder.appendingPathComponent("m.files")
        var manifest = OutputManifest()
        manifest.listsEverything = true
        manifest.entries = [
            "index.html": .init(inputs: .inputs(0xabc), content: 0xdef, size: 12, modified: 1_764_000_000_123_456_789, inode: 42),
            "tags/ça va/index.html": .init(inputs: .always, content: UInt64.max, size: 0, modified: -86_400_000_000_000, inode: UInt64.max),
            "media/x.webp": .init(inputs: .placed, content: nil, size: Int64.max, modified: 0, inode: 0),
            "feed/2.json": .init(inputs: .later, content: 0, size: 1, modified: 2, inode: 3),
        ]
        manifest.save(url)
        let read = OutputManifest.load(url)
        #expect(read.entries == manifest.entries)
        #expect(read.listsEverything)

        let (i, c) = ("00000000000000ff", "0123456789abcdef")
        let text = "a\t\(i)\t\(c)\t1\t2\t3\n" + "short\t1\t2\n" + "over\t\(i)\t\(c)\t1\t2\t18446744073709551616\n"
            + "letters\t\(i)\t\(c)\t1x\t2\t3\n" + "empty\t\(i)\t\(c)\t\t2\t3\n" + "extra\t\(i)\t\(c)\t1\t2\t3\t4\n"
            + "short digest\tff\t\(c)\t1\t2\t3\n" + "upper case\t\(i)\t0123456789ABCDEF\t1\t2\t3\n"
            + "unknown word\tplaces\t\t1\t2\t3\n" + "b\t\t\t5\t-6\t7\n" + "m\tplaced\t\t8\t9\t10"
        try Data(text.utf8).write(to: url)
        let partial = OutputManifest.load(url)
        #expect(partial.entries == ["a": .init(inputs: .inputs(255), content: 0x0123456789abcdef, size: 1, modified: 2, inode: 3),
                                    "b": .init(inputs: .always, content: nil, size: 5, modified: -6, inode: 7),
                                    "m": .init(inputs: .placed, content: nil, size: 8, modified: 9, inode: 10)])
        #expect(!partial.listsEverything)
    }
}
