import Foundation

/// What a media file of the export is, so photos are copied and everything else is reported.
/// Newer exports sometimes drop the file extension, so the first bytes decide when the name can't.
enum MediaKind: Equatable {
    /// A photo gramgen can publish, with the extension to give the copied file.
    case image(fileExtension: String)
    case video
    case other

    /// The image types the site format accepts (see SITE-FORMAT.md, "Images").
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif", "tif", "tiff", "heic", "heif", "avif"]
    static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "webm", "3gp", "avi", "mkv"]

    static func of(_ url: URL) -> MediaKind {
        let ext = url.pathExtension.lowercased()
        if imageExtensions.contains(ext) { return .image(fileExtension: ext == "jpeg" ? "jpg" : ext) }
        if videoExtensions.contains(ext) { return .video }
        return sniff(url)
    }

    private static func sniff(_ url: URL) -> MediaKind {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return .other }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .image(fileExtension: "jpg") }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return .image(fileExtension: "png") }
        if starts(Array("GIF8".utf8)) { return .image(fileExtension: "gif") }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .image(fileExtension: "webp") }
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            switch brand {
            case "heic", "heix", "mif1", "msf1": return .image(fileExtension: "heic")
            case "avif", "avis": return .image(fileExtension: "avif")
            default: return .video
            }
        }
        return .other
    }
}
