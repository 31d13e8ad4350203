import GramgenCore

/// One `<source>` of a `<picture>`.
struct SourceView {
    let type: String
    let srcset: String
}

/// What a template needs to draw one image: every attribute of `<picture>` and `<img>`.
final class ImageView {
    let src: String
    let srcset: String
    let sizes: String
    let sources: [SourceView]
    let width: Int
    let height: Int
    let alt: String
    let color: String
    let placeholder: String
    /// `object-position` for crops, e.g. "50.0% 30.0%".
    let focus: String
    let index: Int
    let count: Int

    /// Responsive variants: sources for every format but the fallback, which becomes the `<img>`.
    convenience init(_ image: ProcessedImage, alt: String, root: String, sizes: String, index: Int = 1, count: Int = 1,
         formats: [ImageFormat]) {
        self.init(variants: image.variants, image: image, alt: alt, root: root, sizes: sizes, index: index,
                  count: count, formats: formats)
    }

    /// Square crops (grid tiles and avatars).
    convenience init(square image: ProcessedImage, alt: String, root: String, sizes: String, formats: [ImageFormat]) {
        self.init(variants: image.squares, image: image, alt: alt, root: root, sizes: sizes, index: 1, count: 1,
                  formats: formats)
    }

    private init(variants: [ImageVariant], image: ProcessedImage, alt: String, root: String, sizes: String,
                 index: Int, count: Int, formats: [ImageFormat]) {
        func srcset(_ format: ImageFormat) -> String {
            variants.filter { $0.format == format }
                .map { "\(root)\(SitePaths.media($0.file)) \($0.width)w" }
                .joined(separator: ", ")
        }
        let fallback = formats.last ?? .jpeg
        let fallbackVariants = variants.filter { $0.format == fallback }
        let largest = fallbackVariants.last
        src = largest.map { root + SitePaths.media($0.file) } ?? ""
        self.srcset = srcset(fallback)
        self.sizes = sizes
        sources = formats.dropLast().map { SourceView(type: $0.mimeType, srcset: srcset($0)) }
        width = largest?.width ?? image.width
        height = largest?.height ?? image.height
        self.alt = alt
        color = image.dominantColor
        placeholder = image.placeholder
        focus = DecimalText.oneDecimal(image.focusX * 100) + "% " + DecimalText.oneDecimal(image.focusY * 100) + "%"
        self.index = index
        self.count = count
    }
}
