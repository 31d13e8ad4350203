import Crypto
import Foundation
import GramgenCore

/// Encodes images into every configured format and names each file by its content.
struct VariantWriter {
    let settings: ImageSettings
    var variants: [ImageVariant] = []
    var squares: [ImageVariant] = []
    var files: [String: Data] = [:]
    /// What each image added so far was encoded to, so an image added twice (a square photo's
    /// tile is the photo) is encoded once. The images are kept so their identities stay theirs.
    private var encoded: [(image: VipsImage, files: [(ImageFormat, String)])] = []

    init(settings: ImageSettings) { self.settings = settings }

    /// The theme's background: what transparent pixels become in a JPEG.
    static let jpegBackground = (255.0, 255.0, 255.0)

    /// Encodes `image` in every format, as a responsive variant or (`square`) a square crop.
    mutating func add(_ image: VipsImage, square: Bool = false) throws {
        var names: [(ImageFormat, String)]
        if let earlier = encoded.first(where: { $0.image === image }) {
            names = earlier.files
        } else {
            names = []
            let rgb = try image.srgb8()
            for format in settings.formats {
                var source = rgb
                if format == .jpeg && rgb.hasAlpha {
                    let bg = Self.jpegBackground
                    source = try rgb.flattened(red: bg.0, green: bg.1, blue: bg.2)
                }
                let data = try source.encoded(as: Self.encodedFormat(format), quality: settings.quality(for: format),
                                              strip: settings.stripMetadata)
                let name = Self.contentName(data, format: format)
                files[name] = data
                names.append((format, name))
            }
            encoded.append((image, names))
        }
        for (format, name) in names {
            let variant = ImageVariant(format: format, width: image.width, height: image.height, file: name)
            if square { squares.append(variant) } else { variants.append(variant) }
        }
    }

    func finish(displayed: VipsImage, focusX: Double, focusY: Double) throws -> (ProcessedImage, [String: Data]) {
        let (r, g, b) = try displayed.srgb8().averageRGB()
        let color = "#" + Hex.string([r, g, b].map { UInt8(max(0, min(255, $0.rounded()))) })
        let preview = try Self.placeholder(of: displayed).encoded(as: .webp, quality: 40, strip: true)
        let image = ProcessedImage(
            width: displayed.width, height: displayed.height, variants: variants, squares: squares,
            focusX: min(1, max(0, focusX)), focusY: min(1, max(0, focusY)),
            dominantColor: color, placeholder: "data:image/webp;base64," + preview.base64EncodedString())
        return (image, files)
    }

    /// At most 16 pixels on the long side, each the mean colour of the area it stands for
    /// (transparency on white): the page blurs it while the image loads.
    static func placeholder(of image: VipsImage) throws -> VipsImage {
        let scale = min(1, 16.0 / Double(max(image.width, image.height)))
        let columns = max(1, Int((Double(image.width) * scale).rounded()))
        let rows = max(1, Int((Double(image.height) * scale).rounded()))
        return try image.cells(columns: columns, rows: rows)
    }

    static func encodedFormat(_ format: ImageFormat) -> VipsImage.EncodedFormat {
        switch format {
        case .jpeg: .jpeg
        case .webp: .webp
        case .avif: .avif
        }
    }

    /// 16 hex digits of SHA-256 over the bytes: identical files share a name, changed files get a new one.
    static func contentName(_ data: Data, format: ImageFormat) -> String {
        let digest = SHA256.hash(data: data)
        let hex = Hex.string(digest.prefix(8))
        return "\(hex).\(format.fileExtension)"
    }
}
