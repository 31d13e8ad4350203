import Foundation
import GramgenCore

/// Which files are photos and videos (see `MediaType`), and safe access to them inside the content folder.
enum ImageFiles {
    /// A photo: what an avatar must be.
    static func isImage(_ name: String) -> Bool {
        MediaType(fileExtension: pathExtension(name)) == .photo
    }

    /// A photo or a video: what a post holds.
    static func isMedia(_ name: String) -> Bool {
        MediaType(fileExtension: pathExtension(name)) != nil
    }

    /// `(name as NSString).pathExtension`, worked out directly for the usual names — letters,
    /// digits, `-`, `_` and dots, neither first nor last — where it is what follows the last dot.
    static func pathExtension(_ name: String) -> String {
        let bytes = name.utf8
        guard let first = bytes.first, let last = bytes.last, first != UInt8(ascii: "."), last != UInt8(ascii: "."),
              bytes.allSatisfy(isPlainNameByte) else {
            return (name as NSString).pathExtension
        }
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return "" }
        return String(name[bytes.index(after: dot)...])
    }

    private static func isPlainNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// Photos (or, with `videos`, photos and videos) directly in a folder, hidden files left out, in natural order.
    static func list(in folder: URL, videos: Bool = false) -> [String] {
        list(inFolderAtPath: folder.path, videos: videos)
    }

    static func list(inFolderAtPath folderPath: String, videos: Bool = false) -> [String] {
        // Foundation shows a name that is not UTF-8 with U+FFFD in it; `NameCheck` reports those.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []
        return names.filter { !$0.hasPrefix(".") && (videos ? isMedia($0) : isImage($0)) && !$0.contains("\u{FFFD}") }
            .sorted(by: NaturalOrder.less)
    }

    /// Why a file cannot be used as an image source, or nil: it must exist, be a regular file,
    /// and (after following links) stay inside `content/`.
    /// `listedIn` names the front-matter key that named the file, for the hint.
    static func problem(with url: URL, contentRoot: URL, listedIn key: String = "images:")
        -> (message: String, hint: String)? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return ("the file does not exist", "check the file name, or remove it from `\(key)`")
        }
        if isDirectory.boolValue {
            return ("this is a folder, not a file", "name a photo or video file")
        }
        if !FileContainment.isInside(url, contentRoot) {
            return ("the file is a link to a file outside content/", "copy the file into the post's folder")
        }
        return fileProblem(atPath: url.path)
    }

    /// Larger files are refused before anything reads them.
    static func maxBytes(path: String) -> Int {
        MediaType(fileExtension: pathExtension(path)) == .video ? InputFile.maxVideoBytes : InputFile.maxMediaBytes
    }

    /// Why an existing photo or video file cannot be read: not a regular file (a FIFO would block
    /// the reader for ever), too large, or not readable; nil when it can be.
    static func fileProblem(atPath path: String) -> (message: String, hint: String)? {
        let limit = maxBytes(path: path)
        switch InputFile.check(atPath: path) {
        case .success(let size) where size > limit:
            let failure = InputFile.Failure.tooLarge(limit: limit)
            return (failure.message, limit == InputFile.maxVideoBytes ? "export the video again shorter or smaller"
                        : "export the photo again at a smaller size")
        case .success:
            guard access(path, R_OK) == 0 else {
                let failure = InputFile.Failure.unreadable(String(cString: strerror(errno)))
                return (failure.message, failure.hint)
            }
            return nil
        case .failure(let failure):
            return (failure.message, failure.hint)
        }
    }
}
