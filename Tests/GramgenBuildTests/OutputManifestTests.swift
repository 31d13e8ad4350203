import Foundation
import Testing
@testable import GramgenBuild
import GramgenCore

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
        var read = OutputManifest.load(url)
        // The media files are read only when asked for (`readMedia`), their names' digest at once.
        #expect(read.entries["media/x.webp"] == nil && read.unreadMedia.count == 1 && read.count == 4)
        #expect(read.unreadMedia.names == DigestBuilder.unordered(["x.webp"]))
        var again = OutputManifest()
        again.takeMedia(of: read)
        let readWhole = read.readMedia()
        #expect(readWhole)
        #expect(read.entries == manifest.entries)
        #expect(read.listsEverything)
        // Media taken whole from another record are written as they came.
        again.entries = ["index.html": manifest.entries["index.html"]!]
        again.save(url)
        var reread = OutputManifest.load(url)
        let rereadWhole = reread.readMedia()
        #expect(rereadWhole && reread.entries.count == 2 && reread.entries["media/x.webp"] == manifest.entries["media/x.webp"])
        // A damaged media section is found when it is read: none of it is taken.
        var damaged = try Data(contentsOf: url)
        damaged[damaged.count - 1] = 0x80  // the last inode goes on past the end
        try damaged.write(to: url)
        var broken = OutputManifest.load(url)
        #expect(broken.unreadMedia.count == 1)
        let brokenRead = broken.readMedia()
        #expect(!brokenRead && broken.entries["media/x.webp"] == nil && broken.unreadMedia.count == 0)
        manifest.save(url)

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
    @Test("the entries' table answers as a dictionary would, through updates, removals and growth (seeded)")
    func tableAsDictionary() {
        var random = SeededRandom.forTest("OutputManifestTests.tableAsDictionary")
        var table = OutputManifest.Table()
        var model: [String: OutputManifest.Entry] = [:]
        let names = ["", "index.html", "a/b/index.html", "tags/ça va/index.html", "media/x.webp", "p/\u{1F600}/1.html"]
        func path() -> String {
            Bool.random(using: &random) ? names.randomElement(using: &random)! : "u\(Int.random(in: 0..<3000, using: &random))/p/index.html"
        }
        for step in 0..<20_000 {
            let key = path()
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let entry = OutputManifest.Entry(inputs: .inputs(UInt64(step)), content: Bool.random(using: &random) ? nil : UInt64(step),
                                                 size: Int64(step), modified: -Int64(step), inode: UInt64.random(in: 0...UInt64.max, using: &random))
                #expect(table.updateValue(entry, forKey: key) == model.updateValue(entry, forKey: key))
            case 5..<7:
                #expect(table.removeValue(forKey: key) == model.removeValue(forKey: key))
            default:
                #expect(table[key] == model[key], "\(key) at step \(step)")
            }
            #expect(table.count == model.count)
        }
        #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == model)
        var seen = 0
        table.forEach { bytes, entry in
            seen += 1
            #expect(model[String(decoding: bytes, as: UTF8.self)] == entry)
        }
        #expect(seen == model.count)
        // What one table lists and another does not, each once.
        var other = OutputManifest.Table()
        for key in model.keys where Bool.random(using: &random) { other[key] = model[key] }
        let missing = table.keys(notIn: other, parallel: Parallel(jobs: 2))
        #expect(missing.sorted() == model.keys.filter { other[$0] == nil }.sorted())
        #expect(table == OutputManifest.Table(model.map { ($0.key, $0.value) }) && table != other)
    }
}
