import Foundation
import GramgenCore

/// Splits a post's media into the photos and videos to copy (numbered `1.jpg`, `2.mp4` … in
/// carousel order) and the files to report: unknown types, files missing from the export, and
/// media beyond the site's per-post limit.
struct MediaSorter {
    struct Media: Equatable {
        var source: URL
        /// Name in the post folder: the position, then the type found in the file's bytes.
        var name: String
        var alt: String?
        var isVideo: Bool
        /// Where the export names it.
        var uri: String
    }

    let exportRoot: URL
    let maxMedia: Int

    func sort(_ media: [ExportMedia]) -> (media: [Media], skipped: [(uri: String, reason: ImportReport.SkipReason)]) {
        var kept: [Media] = []
        var skipped: [(uri: String, reason: ImportReport.SkipReason)] = []
        for item in media {
            guard let url = resolve(item.uri) else {
                skipped.append((item.uri, .missingFromExport))
                continue
            }
            if let problem = Self.fileProblem(url, limit: InputFile.maxVideoBytes) {
                skipped.append((item.uri, .notReadable(problem)))
                continue
            }
            let kind = MediaKind.of(url)
            let (ext, isVideo): (String, Bool)
            switch kind {
            case .other:
                skipped.append((item.uri, .unsupported))
                continue
            case .image(let found):
                if let problem = Self.fileProblem(url) {
                    skipped.append((item.uri, .notReadable(problem)))
                    continue
                }
                (ext, isVideo) = (found, false)
            case .video(let found):
                (ext, isVideo) = (found, true)
            }
            if kept.count == maxMedia {
                skipped.append((item.uri, .overLimit(maxMedia)))
            } else {
                kept.append(Media(source: url, name: "\(kept.count + 1).\(ext)", alt: item.alt, isVideo: isVideo, uri: item.uri))
            }
        }
        return (kept, skipped)
    }

    /// Why an export file is not read: not a regular file (a FIFO would block the import for
    /// ever), or larger than `limit` (a photo's, unless told); checked before anything opens it.
    static func fileProblem(_ url: URL, limit: Int = InputFile.maxMediaBytes) -> String? {
        switch InputFile.check(atPath: url.path) {
        case .success(let size) where size > limit: return InputFile.Failure.tooLarge(limit: limit).message
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
