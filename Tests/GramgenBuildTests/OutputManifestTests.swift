import Foundation
import Testing
@testable import GramgenBuild

/// The manifest a build leaves (`OutputManifest`) reads back exactly as it was written, and one
/// cut short, damaged or of an older gramgen is not read at all, never half read.
struct OutputManifestTests {
    @Test("entries round-trip, extreme numbers included; a file cut short, damaged or of an older gramgen gives none")
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

        // Read whole or not at all: cut short anywhere, a byte more at its end, or the
        // text of an older gramgen, and nothing of it is taken.
        let bytes = try Data(contentsOf: url)
        for length in stride(from: 0, to: bytes.count, by: 7) {
            try bytes.prefix(length).write(to: url)
            #expect(OutputManifest.load(url).entries.isEmpty, "cut at \(length) of \(bytes.count)")
        }
        var longer = bytes
        longer.append(0)
        try longer.write(to: url)
        #expect(OutputManifest.load(url).entries.isEmpty)
        try Data("#gramgen files\t2\nindex.html\t0000000000000abc\t0000000000000def\t12\t1\t42\n".utf8).write(to: url)
        let older = OutputManifest.load(url)
        #expect(older.entries.isEmpty && !older.listsEverything)
    }
}
