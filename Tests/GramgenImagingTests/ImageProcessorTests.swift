import CVipsShim
import Foundation
import GramgenCore
import Testing
@testable import GramgenImaging

/// Real libvips on real photos: sizes, orientation, formats, stripped metadata and the error texts.
struct ImageProcessorTests {
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../GramgenBuildTests/Fixtures/sites/basic/content/users/alice/posts/2024-05-25-river/1.jpg")
        .standardizedFileURL // 480×320 JPEG

    var settings: ImageSettings {
        var s = ImageSettings()
        s.widths = [160, 320, 1080]
        s.formats = [.webp, .jpeg]
        s.thumbnail = 120
        return s
    }

    /// Writes a copy of the fixture photo with an EXIF orientation tag.
    static func orientedCopy(_ orientation: Int32) throws -> URL {
        let image = try VipsImage.header(path: photo.path).inMemory()
        vips_image_set_int(image.pointer, "orientation", orientation)
        let data = try image.encoded(as: .jpeg, quality: 80, strip: false)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("orient-\(orientation)-\(UUID()).jpg")
        try data.write(to: url)
        return url
    }

    /// Metadata fields libvips reads back from an encoded file.
    static func metadataFields(_ data: Data) throws -> [String] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID())")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let image = try VipsImage.header(path: url.path)
        guard let fields = vips_image_get_fields(image.pointer) else { return [] }
        defer { g_strfreev(fields) }
        var names: [String] = []
        var index = 0
        while let field = fields[index] {
            names.append(String(cString: field))
            index += 1
        }
        return names.filter { $0.hasPrefix("exif-") || $0.hasPrefix("xmp-") || $0.hasPrefix("iptc-") || $0.hasPrefix("icc-") }
    }

    @Test("widths above the source are never made; every format is made for every width")
    func widths() throws {
        let (image, files) = try ImageProcessor(settings: settings).process(Self.photo, role: .post)
        #expect(image.width == 320 && image.height == 213)
        #expect(image.variants.map(\.width) == [160, 160, 320, 320])
        #expect(image.variants.map(\.format) == [.webp, .jpeg, .webp, .jpeg])
        #expect(image.squares.map(\.width) == [120, 120] && image.squares.allSatisfy { $0.height == 120 })
        #expect(Set(image.files) == Set(files.keys))
        #expect(image.placeholder.hasPrefix("data:image/webp;base64,") && image.placeholder.count < 1024)
        #expect(image.dominantColor.count == 7 && image.dominantColor.hasPrefix("#"))
        for variant in image.variants + image.squares {
            #expect(variant.file.hasSuffix(variant.format == .jpeg ? ".jpg" : ".webp"))
        }
    }

    @Test("published files carry no EXIF, XMP, IPTC or ICC data")
    func stripped() throws {
        let source = try Self.orientedCopy(6)
        defer { try? FileManager.default.removeItem(at: source) }
        let (_, files) = try ImageProcessor(settings: settings).process(source, role: .post)
        for (name, data) in files {
            #expect(try Self.metadataFields(data).isEmpty, "\(name) still has metadata")
        }
    }

    @Test("EXIF orientations 5–8 swap width and height; the recorded size is upright", arguments: Array(Int32(1)...8))
    func orientation(_ orientation: Int32) throws {
        let source = try Self.orientedCopy(orientation)
        defer { try? FileManager.default.removeItem(at: source) }
        let (image, _) = try ImageProcessor(settings: settings).process(source, role: .post)
        if orientation >= 5 {
            #expect(image.width == 320 && image.height == 480)
        } else {
            #expect(image.width == 320 && image.height == 213)
        }
    }

    @Test("avatars become square crops")
    func avatar() throws {
        let (image, _) = try ImageProcessor(settings: settings).process(Self.photo, role: .avatar)
        #expect(image.variants.isEmpty)
        #expect(image.squares.map(\.width) == [160, 160, 320, 320])
        #expect(image.squares.allSatisfy { $0.width == $0.height })
    }

    @Test("an image over the pixel limit is refused before decoding")
    func pixelLimit() throws {
        var limited = settings
        limited.maxMegapixels = 0.1
        #expect {
            _ = try ImageProcessor(settings: limited).process(Self.photo, role: .post)
        } throws: { error in
            (error as? ImageProblem)?.message == "the image is 480×320 (0.154 megapixels), over the limit of 0.1"
        }
    }

    /// Text, and formats libvips could decode with libraries gramgen does not let it use (SVG can
    /// pull in other files; PPM and PFM are not photo formats gramgen accepts).
    @Test("a file that is not an image gets a clear error", arguments: [
        "hello",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\"><rect width=\"40\" height=\"40\"/></svg>",
        "P3\n2 2\n255\n255 0 0 0 255 0 0 0 255 255 255 255\n",
    ])
    func notAnImage(text: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fake-\(UUID()).jpg")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            _ = try ImageProcessor(settings: settings).process(url, role: .post)
        } throws: { error in
            (error as? ImageProblem)?.message == "the file is not an image gramgen can read"
        }
    }

    @Test("WebP metadata chunks are removed and the RIFF size stays right")
    func webpChunks() throws {
        let image = try VipsImage.header(path: Self.photo.path).inMemory()
        let raw = try image.encoded(as: .webp, quality: 50, strip: false)
        let stripped = WebPChunks.stripped(raw)
        #expect(stripped.count <= raw.count)
        let size = stripped.subdata(in: 4..<8).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        #expect(Int(UInt32(littleEndian: size)) == stripped.count - 8)
        #expect(try Self.metadataFields(stripped).isEmpty)
    }

    @Test("the focus point maps to CSS object-position")
    func objectPosition() {
        #expect(ImageProcessor.objectPosition(attention: 50, length: 100, edge: 100) == 0.5)
        #expect(ImageProcessor.objectPosition(attention: 0, length: 300, edge: 100) == 0)
        #expect(ImageProcessor.objectPosition(attention: 300, length: 300, edge: 100) == 1)
        #expect(ImageProcessor.objectPosition(attention: 150, length: 300, edge: 100) == 0.5)
    }
}

