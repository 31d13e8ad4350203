import Foundation
import GramgenCore

/// Which files are images, and safe access to them inside the content folder.
enum ImageFiles {
    static let extensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif", "tif", "tiff", "heic", "heif", "avif"]

    static func isImage(_ name: String) -> Bool {
        extensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// Image files directly in a folder, hidden files left out, in natural order.
    static func list(in folder: URL) -> [String] {
        list(inFolderAtPath: folder.path)
    }

    static func list(inFolderAtPath folderPath: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []
        return names.filter { !$0.hasPrefix(".") && isImage($0) }.sorted(by: NaturalOrder.less)
    }

    /// Why a file cannot be used as an image source, or nil: it must exist, be a regular file,
    /// and (after following links) stay inside `content/`.
    /// `listedIn` names the front-matter key that named the file, for the hint.
    static func problem(with url: URL, contentRoot: URL, listedIn key: String = "images:")
        -> (message: String, hint: String)? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return ("the image file does not exist", "check the file name, or remove it from `\(key)`")
        }
        if isDirectory.boolValue {
            return ("this is a folder, not an image", "name an image file")
        }
        if !FileContainment.isInside(url, contentRoot) {
            return ("the image is a link to a file outside content/", "copy the file into the post's folder")
        }
        return nil
    }
}
