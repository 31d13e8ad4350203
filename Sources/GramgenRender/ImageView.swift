import GramgenCore

/// One `<source>` of a `<picture>`.
struct SourceView {
    let type: String
    let srcset: String
}

/// One `<source>` of a `<video>`; `media` picks a smaller file for narrow screens.
struct VideoSourceView {
    let src: String
    let type: String
    let media: String?
}

/// What a template needs to play a video; the enclosing `ImageView` is its poster.
final class VideoView {
    let sources: [VideoSourceView]
    /// The largest MP4, the link offered where video does not play.
    let src: String
    let poster: String
    let width: Int
    let height: Int
    /// `0:27`, for badges.
    let duration: String
    let hasAudio: Bool

    init(_ video: ProcessedVideo, poster: String, root: String) {
        var sources: [VideoSourceView] = []
        for format in VideoFormat.allCases {
            let files = video.renditions.filter { $0.format == format }
            guard let largest = files.first else { continue }
            // Smaller sizes first, each for screens at most half its long side wide (2× pixels).
            for file in files.dropFirst().reversed() {
                sources.append(VideoSourceView(src: root + SitePaths.media(file.file), type: format.mimeType,
                                               media: "(max-width: \(max(file.width, file.height) / 2)px)"))
            }
            sources.append(VideoSourceView(src: root + SitePaths.media(largest.file), type: format.mimeType, media: nil))
        }
        self.sources = sources
        src = video.main.map { root + SitePaths.media($0.file) } ?? ""
        self.poster = poster
        width = video.width
        height = video.height
        duration = video.durationText
        hasAudio = video.hasAudio
    }
}

/// What a template needs to draw one image: every attribute of `<picture>` and `<img>`; for a
/// video, its poster frame, with `video` to play it.
final class ImageView {
    let src: String
    let srcset: String
    let sizes: String
    /// For a picture of a fixed size (an avatar): the smallest file, for `src`, and the next
    /// one for 2× screens (`srcset="… 2x"`), shorter than widths and `sizes`.
    let src1x: String
    let src2x: String
    let sources: [SourceView]
    let width: Int
    let height: Int
    let alt: String
    let color: String
    let placeholder: String
    /// `object-position` for crops, e.g. "50.0% 30.0%".
    let focus: String
    /// `object-position:…;` for a crop off the centre (the default position), else nothing.
    /// (This and `backdrop` are made once: a picture is drawn on many pages, and made at each
    /// drawing they took 1% of a pages-only build.)
    let focusStyle: String
    /// What shows while the picture loads (the theme's `--ph`): its colour and blurred preview,
    /// or only the colour for a carousel's later slides, which show only after a swipe.
    let backdrop: String
    let index: Int
    let count: Int
    /// "Photo 2 of 3", for a carousel's dot, in the site's language.
    let dotLabel: String
    /// How the picture loads: `.lazy` below the first screen; the pictures on it `.eager`, and the
    /// page's main one (the first card's photo, the post page's, the profile's avatar) `.priority`.
    enum Loading { case lazy, eager, priority }
    let load: Loading
    var loading: String { load == .lazy ? "lazy" : "eager" }
    var priority: Bool { load == .priority }
    /// A carousel's later slide: fetched with low priority (`fetchpriority="low"`). The browser
    /// loads slides near the visible one ahead of time, and a slide cropped to a narrower carousel
    /// is a wide file: at normal priority it takes bandwidth from the page's main picture.
    var later: Bool { index > 1 }
    /// The video this image is the poster of.
    let video: VideoView?

    /// The same picture loaded as `load`: a copy, not made again from the variants.
    func loading(_ load: Loading) -> ImageView {
        load == self.load ? self : ImageView(self, load: load)
    }

    private init(_ other: ImageView, load: Loading) {
        src = other.src
        srcset = other.srcset
        sizes = other.sizes
        src1x = other.src1x
        src2x = other.src2x
        sources = other.sources
        width = other.width
        height = other.height
        alt = other.alt
        color = other.color
        placeholder = other.placeholder
        focus = other.focus
        focusStyle = other.focusStyle
        backdrop = other.backdrop
        index = other.index
        count = other.count
        dotLabel = other.dotLabel
        self.load = load
        video = other.video
    }

