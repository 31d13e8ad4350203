import Foundation
import GramgenCore

/// Splits a post's media into the photos to copy (numbered `1.jpg`, `2.png` … in carousel
/// order) and the files to report: videos, unknown types, files missing from the export, and
/// photos beyond the site's per-post limit.
struct MediaSorter {
    struct Photo: Equatable {
        var source: URL
        /// Name in the post folder: the photo's position, then its type.
        var name: String
        var alt: String?
    }

    let exportRoot: URL
    let maxPhotos: Int

    func sort(_ media: [ExportMedia]) -> (photos: [Photo], skipped: [(uri: String, reason: ImportReport.SkipReason)]) {
        var photos: [Photo] = []
        var skipped: [(uri: String, reason: ImportReport.SkipReason)] = []
        for item in media {
            guard let url = resolve(item.uri) else {
                skipped.append((item.uri, .missingFromExport))
                continue
            }
            if let problem = Self.fileProblem(url) {
                skipped.append((item.uri, .notReadable(problem)))
                continue
            }
            switch MediaKind.of(url) {
            case .video:
                skipped.append((item.uri, .video))
            case .other:
                skipped.append((item.uri, .unsupported))
            case .image(let ext):
                if photos.count == maxPhotos {
                    skipped.append((item.uri, .overLimit(maxPhotos)))
                } else {
                    photos.append(Photo(source: url, name: "\(photos.count + 1).\(ext)", alt: item.alt))
                }
            }
        }
        return (photos, skipped)
    }

    /// Largest media file copied from an export (the build's limit for one image).
    static let maxBytes = InputFile.maxMediaBytes

    /// Why an export file is not read: not a regular file (a FIFO would block the import for
    /// ever), or larger than `maxBytes`; checked before anything opens it.
    static func fileProblem(_ url: URL) -> String? {
        switch InputFile.check(atPath: url.path) {
        case .success(let size) where size > maxBytes: return InputFile.Failure.tooLarge(limit: maxBytes).message
        case .success: return nil
        case .failure(let failure): return failure.message
        }
    }

    /// The file a `uri` names, if it is a regular file inside the export (a `uri` with `../`
    /// or a link pointing elsewhere is treated as missing rather than followed).
    func resolve(_ uri: String) -> URL? {
        guard !uri.contains("://"), !uri.hasPrefix("/") else { return nil }
        let root = exportRoot.resolvingSymlinksInPath().standardizedFileURL
        let url = root.appendingPathComponent(uri).resolvingSymlinksInPath().standardizedFileURL
        guard url.path.hasPrefix(root.path + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return url
    }
}
