import GramgenCore

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
public struct ProcessedImage: Codable, Sendable, Hashable {
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
    /// Camera settings from EXIF (allow-listed), shown when `show_exif` is on.
    public var camera: CameraInfo?

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
        self.camera = camera
    }

    public var aspectRatio: Double { height > 0 ? Double(width) / Double(height) : 1 }

    public func variants(in format: ImageFormat) -> [ImageVariant] { variants.filter { $0.format == format } }
    public func squares(in format: ImageFormat) -> [ImageVariant] { squares.filter { $0.format == format } }

    /// Every media file the image uses.
    public var files: [String] { variants.map(\.file) + squares.map(\.file) }
}

/// What an image is for, which decides the files made of it.
public enum ImageRole: String, Codable, Sendable, Hashable {
    /// Responsive widths plus a square grid tile.
    case post
    /// Square crops only.
    case avatar
}
