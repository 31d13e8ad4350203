import Foundation
import GramgenCore

/// `content/users/<handle>/.instagram-import.json`: what the last import wrote, so the next one
/// finds each post's folder again (no duplicates) and can tell a file the user has edited since
/// (its hash differs from the one recorded) from one it may safely update.
struct ImportManifest: Codable, Equatable {
    static let fileName = ".instagram-import.json"

    struct PostRecord: Codable, Equatable {
        /// The post's folder under `posts/`.
        var folder: String
        /// Hash of the post.md the import wrote.
        var hash: String
    }

    /// 2: posts are keyed by `PostSync.identity`; version 1's keys are moved over as posts are met.
    var version = 2
    /// Hash of the profile.md the import wrote, if it wrote one.
    var profileHash: String?
    /// The avatar file the import placed, if any.
    var avatar: String?
    /// Keyed by `PostSync.identity` (first media's date and content), or by version 1's `ExportPost.key`.
    var posts: [String: PostRecord] = [:]

    static func hash(_ text: String) -> String { ContentHash.hex(Data(text.utf8)) }

    /// The manifest in `userFolder`, or an empty one when there is none yet.
    static func load(from userFolder: URL, displayPath: String) throws -> ImportManifest {
        let url = userFolder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return ImportManifest() }
        guard let manifest = try? JSONDecoder().decode(ImportManifest.self, from: Data(contentsOf: url)),
              manifest.posts.values.allSatisfy({ isSafeFolderName($0.folder) }),
              manifest.avatar.map(isSafeFolderName) ?? true else {
            throw ImportError.damagedManifest(path: displayPath)
        }
        return manifest
    }

    /// Names read back from the manifest become paths: a hand-edited `../x` must not escape.
    static func isSafeFolderName(_ name: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.".unicodeScalars)
        return !name.isEmpty && name.count <= 100 && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy(allowed.contains)
    }

    func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