    /// Responsive variants: sources for every format but the fallback, which becomes the `<img>`.
    /// A video's poster gets its `video`.
    convenience init(_ image: ProcessedImage, alt: String, root: String, sizes: String, index: Int = 1, count: Int = 1,
                     dotLabel: String = "", load: Loading = .lazy, formats: [ImageFormat]) {
        self.init(variants: image.variants, image: image, alt: alt, root: root, sizes: sizes, index: index,
                  count: count, dotLabel: dotLabel, load: load, formats: formats)
    }

    /// Square crops (grid tiles and avatars).
    convenience init(square image: ProcessedImage, alt: String, root: String, sizes: String, load: Loading = .lazy,
                     formats: [ImageFormat]) {
        self.init(variants: image.squares, image: image, alt: alt, root: root, sizes: sizes, index: 1, count: 1,
                  dotLabel: "", load: load, formats: formats)
    }

    private init(variants: [ImageVariant], image: ProcessedImage, alt: String, root: String, sizes: String,
                 index: Int, count: Int, dotLabel: String, load: Loading, formats: [ImageFormat]) {
        // As bytes, each path and width appended (made for every view of every post, three
        // formats of four widths: as strings interpolated and joined, 3% of a pages-only build).
        func srcset(_ format: ImageFormat) -> String {
            var text: [UInt8] = []
            text.reserveCapacity(160)
            for variant in variants where variant.format == format {
                if !text.isEmpty { text.append(contentsOf: ", ".utf8) }
                text.append(contentsOf: root.utf8)
                text.append(contentsOf: SitePaths.mediaFolder.utf8)
                text.append(contentsOf: variant.file.utf8)
                text.append(UInt8(ascii: " "))
                DecimalDigits.append(variant.width, to: &text)
                text.append(UInt8(ascii: "w"))
            }
            return String(decoding: text, as: UTF8.self)
        }
        let fallback = formats.last ?? .jpeg
        let fallbackVariants = variants.filter { $0.format == fallback }
        let largest = fallbackVariants.last
        src = largest.map { root + SitePaths.media($0.file) } ?? ""
        src1x = fallbackVariants.first.map { root + SitePaths.media($0.file) } ?? src
        src2x = fallbackVariants.dropFirst().first.map { root + SitePaths.media($0.file) } ?? src1x
        self.srcset = srcset(fallback)
        self.sizes = sizes
        sources = formats.dropLast().map { SourceView(type: $0.mimeType, srcset: srcset($0)) }
        width = largest?.width ?? image.width
        height = largest?.height ?? image.height
        self.alt = alt
        color = image.dominantColor
        placeholder = image.placeholder
        focus = DecimalText.oneDecimal(image.focusX * 100) + "% " + DecimalText.oneDecimal(image.focusY * 100) + "%"
        focusStyle = focus == "50.0% 50.0%" ? "" : "object-position:\(focus);"
        backdrop = index > 1 ? color : "\(color) url(\(placeholder))"
        self.index = index
        self.count = count
        self.dotLabel = dotLabel
        self.load = load
        video = image.video.map { VideoView($0, poster: Self.poster(fallbackVariants, root: root) ?? "", root: root) }
    }

    /// A video's poster: the fallback variant about as wide as the video is drawn on a phone.
    private static func poster(_ fallbackVariants: [ImageVariant], root: String) -> String? {
        (fallbackVariants.last { $0.width <= 1080 } ?? fallbackVariants.first).map { root + SitePaths.media($0.file) }
    }

    /// The poster of a video's slide, as `video.poster` of its view has it, without making the view.
    static func poster(of image: ProcessedImage, root: String, formats: [ImageFormat]) -> String? {
        guard image.video != nil else { return nil }
        let fallback = formats.last ?? .jpeg
        return poster(image.variants.filter { $0.format == fallback }, root: root) ?? ""
    }
}
