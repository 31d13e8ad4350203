/// One published file of an image.
public struct ImageVariant: Codable, Sendable, Hashable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// Content-hashed file name under `media/`.
    public var file: String

    public init(format: ImageFormat, width: Int, height: Int, file: String) {
        self.format = format
        self.width = width
        self.height = height
        self.file = file
    }
}

/// What the site needs to show one source image: its upright size, every published file,
/// the crop focus for square tiles, and placeholders shown while it loads.
public struct ProcessedImage: Sendable, Hashable {
    /// Upright size of the largest published variant (the displayed size).
    public var width: Int
    public var height: Int
    /// Responsive widths, every format, smallest first.
    public var variants: [ImageVariant]
    /// Square crops (grid tiles, avatars), every format, smallest first.
    public var squares: [ImageVariant]
    /// Attention centre as a fraction of width and height (CSS object-position).
    public var focusX: Double
    public var focusY: Double
    /// Average colour, `#rrggbb`.
    public var dominantColor: String
    /// A tiny blurred preview as a `data:` URI.
    public var placeholder: String
    /// Camera settings from EXIF (allow-listed), shown when `show_exif` is on. Held by reference
    /// (`Boxed`): most images have none, and its six optional texts inline made every processed
    /// image 200 bytes wide, in each of the tables of 100,000 of them a big site's build keeps
    /// (the cache's, the memo's, the build's).
    public var camera: CameraInfo? {
        get { cameraBox?.value }
        set { cameraBox = newValue.map(Boxed.init) }
    }
    /// For a video: its files and length; the image is then its poster frame. Held by reference too.
    public var video: ProcessedVideo? {
        get { videoBox?.value }
        set { videoBox = newValue.map(Boxed.init) }
    }
    private var cameraBox: Boxed<CameraInfo>?
    private var videoBox: Boxed<ProcessedVideo>?

    public init(width: Int, height: Int, variants: [ImageVariant], squares: [ImageVariant], focusX: Double,
                focusY: Double, dominantColor: String, placeholder: String, camera: CameraInfo? = nil) {
        self.width = width
        self.height = height
        self.variants = variants
        self.squares = squares
        self.focusX = focusX
        self.focusY = focusY
        self.dominantColor = dominantColor
        self.placeholder = placeholder
        cameraBox = camera.map(Boxed.init)
        videoBox = nil
    }

    public static func == (a: ProcessedImage, b: ProcessedImage) -> Bool {
        a.width == b.width && a.height == b.height && a.variants == b.variants && a.squares == b.squares
            && a.focusX == b.focusX && a.focusY == b.focusY && a.dominantColor == b.dominantColor
            && a.placeholder == b.placeholder && a.camera == b.camera && a.video == b.video
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(variants)
        hasher.combine(squares)
        hasher.combine(focusX)
        hasher.combine(focusY)
        hasher.combine(dominantColor)
        hasher.combine(placeholder)
        hasher.combine(camera)
        hasher.combine(video)
    }

    public var aspectRatio: Double { height > 0 ? Double(width) / Double(height) : 1 }

    public func variants(in format: ImageFormat) -> [ImageVariant] { variants.filter { $0.format == format } }

    /// Every media file the image (and video) uses.
    public var files: [String] {
        var files: [String] = []
        _ = allFiles { files.append($0); return true }
        return files
    }

    /// Calls `body` with the name of each file of `files`, in that order, while it returns true;
    /// whether it always did. No array is made (the build goes through 10,000 images' files a
    /// few times).
    public func allFiles(_ body: (String) -> Bool) -> Bool {
        for variant in variants where !body(variant.file) { return false }
        for square in squares where !body(square.file) { return false }
        for rendition in video?.renditions ?? [] where !body(rendition.file) { return false }
        return true
    }
}

/// What an image is for, which decides the files made of it.
public enum ImageRole: String, Codable, Sendable, Hashable, CaseIterable {
    /// Responsive widths plus a square grid tile.
    case post
    /// Square crops only.
    case avatar
    /// Transcoded video files plus a poster frame made as for `post`.
    case video
}

/// A published video format, in the order a `<video>` lists its sources (the first one the
/// browser plays wins, so the optional WebM comes before the MP4 every browser plays).
public enum VideoFormat: String, Codable, Sendable, Hashable, CaseIterable {
    case webm, mp4

    public var mimeType: String { "video/\(rawValue)" }
    public var fileExtension: String { rawValue }
}

/// One published file of a video.
public struct VideoRendition: Codable, Sendable, Hashable {
    public var format: VideoFormat
    public var width: Int
    public var height: Int
    /// Bytes of the file, for feeds' `size_in_bytes`.
    public var bytes: Int
    /// Content-hashed file name under `media/`.
    public var file: String

    public init(format: VideoFormat, width: Int, height: Int, bytes: Int, file: String) {
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.file = file
    }
}

/// What the site needs to play one video beyond its poster image.
public struct ProcessedVideo: Codable, Sendable, Hashable {
    /// Seconds.
    public var duration: Double
    public var hasAudio: Bool
    /// Every size and format, largest first within a format, formats in `VideoFormat` order.
    public var renditions: [VideoRendition]

    public init(duration: Double, hasAudio: Bool, renditions: [VideoRendition]) {
        self.duration = duration
        self.hasAudio = hasAudio
        self.renditions = renditions
    }

    /// The largest MP4: the size the page draws the video at, and the feeds' attachment.
    public var main: VideoRendition? { renditions.first { $0.format == .mp4 } }
    public var width: Int { main?.width ?? 0 }
    public var height: Int { main?.height ?? 0 }

    /// `m:ss` (or `h:mm:ss`), as badges show a length.
    public var durationText: String { Self.clock(duration) }

    /// A length in seconds as `m:ss` or `h:mm:ss`.
    public static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }
}

extension ProcessedImage {
    /// The widest a cropped slide is drawn, in box widths; a wider slide shows less than a third of
    /// itself, and its files stop growing here.
    public static let maxSlideScale = 3.0

    /// How many times its carousel's width a slide is drawn. The carousel takes its first
    /// picture's shape and a slide of another shape is cropped to fill it (`object-fit: cover`):
    /// a wider slide is drawn as tall as the box, so wider than it; a narrower one is drawn as
    /// wide as the box (1). Rounded up to hundredths, so the files made for it and the `sizes`
    /// the page gives agree.
    public func slideScale(inBoxOf first: ProcessedImage) -> Double {
        let scale = aspectRatio / first.aspectRatio
        guard scale > 1.01 else { return 1 }
        return min(Self.maxSlideScale, (scale * 100).rounded(.up) / 100)
    }
}

/// A value held by reference: a struct that holds one is one pointer wide for it.
final class Boxed<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
