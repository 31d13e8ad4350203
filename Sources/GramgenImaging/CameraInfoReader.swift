import CVipsShim
import Foundation
import GramgenCore

/// Reads the allow-list of `CameraInfo` from libvips' EXIF fields. libvips formats each as
/// `raw (readable, Type, N components, M bytes)`; the readable part is what people expect to see.
enum CameraInfoReader {
    static func read(_ image: VipsImage) -> CameraInfo? {
        let make = field(image, "exif-ifd0-Make")
        var model = field(image, "exif-ifd0-Model")
        if let make, let current = model, !current.lowercased().hasPrefix(make.lowercased().split(separator: " ").first.map(String.init) ?? "") {
            model = "\(make) \(current)"
        }
        let info = CameraInfo(
            camera: model ?? make, lens: field(image, "exif-ifd2-LensModel"),
            focalLength: field(image, "exif-ifd2-FocalLength"), aperture: field(image, "exif-ifd2-FNumber"),
            shutter: field(image, "exif-ifd2-ExposureTime"),
            iso: field(image, "exif-ifd2-ISOSpeedRatings") ?? field(image, "exif-ifd2-PhotographicSensitivity"))
        return info.isEmpty ? nil : info
    }

    static func field(_ image: VipsImage, _ name: String) -> String? {
        guard let raw = gg_string_field(image.pointer, name) else { return nil }
        return readable(String(cString: raw))
    }

    /// `28/10 (f/2.8, Rational, 1 components, 8 bytes)` → `f/2.8`.
    static func readable(_ text: String) -> String? {
        var value = text
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
            let parts = inner.components(separatedBy: ", ")
            value = parts.count > 3 ? parts.dropLast(3).joined(separator: ", ") : String(inner)
        }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        guard !trimmed.isEmpty, trimmed.count <= 80 else { return nil }
        return trimmed
    }
}
