import Foundation
import GramgenCore
import Yams

/// Reads `content/site.yml`; a missing file or key takes the default.
enum SiteConfigLoader {
    static let path = "content/site.yml"
    static let keys = ["title", "description", "base_url", "language", "posts_per_page", "max_images_per_post",
                       "max_hashtags_per_post", "show_exif", "images", "videos", "max_video_seconds", "max_video_megapixels",
                       "offline"]
    /// The site's logo, next to site.yml, first found first.
    static let logoNames = ["logo.png", "logo.jpg", "logo.jpeg", "logo.webp"]
    static let imageKeys = ["widths", "formats", "quality", "thumbnail", "strip_metadata", "max_megapixels"]
    static let videoKeys = ["sizes", "quality", "preset", "audio_bitrate", "webm"]

    static func load(siteRoot: URL, diagnostics: inout Diagnostics) -> SiteConfig {
        var config = readSettings(siteRoot: siteRoot, diagnostics: &diagnostics)
        config.logo = logo(siteRoot: siteRoot, diagnostics: &diagnostics)
        return config
    }

    /// `content/logo.*` when there is one and it can be used (a problem with it is an error naming it).
    static func logo(siteRoot: URL, diagnostics: inout Diagnostics) -> ImageSource? {
        let content = siteRoot.appendingPathComponent("content")
        for name in logoNames {
            let url = content.appendingPathComponent(name)
            var info = stat()
            guard lstat(url.path, &info) == 0 else { continue }
            if let problem = ImageFiles.problem(with: url, contentRoot: content, listedIn: "content/") {
                diagnostics.error(SourceLocation("content/" + name), "the site's logo: \(problem.message)", hint: problem.hint)
                return nil
            }
            return ImageSource(path: "content/" + name, fileURL: url, alt: "")
        }
        return nil
    }

