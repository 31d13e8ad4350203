import Foundation

/// The one site setting the import must respect: `max_images_per_post` in site.yml, since a
/// 20-photo Instagram carousel would otherwise make the imported post fail the build. Read with a
/// line scan because this target deliberately has no YAML dependency; the build validates the file.
enum SiteLimits {
    static let defaultMaxImagesPerPost = 10

    static func maxImagesPerPost(siteRoot: URL) -> Int {
        let url = siteRoot.appendingPathComponent("content/site.yml")
        guard let text = FileManager.default.contents(atPath: url.path).flatMap({ String(data: $0, encoding: .utf8) })
        else { return defaultMaxImagesPerPost }
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("max_images_per_post:") {
            let value = line.dropFirst("max_images_per_post:".count).split(separator: "#").first ?? ""
            if let n = Int(value.trimmingCharacters(in: .whitespaces)), (1...100).contains(n) { return n }
        }
        return defaultMaxImagesPerPost
    }
}