/// The EXIF allow-list: camera settings are read, location never is, and nothing survives into the files.
struct CameraInfoTests {
    @Test("camera settings are read from EXIF; GPS is never kept")
    func exif() throws {
        let image = try VipsImage.header(path: ImageProcessorTests.photo.path).inMemory()
        vips_image_set_string(image.pointer, "exif-ifd0-Make", "Canon")
        vips_image_set_string(image.pointer, "exif-ifd0-Model", "Canon EOS R6")
        vips_image_set_string(image.pointer, "exif-ifd2-FNumber", "28/10")
        vips_image_set_string(image.pointer, "exif-ifd2-ISOSpeedRatings", "400")
        vips_image_set_string(image.pointer, "exif-ifd3-GPSLatitudeRef", "N")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("exif-\(UUID()).jpg")
        try image.encoded(as: .jpeg, quality: 80, strip: false).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        let header = try VipsImage.header(path: url.path)
        #expect(CameraInfoReader.field(header, "exif-ifd0-Make") == "Canon")
        let (processed, files) = try ImageProcessor(settings: ImageSettings()).process(url, role: .post)
        #expect(processed.camera?.camera == "Canon EOS R6")
        #expect(processed.camera?.aperture == "f/2.8")
        #expect(processed.camera?.iso == "400")
        for (name, data) in files {
            #expect(try ImageProcessorTests.metadataFields(data).isEmpty, "\(name)")
        }
    }

    @Test("libvips' EXIF strings are shown by their readable part")
    func readable() {
        #expect(CameraInfoReader.readable("28/10 (f/2.8, Rational, 1 components, 8 bytes)") == "f/2.8")
        #expect(CameraInfoReader.readable("1/125 (1/125 sec., Rational, 1 components, 8 bytes)") == "1/125 sec.")
        #expect(CameraInfoReader.readable("Canon, Inc. (Canon, Inc., ASCII, 12 components, 12 bytes)") == "Canon, Inc.")
        #expect(CameraInfoReader.readable("   ") == nil)
    }
}