    private static func readSettings(siteRoot: URL, diagnostics: inout Diagnostics) -> SiteConfig {
        var config = SiteConfig()
        let url = siteRoot.appendingPathComponent(path)
        guard let text = TextFile.read(url, path: path, required: false, within: siteRoot.appendingPathComponent("content"),
                                       diagnostics: &diagnostics) else { return config }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text, .default, .default, YAMLEncoding.default)
        } catch {
            diagnostics.append(YAMLErrorDescriber.diagnostic(for: error, path: path, lineOffset: 0, lineMap: YAMLLineMap(text)))
            return config
        }
        guard let node else { return config }
        guard let mapping = node.mapping else {
            diagnostics.error(SourceLocation(path, line: 1), "site.yml must be a list of `key: value` lines",
                              hint: "see the README for the keys")
            return config
        }
        let fields = FrontMatterFields(mapping: mapping, path: path, lineOffset: 0, lineMap: YAMLLineMap(text))
        fields.warnUnknownKeys(known: keys, diagnostics: &diagnostics)
        if let title = fields.string("title", diagnostics: &diagnostics) { config.title = title }
        if let text = fields.string("description", diagnostics: &diagnostics) { config.description = text }
        if let language = fields.string("language", diagnostics: &diagnostics) {
            if isLanguageTag(language) {
                config.language = language
            } else {
                diagnostics.error(fields.location(of: fields.node("language")), "'\(language)' is not a language tag",
                                  hint: "write a BCP 47 tag such as `language: en`, `de-CH` or `zh-Hant`")
            }
        }
        if let base = fields.string("base_url", diagnostics: &diagnostics) {
            if let normalized = normalizedBaseURL(base) {
                config.baseURL = normalized
            } else {
                diagnostics.error(fields.location(of: fields.node("base_url")), "base_url must be an http(s) URL",
                                  hint: "write for example `base_url: https://example.com/photos/`")
            }
        }
        if let n = fields.int("posts_per_page", in: 1...500, diagnostics: &diagnostics) { config.postsPerPage = n }
        if let n = fields.int("max_images_per_post", in: 1...100, diagnostics: &diagnostics) { config.maxImagesPerPost = n }
        if let n = fields.int("max_hashtags_per_post", in: 1...1000, diagnostics: &diagnostics) { config.maxHashtagsPerPost = n }
        if let show = fields.bool("show_exif", diagnostics: &diagnostics) { config.showExif = show }
        if let offline = fields.bool("offline", diagnostics: &diagnostics) { config.offline = offline }
        if let images = fields.node("images") {
            if let imageMapping = images.mapping {
                let imageFields = fields.nested(imageMapping)
                readImages(imageFields, into: &config.images, diagnostics: &diagnostics)
            } else {
                diagnostics.error(fields.location(of: images), "'images' must hold `widths`, `formats`, … keys",
                                  hint: "indent them under `images:`")
            }
        }
        if let videos = fields.node("videos") {
            if let videoMapping = videos.mapping {
                readVideos(fields.nested(videoMapping), into: &config.videos, diagnostics: &diagnostics)
            } else {
                diagnostics.error(fields.location(of: videos), "'videos' must hold `sizes`, `quality`, … keys",
                                  hint: "indent them under `videos:`")
            }
        }
        if let seconds = positiveNumber("max_video_seconds", in: fields, example: 900, diagnostics: &diagnostics) {
            config.maxVideoSeconds = seconds
        }
        if let mp = positiveNumber("max_video_megapixels", in: fields, example: 9, diagnostics: &diagnostics) {
            config.maxVideoMegapixels = mp
        }
        return config
    }

    /// A key that must hold a number above zero, or nil (with an error when it holds something else).
    private static func positiveNumber(_ key: String, in fields: FrontMatterFields, example: Int,
                                       diagnostics: inout Diagnostics) -> Double? {
        guard let node = fields.node(key) else { return nil }
        if let number = node.float, number > 0, number.isFinite { return number }
        diagnostics.error(fields.location(of: node), "'\(key)' must be a positive number",
                          hint: "write for example `\(key): \(example)`")
        return nil
    }

    /// A list of pixel sizes, each in `range`: sorted, without repeats; nil when absent or none is valid.
    private static func sizeList(_ key: String, in fields: FrontMatterFields, range: ClosedRange<Int>, what: String,
                                 unit: String, diagnostics: inout Diagnostics) -> [Int]? {
        guard let items = fields.stringList(key, diagnostics: &diagnostics) else { return nil }
        var parsed: [Int] = []
        for (text, location) in items {
            if let size = Int(text), range.contains(size) {
                parsed.append(size)
            } else {
                diagnostics.error(location, "'\(text)' is not \(what)",
                                  hint: "use whole numbers from \(range.lowerBound) to \(range.upperBound)\(unit)")
            }
        }
        return parsed.isEmpty ? nil : Array(Set(parsed)).sorted()
    }

    private static func readVideos(_ fields: FrontMatterFields, into videos: inout VideoSettings,
                                   diagnostics: inout Diagnostics) {
        fields.warnUnknownKeys(known: videoKeys, diagnostics: &diagnostics)
        if let sizes = sizeList("sizes", in: fields, range: 64...4096, what: "a video size",
                                unit: " (the long side in pixels)", diagnostics: &diagnostics) {
            videos.sizes = sizes
        }
        if let q = fields.int("quality", in: 0...51, diagnostics: &diagnostics) { videos.quality = q }
        if let preset = fields.string("preset", diagnostics: &diagnostics) {
            if VideoSettings.presets.contains(preset) {
                videos.preset = preset
            } else {
                diagnostics.error(fields.location(of: fields.node("preset")), "unknown video preset '\(preset)'",
                                  hint: "use one of \(VideoSettings.presets.joined(separator: ", "))")
            }
        }
        if let rate = fields.int("audio_bitrate", in: 32...320, diagnostics: &diagnostics) { videos.audioBitrate = rate }
        if let webm = fields.string("webm", diagnostics: &diagnostics) {
            if let codec = WebMCodec(rawValue: webm.lowercased()) {
                videos.webm = codec
            } else if ["none", "false", "no", "off"].contains(webm.lowercased()) {
                videos.webm = nil
            } else {
                diagnostics.error(fields.location(of: fields.node("webm")), "unknown WebM codec '\(webm)'",
                                  hint: "use `webm: vp9`, `webm: av1` or leave the key out")
            }
        }
    }

    private static func readImages(_ fields: FrontMatterFields, into images: inout ImageSettings,
                                   diagnostics: inout Diagnostics) {
        fields.warnUnknownKeys(known: imageKeys, diagnostics: &diagnostics)
        if let widths = sizeList("widths", in: fields, range: 16...8192, what: "an image width", unit: "",
                                 diagnostics: &diagnostics) {
            images.widths = widths
        }
        if let formats = fields.stringList("formats", diagnostics: &diagnostics) {
            var parsed: [ImageFormat] = []
            for (text, location) in formats {
                let name = text.lowercased() == "jpg" ? "jpeg" : text.lowercased()
                if let format = ImageFormat(rawValue: name) {
                    if !parsed.contains(format) { parsed.append(format) }
                } else {
                    diagnostics.error(location, "unknown image format '\(text)'", hint: "use avif, webp or jpeg")
                }
            }
            if !parsed.isEmpty { images.formats = parsed }
        }
        if let q = fields.int("quality", in: 1...100, diagnostics: &diagnostics) { images.quality = q }
        if let t = fields.int("thumbnail", in: 32...2048, diagnostics: &diagnostics) { images.thumbnail = t }
        if let strip = fields.bool("strip_metadata", diagnostics: &diagnostics) { images.stripMetadata = strip }
        if let mp = positiveNumber("max_megapixels", in: fields, example: 100, diagnostics: &diagnostics) {
            images.maxMegapixels = mp
        }
    }

    /// The shape of a BCP 47 tag (`en`, `pt-BR`, `zh-Hant-TW`): it goes into `lang="…"` and `xml:lang`.
    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return false
        }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// `https://example.com/photos` → `https://example.com/photos/`; nil unless http(s) with a host.
    public static func normalizedBaseURL(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard WebLink.hasOnlyURLCharacters(trimmed), let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
              url.query == nil, url.fragment == nil else { return nil }
        return trimmed.hasSuffix("/") ? trimmed : trimmed + "/"
    }
}
