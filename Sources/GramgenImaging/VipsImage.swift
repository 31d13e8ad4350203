import CVipsShim
import Foundation

/// libvips failed; the message is libvips' own, taken from its error buffer.
public struct VipsError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    static func take(_ fallback: String) -> VipsError {
        guard let raw = gg_error_take() else { return VipsError(message: fallback) }
        defer { g_free(raw) }
        let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
        return VipsError(message: text.isEmpty ? fallback : text)
    }
}

/// Owns one VipsImage reference; every call into libvips goes through this file.
final class VipsImage: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CVipsShim.VipsImage>

    private init(_ pointer: UnsafeMutablePointer<CVipsShim.VipsImage>) { self.pointer = pointer }
    deinit { gg_unref(pointer) }

    private static let started: Bool = {
        gg_init("gramgen") == 0
    }()

    static func start() throws {
        guard started else { throw VipsError.take("libvips could not start") }
    }

    private static func wrap(_ pointer: UnsafeMutablePointer<CVipsShim.VipsImage>?, _ what: String) throws -> VipsImage {
        guard let pointer else { throw VipsError.take(what) }
        return VipsImage(pointer)
    }

    /// Runs libvips work whose failure gramgen reports, so that a `VipsError` it throws carries this
    /// work's own message: libvips' error buffer is one for the whole process, and another thread's
    /// failure could take or bury the message. The work runs alongside other such work; if it
    /// fails, it runs again alone, from an empty buffer (see `gg_work_shared_begin`). A failing
    /// file is thus read twice, and the others wait for the second time. Not to be nested.
    static func attributed<T>(_ body: () throws -> T) throws -> T {
        do {
            gg_work_shared_begin()
            defer { gg_work_shared_end() }
            return try body()
        } catch is VipsError {
            gg_work_alone_begin()
            defer { gg_work_alone_end() }
            return try body()
        }
    }

    /// Header only: pixels are not decoded.
    static func header(path: String) throws -> VipsImage {
        try start()
        return try wrap(gg_open_header(path), "cannot read the image header")
    }

    /// Decoded upright, in sRGB, at most `width` wide (shrink-on-load where the format allows).
    /// `source` is the file's size from its header (it decides whether vector code pays off).
    static func thumbnail(path: String, width: Int, source: PixelSize) throws -> VipsImage {
        try start()
        return try wrap(gg_thumbnail_file(path, Int32(width), 1, Int32(source.width), Int32(source.height)),
                        "cannot decode the image")
    }

    /// A square crop decoded straight from the file (shrink-on-load, attention crop), for
    /// sources too wide or tall for the responsive decode to hold a full square.
    static func squareThumbnail(path: String, edge: Int, source: PixelSize) throws -> VipsImage {
        try start()
        return try wrap(gg_thumbnail_square(path, Int32(edge), Int32(source.width), Int32(source.height)),
                        "cannot decode the image")
    }

    struct PixelSize {
        var width: Int
        var height: Int
    }

    /// An 8-bit sRGB image from interleaved RGB bytes, copied so the caller's buffer can go.
    static func fromRGB(_ bytes: [UInt8], width: Int, height: Int) throws -> VipsImage {
        try start()
        guard width > 0, height > 0, bytes.count == width * height * 3 else {
            throw VipsError(message: "expected \(width)×\(height)×3 bytes, got \(bytes.count)")
        }
        let pointer = bytes.withUnsafeBytes { raw in
            gg_from_rgb(raw.baseAddress, raw.count, Int32(width), Int32(height))
        }
        return try wrap(pointer, "cannot make an image from memory")
    }

    var width: Int { Int(gg_width(pointer)) }
    var height: Int { Int(gg_height(pointer)) }
    var bands: Int { Int(gg_bands(pointer)) }
    /// 1 for 8-bit, 2 for 16-bit samples, …
    var bytesPerBand: Int { Int(gg_bytes_per_band(pointer)) }
    var interpretationName: String { String(cString: gg_interpretation_name(pointer)) }
    var formatName: String { String(cString: gg_format_name(pointer)) }
    var hasAlpha: Bool { gg_has_alpha(pointer) != 0 }

    /// EXIF orientation 5–8 swaps width and height once the image is upright.
    var orientationSwapsAxes: Bool { (5...8).contains(gg_orientation(pointer)) }

    func inMemory() throws -> VipsImage {
        try Self.wrap(gg_copy_memory(pointer), "out of memory while decoding")
    }

    func resized(scale: Double) throws -> VipsImage {
        try Self.wrap(gg_resize(pointer, scale), "cannot resize")
    }

    /// The square of `edge` pixels centred on the most interesting area (see `gg_attention`), cut
    /// from an 8-bit sRGB copy in memory; the focus is that area's centre in this image's pixels.
    func smartSquare(edge: Int) throws -> (image: VipsImage, focusX: Int, focusY: Int) {
        guard edge >= 1, edge <= width, edge <= height else {
            throw VipsError(message: "a square of \(edge) pixels does not fit in \(width)×\(height)")
        }
        let rgb = try srgb8().inMemory()
        return try withExtendedLifetime(rgb) {
            var x: Int32 = 0, y: Int32 = 0
            guard gg_attention(rgb.pointer, Int32(edge), &x, &y) == 0 else { throw VipsError.take("cannot find the crop") }
            let left = min(max(0, Int(x) - edge / 2), width - edge)
            let top = min(max(0, Int(y) - edge / 2), height - edge)
            let image = try Self.wrap(gg_crop(rgb.pointer, Int32(left), Int32(top), Int32(edge), Int32(edge)), "cannot crop")
            return (image, Int(x), Int(y))
        }
    }

    /// A columns×rows 8-bit sRGB image of this one's mean colours (see `gg_cell_image`).
    func cells(columns: Int, rows: Int) throws -> VipsImage {
        let rgb = try srgb8()
        return try withExtendedLifetime(rgb) {
            try Self.wrap(gg_cell_image(rgb.pointer, Int32(columns), Int32(rows)), "cannot shrink")
        }
    }

    func flattened(red: Double, green: Double, blue: Double) throws -> VipsImage {
        try Self.wrap(gg_flatten(pointer, red, green, blue), "cannot flatten transparency")
    }

    /// 8-bit sRGB, with or without alpha: the image itself when it already is.
    func srgb8() throws -> VipsImage {
        if isSRGB8 { return self }
        return try Self.wrap(gg_to_srgb8(pointer), "cannot convert to sRGB")
    }

    var isSRGB8: Bool {
        gg_is_srgb8(pointer) != 0 && (bands == 3 || (bands == 4 && hasAlpha))
    }

    func withoutMetadata() throws -> VipsImage {
        try Self.wrap(gg_without_metadata(pointer), "cannot remove metadata")
    }

    func averageRGB() throws -> (Double, Double, Double) {
        var rgb: [Double] = [0, 0, 0]
        guard gg_average_rgb(pointer, &rgb) == 0 else { throw VipsError.take("cannot measure colour") }
        return (rgb[0], rgb[1], rgb[2])
    }

    /// Encodes to a buffer; metadata stripped when asked.
    func encoded(as format: EncodedFormat, quality: Int, strip: Bool) throws -> Data {
        let image = strip ? try withoutMetadata() : self
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        // The image must outlive the save: nothing else may hold the copy without metadata.
        let status: Int32 = withExtendedLifetime(image) {
            let pointer = image.pointer
            switch format {
            case .jpeg: return gg_jpegsave_buffer(pointer, &buffer, &length, Int32(quality), strip ? 1 : 0)
            case .webp: return gg_webpsave_buffer(pointer, &buffer, &length, Int32(quality), strip ? 1 : 0)
            case .avif: return gg_avifsave_buffer(pointer, &buffer, &length, Int32(quality), strip ? 1 : 0)
            case .png: return gg_pngsave_buffer(pointer, &buffer, &length, strip ? 1 : 0)
            }
        }
        guard status == 0, let buffer else { throw VipsError.take("cannot encode \(format)") }
        defer { g_free(buffer) }
        let data = Data(bytes: buffer, count: length)
        return strip && format == .webp ? WebPChunks.stripped(data) : data
    }

    enum EncodedFormat: CustomStringConvertible {
        case jpeg, webp, avif, png
        var description: String {
            switch self {
            case .jpeg: "JPEG"
            case .webp: "WebP"
            case .avif: "AVIF"
            case .png: "PNG"
            }
        }
    }
}
