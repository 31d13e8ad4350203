import Foundation
import GramgenCore

/// A post's folder: its URL is only built when needed, as building one asks the disk whether it
/// names a folder; when the folder is reached without links, one `readdir` tells which of its
/// entries are regular files, and so inside content/ (see `ContentFolder`).
struct PostFolder {
    let contentRoot: URL
    /// `users/<handle>/posts/<id>`.
    let relativePath: String
    /// `url.path`.
    let path: String
    /// The folder is reached from content/ without links.
    let isPlain: Bool
    /// The folder's entries, when it is plain and could be read.
    private let listing: [ContentFolder.Listed]?

    init(contentRoot: URL, contentPath: String, relativePath: String, isPlain: Bool) {
        self.contentRoot = contentRoot
        self.relativePath = relativePath
        path = contentPath + "/" + relativePath
        self.isPlain = isPlain
        listing = isPlain ? ContentFolder.listing(ofFolderAtPath: path) : nil
    }

    var url: URL { contentRoot.appendingPathComponent(relativePath) }

    /// Whether the folder is plain and `name` in it is a regular file, not a link.
    func isPlainFile(_ name: String) -> Bool {
        guard isPlain else { return false }
        guard let listing else { return ContentFolder.entry(atPath: path + "/" + name) == .file }
        // Names on disk are bytes: compare bytes, not canonically equivalent strings.
        return listing.contains { $0.entry == .file && $0.name.utf8.elementsEqual(name.utf8) }
    }

    /// `ImageFiles.list(in: url)`, each name with whether it is known to be a regular file.
    func imageFiles() -> [(name: String, isPlainFile: Bool)] {
        guard let listing else { return ImageFiles.list(inFolderAtPath: path, videos: true).map { ($0, false) } }
        return listing.filter { !$0.name.hasPrefix(".") && ImageFiles.isMedia($0.name) }
            .sorted { NaturalOrder.less($0.name, $1.name) }
            .map { ($0.name, $0.entry == .file) }
    }

    /// The URL of the image file `name` in the folder, and what makes it unusable, if anything.
    /// - Parameter isPlainFile: `isPlainFile(name)` is known to be true.
    func image(_ name: String, isPlainFile known: Bool = false) -> (url: URL, problem: (message: String, hint: String)?) {
        if known || (ContentFolder.isPlainName(name) && isPlainFile(name)) {
            // A regular file, no link, in a folder reached without links: it exists, is inside
            // content/ and is not a folder, so this is the URL `url.appendingPathComponent(name)` builds.
            let url = contentRoot.appendingPathComponent(relativePath + "/" + name, isDirectory: false)
            return (url, ImageFiles.fileProblem(atPath: url.path))
        }
        let url = url.appendingPathComponent(name)
        return (url, ImageFiles.problem(with: url, contentRoot: contentRoot))
    }
}
