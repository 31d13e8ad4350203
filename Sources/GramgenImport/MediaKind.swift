import Foundation
import GramgenCore

/// What a media file of the export is, and the extension to give its copy. The first bytes
/// decide: exports store some videos without an extension and some files under the wrong one
/// (a `.heic` that is a JPEG). The name decides only for types the bytes do not tell apart.
enum MediaKind: Equatable {
    /// A photo gramgen can publish, with the extension to give the copied file.
    case image(fileExtension: String)
    /// A video gramgen can publish, with the extension to give the copied file.
    case video(fileExtension: String)
    case other

    /// Call only on a regular file (see `MediaSorter.fileProblem`): it is read.
    static func of(_ url: URL) -> MediaKind {
        let sniffed = sniff(url)
        if sniffed != .other { return sniffed }
        let ext = url.pathExtension.lowercased()
        switch MediaType(fileExtension: ext) {
        case .photo: return .image(fileExtension: ext == "jpeg" ? "jpg" : ext)
        case .video: return .video(fileExtension: ext)
        case nil: return .other
        }
    }

    private static func sniff(_ url: URL) -> MediaKind {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return .other }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 64)) ?? Data())
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .image(fileExtension: "jpg") }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return .image(fileExtension: "png") }
        if starts(Array("GIF8".utf8)) { return .image(fileExtension: "gif") }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .image(fileExtension: "webp") }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) {
            // EBML: WebM names its document type in the header; other Matroska files are not accepted.
            return head.indices.contains { starts(Array("webm".utf8), at: $0) } ? .video(fileExtension: "webm") : .other
        }
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12 {
            switch String(decoding: head[8..<12], as: UTF8.self) {
            case "heic", "heix", "mif1", "msf1": return .image(fileExtension: "heic")
            case "avif", "avis": return .image(fileExtension: "avif")
            case "qt  ": return .video(fileExtension: "mov")
            case "M4V ", "M4VH", "M4VP": return .video(fileExtension: "m4v")
            default: return .video(fileExtension: "mp4")
            }
        }
        return .other
    }
}
