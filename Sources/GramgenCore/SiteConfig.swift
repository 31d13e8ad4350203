/// An output image format, in the order a `<picture>` lists its sources.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case avif, webp, jpeg

    public var mimeType: String { "image/\(rawValue)" }
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}

/// `images:` in site.yml: how every photo is published.
public struct ImageSettings: Sendable, Hashable, Codable {
    public var widths: [Int] = [320, 640, 1080, 1440]
    public var formats: [ImageFormat] = [.avif, .webp, .jpeg]
    public var quality: Int = 80
    /// Per-format overrides of `quality` (`quality: {avif: 50, webp: 78, jpeg: 82}` in site.yml).
    public var qualities: [ImageFormat: Int] = [:]
    public var thumbnail: Int = 480
    public var stripMetadata: Bool = true
    public var maxMegapixels: Double = 100
    /// Set for a carousel slide drawn this many times its carousel's width (`forSlide(scale:)`):
    /// its widths are already scaled, and the source's own width is made too when a scaled width
    /// passes it, so the slide gets every pixel it can use. Nil (and left out of the cache key)
    /// otherwise.
    public var slideScale: Double?

    public init() {}

    /// AVIF's quality scale is stricter than JPEG's: unless set, it runs 25 below the common quality,
    /// which gives files about half the size of WebP at a similar look.
    public func quality(for format: ImageFormat) -> Int {
        if let value = qualities[format] { return value }
        return format == .avif ? max(1, quality - 25) : quality
    }

    /// The `<img>` fallback format: the last one listed.
    public var fallbackFormat: ImageFormat { formats.last ?? .jpeg }

    /// The widest the theme draws a carousel, in CSS pixels (`ViewFactory.slideSizes`).
    public static let carouselWidth = 600
    /// The screen density a slide wider than its carousel is made for: a 2× phone or desktop.
    public static let slideDensity = 2

    /// The settings for a carousel slide drawn `scale` times the carousel's width
    /// (`ProcessedImage.slideScale`): one more width, `scale` times the carousel's widest at 2×
    /// (or at the widest configured width, when that is less), so no 2× screen gets an upscaled
    /// slide. Its narrower sizes are the widths the photo already has (its `srcset` offers both).
    /// One width, not every configured one scaled: each scaled width costs its square in pixels to
    /// encode (AVIF most), and the widest of them served densities past 2× only.
    public func forSlide(scale: Double) -> ImageSettings {
        var settings = self
        let widest = widths.max() ?? 0
        let box = min(widest, Self.carouselWidth * Self.slideDensity)
        settings.widths = [max(widest, Int((Double(box) * scale).rounded(.up)))]
        settings.slideScale = scale
        return settings
    }
}

/// A codec for the optional WebM file of each video (`videos: webm:` in site.yml).
public enum WebMCodec: String, Sendable, Hashable, Codable, CaseIterable {
    case vp9, av1
}

/// `videos:` in site.yml: how every video is published. Every video becomes an H.264/AAC MP4
/// (which every browser plays), and optionally a WebM as well.
public struct VideoSettings: Sendable, Hashable, Codable {
    /// Long side of each MP4, in pixels; never upscaled.
    public var sizes: [Int] = [1080]
    /// H.264 constant rate factor: lower is better and larger (18 ≈ transparent, 28 ≈ small).
    public var quality: Int = 23
    /// x264 preset: slower presets make smaller files of the same quality.
    public var preset: String = "medium"
    /// AAC bit rate in kbit/s.
    public var audioBitrate: Int = 128
    /// An extra WebM source, or nil for MP4 only.
    public var webm: WebMCodec?

    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    public init() {}
}

/// site.yml: every key has a default, so an empty or missing file is a valid site.
public struct SiteConfig: Sendable, Hashable {
    public var title = "gram"
    public var description = ""
    /// Always ends with "/"; absolute URLs in feeds and meta tags start with it.
    public var baseURL = "http://localhost:8000/"
    /// A BCP 47 tag (`ko`, `pt-BR`): the theme's texts, dates and numbers, `<html lang>` and the feeds' language.
    public var language = "en"
    /// The site's own texts for its language, from `content/i18n/<language>.yml` (path in `messageOverridesFile`).
    public var messageOverrides: [MessageOverride] = []
    public var messageOverridesFile: String?
    public var postsPerPage = 12
    public var maxImagesPerPost = 10
    /// Each tag of a post gets a page and a feed holding the post, so output grows with tags ×
    /// caption: 10,000 tags in one caption would write gigabytes. Instagram allows 30.
    public var maxHashtagsPerPost = 100
    /// Show camera settings (an allow-list of EXIF, never location) under photos.
    public var showExif = false
    public var images = ImageSettings()
    public var videos = VideoSettings()
    /// Longer videos are refused: a two-hour film would take hours to transcode.
    public var maxVideoSeconds: Double = 900
    /// Larger videos are refused (9 megapixels lets 4K through, not 8K).
    public var maxVideoMegapixels: Double = 9
    /// `content/logo.png` (or `.jpg`, `.jpeg`, `.webp`): the site's icons are made from it.
    public var logo: ImageSource?
    /// `offline: true`: a service worker keeps the pages a reader visited, and their pictures,
    /// for reading without a connection.
    public var offline = false

    public init() {}
}
