import Foundation
import GramgenCore
import Testing
@testable import GramgenImaging

/// Inputs in every supported format and colour space, made by scripts/make-image-fixtures.sh.
struct ImageFormatTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    var settings: ImageSettings {
        var s = ImageSettings()
        s.widths = [64, 160, 320]
        s.formats = [.avif, .webp, .jpeg]
        s.thumbnail = 48
        return s
    }

    static func rgb(_ hex: String) -> (Int, Int, Int) {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        return (value >> 16 & 0xff, value >> 8 & 0xff, value & 0xff)
    }

    /// The flat colour of the colour fixtures, sRGB (200, 30, 60).
    static func isFixtureRed(_ hex: String, tolerance: Int = 10) -> Bool {
        let (r, g, b) = rgb(hex)
        return abs(r - 200) <= tolerance && abs(g - 30) <= tolerance && abs(b - 60) <= tolerance
    }

    @Test("wide-gamut and CMYK inputs come out in sRGB with their true colour",
          arguments: ["p3.jpg", "adobe-rgb.jpg", "cmyk.jpg", "cmyk-no-profile.jpg", "rgb16.png"])
    func colour(_ name: String) throws {
        let (image, files) = try ImageProcessor(settings: settings).process(Self.fixtures.appendingPathComponent(name), role: .post)
        #expect(Self.isFixtureRed(image.dominantColor), "\(name) became \(image.dominantColor)")
        for variant in image.variants {
            let decoded = try Self.decode(try #require(files[variant.file]))
            #expect(decoded.bands == 3, "\(variant.file)")
            #expect(decoded.interpretation == "srgb" && decoded.format == "uchar", "\(variant.file)")
        }
    }

    @Test("PNG alpha is kept in WebP and AVIF and flattened onto white in JPEG")
    func alpha() throws {
        let (image, files) = try ImageProcessor(settings: settings).process(Self.fixtures.appendingPathComponent("alpha.png"), role: .post)
        for variant in image.variants {
            let decoded = try Self.decode(try #require(files[variant.file]))
            #expect(decoded.bands == (variant.format == .jpeg ? 3 : 4), "\(variant.format)")
        }
    }

    @Test("every input format decodes", arguments: ["photo.heic", "photo.avif", "photo.webp", "photo.tif", "photo.gif"])
    func inputs(_ name: String) throws {
        let (image, _) = try ImageProcessor(settings: settings).process(Self.fixtures.appendingPathComponent(name), role: .post)
        #expect(image.width == 160 && image.height == 107)
        #expect(Set(image.variants.map(\.format)) == [.avif, .webp, .jpeg])
    }

    @Test("a 1×1 image is published at 1×1")
    func tiny() throws {
        let (image, _) = try ImageProcessor(settings: settings).process(Self.fixtures.appendingPathComponent("tiny.png"), role: .post)
        #expect(image.width == 1 && image.height == 1)
        #expect(image.squares.allSatisfy { $0.width == 1 && $0.height == 1 })
    }

    @Test("a 12:1 panorama still gets a full-size square tile")
    func panorama() throws {
        let (image, _) = try ImageProcessor(settings: settings).process(Self.fixtures.appendingPathComponent("panorama.jpg"), role: .post)
        #expect(image.width == 320 && image.height == 27)
        #expect(image.squares.allSatisfy { $0.width == 48 && $0.height == 48 })
    }

    @Test("per-format quality: a lower AVIF quality makes smaller files")
    func quality() throws {
        var low = settings, high = settings
        low.qualities = [.avif: 30]
        high.qualities = [.avif: 90]
        let source = Self.fixtures.appendingPathComponent("photo.webp")
        let small = try ImageProcessor(settings: low).process(source, role: .post)
        let large = try ImageProcessor(settings: high).process(source, role: .post)
        func avifBytes(_ result: (ProcessedImage, [String: Data])) -> Int {
            result.0.variants(in: .avif).reduce(0) { $0 + (result.1[$1.file]?.count ?? 0) }
        }
        #expect(avifBytes(small) < avifBytes(large))
        #expect(low.quality(for: .jpeg) == 80 && low.quality(for: .avif) == 30)
    }

    struct Decoded {
        var bands: Int
        var interpretation: String
        var format: String
    }

    static func decode(_ data: Data) throws -> Decoded {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decode-\(UUID())")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let image = try VipsImage.header(path: url.path)
        return Decoded(bands: image.bands, interpretation: image.interpretationName, format: image.formatName)
    }
}
