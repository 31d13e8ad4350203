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
            "index.html": .init(inputs: "abc", content: "def", size: 12, modified: 1_764_000_000_123_456_789, inode: 42),
            "tags/ça va/index.html": .init(inputs: "", content: "", size: 0, modified: -86_400_000_000_000, inode: UInt64.max),
            "media/x.webp": .init(inputs: OutputManifest.placed, content: "", size: Int64.max, modified: 0, inode: 0),
        ]
        manifest.save(url)
        let read = OutputManifest.load(url)
        #expect(read.entries == manifest.entries)
        #expect(read.listsEverything)

        let text = "a\tb\tc\t1\t2\t3\n" + "short\t1\t2\n" + "over\ti\tc\t1\t2\t18446744073709551616\n"
            + "letters\ti\tc\t1x\t2\t3\n" + "empty\ti\tc\t\t2\t3\n" + "extra\ti\tc\t1\t2\t3\t4\n" + "b\t\t\t5\t-6\t7"
        try Data(text.utf8).write(to: url)
        let partial = OutputManifest.load(url)
        #expect(partial.entries == ["a": .init(inputs: "b", content: "c", size: 1, modified: 2, inode: 3),
                                    "b": .init(inputs: "", content: "", size: 5, modified: -6, inode: 7)])
        #expect(!partial.listsEverything)
    }
}
