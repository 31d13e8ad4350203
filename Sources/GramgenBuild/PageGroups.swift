import Foundation
import GramgenCore

/// The groups of pages a one-off build queued or took over (`PageSet.addGroup`), kept beside the
/// output's manifest (`<manifest>.groups`), so that the next build into the same output takes an
/// unchanged group's pages over without queueing them, as a server's next build does: 20,000 post
/// and likes pages at 10,000 posts, of which a caption edit changes a handful. Each file of a group
/// is still taken over only as the manifest records it and as it is on disk (`takeOverGroup`).
/// Bound to the manifest written with them by its identity (size, modification time, inode): with
/// any other manifest (a build killed between the two writes, a manifest replaced) they are not
/// used. A group's inputs cover the gramgen that drew it (`InputDigests`).
extension Publisher.PageGroup {
    private static let magic = "gramgen page groups 1"

    static func path(_ manifestURL: URL) -> String { manifestURL.path + ".groups" }

    /// The groups kept with the manifest of this identity; none for any other, or for a file cut
    /// short, damaged or not a plain file.
    static func read(_ path: String, manifest: FileIdentity?) -> [String: Self] {
        guard let manifest, var reader = KeptFile.reader(atPath: path, limit: InputFile.maxMediaBytes, magic: magic, salt: ""),
              let groups = try? decode(&reader, manifest: manifest) else { return [:] }
        return groups
    }

    static func write(_ groups: [String: Self], to path: String, manifest: FileIdentity) {
        KeptFile.write(toPath: path, magic: magic, salt: "") { writer, file in
            writer.int(manifest.size)
            writer.int(manifest.modified)
            writer.word(manifest.inode)
            writer.list(Array(groups)) { writer, item in
                writer.string(item.key)
                writer.word(item.value.inputs)
                writer.strings(item.value.files)
                writer.strings(item.value.sitemap)
                writer.flush(into: file)
            }
        }
    }

    private static func decode(_ reader: inout ByteReader, manifest: FileIdentity) throws -> [String: Self] {
        let identity = FileIdentity(size: try reader.int(), modified: try reader.int(), inode: try reader.word())
        guard identity == manifest else { return [:] }
        let list = try reader.list { reader in
            (try reader.string(), Self(inputs: try reader.word(), files: try reader.strings(), sitemap: try reader.strings()))
        }
        // Its files are taken over by their paths: any that could lead out of the output, and the
        // groups are not used.
        guard list.allSatisfy({ $0.1.files.allSatisfy(OutputManifest.isPlain) }) else { throw ByteReader.Malformed() }
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return Dictionary(list, uniquingKeysWith: { first, _ in first })
    }
}
