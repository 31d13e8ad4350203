import CVipsShim
import Foundation
import GramgenCore
import Testing
@testable import GramgenImaging

/// Photos smaller than every configured width: one decode, one size, and no work done twice.
struct SmallImageTests {
    var settings: ImageSettings {
        var s = ImageSettings()
        s.widths = [320, 640, 1080]
        s.formats = [.webp, .jpeg]
        s.thumbnail = 320
        return s
    }

    static func photo(width: Int, height: Int, from: SyntheticImage.RGB = .init(200, 40, 10),
                      to: SyntheticImage.RGB = .init(10, 90, 220)) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("small-\(UUID()).jpg")
        try SyntheticImage.gradientJPEG(width: width, height: height, from: from, to: to).write(to: url)
        return url
    }

    @Test("a square photo's tile is the photo: the same files, encoded once")
    func squarePhoto() throws {
        let url = try Self.photo(width: 88, height: 88)
        defer { try? FileManager.default.removeItem(at: url) }
        let (image, files) = try ImageProcessor(settings: settings).process(url, role: .post)
        #expect(image.variants.map(\.width) == [88, 88])
        #expect(image.squares.map(\.file) == image.variants.map(\.file))
        #expect(files.count == 2)
        #expect(image.focusX == 0.5 && image.focusY == 0.5)
    }

    @Test("a square tile cut from a variant is the one cut from a fresh resize of the decoded photo")
    func tileFromVariant() throws {
        let url = try Self.photo(width: 700, height: 900)
        defer { try? FileManager.default.removeItem(at: url) }
        let (image, files) = try ImageProcessor(settings: settings).process(url, role: .post)
        #expect(image.variants.map(\.width) == [320, 320, 640, 640])
        #expect(image.squares.map(\.width) == [320, 320])
        // The same tile made the long way: decode, resize, attention crop.
        let decoded = try VipsImage.thumbnail(path: url.path, width: 640, source: .init(width: 700, height: 900)).inMemory()
        let square = try decoded.resized(scale: 320.0 / 640.0).smartSquare(edge: 320).image
        let webp = try square.encoded(as: .webp, quality: settings.quality(for: .webp), strip: true)
        #expect(files[image.squares[0].file] == webp)
    }

    @Test("avatars already square are not cropped, and come out like a crop would")
    func squareAvatar() throws {
        let url = try Self.photo(width: 96, height: 96)
        defer { try? FileManager.default.removeItem(at: url) }
        let (image, files) = try ImageProcessor(settings: settings).process(url, role: .avatar)
        #expect(image.squares.map(\.width) == [96, 96])
        let decoded = try VipsImage.thumbnail(path: url.path, width: 96, source: .init(width: 96, height: 96)).inMemory()
        let cropped = try decoded.smartSquare(edge: 96).image
        #expect(files[image.squares[1].file] == (try cropped.encoded(as: .jpeg, quality: settings.quality(for: .jpeg), strip: true)))
    }

    @Test("the dominant colour is the mean of the pixels")
    func dominantColor() throws {
        let solid = try Self.photo(width: 40, height: 30, from: .init(0, 0, 0), to: .init(0, 0, 0))
        defer { try? FileManager.default.removeItem(at: solid) }
        #expect(try ImageProcessor(settings: settings).process(solid, role: .post).0.dominantColor == "#000000")

        var rgb: [Double] = [0, 0, 0]
        var pixels: [UInt8] = []
        for index in 0..<(7 * 5) { pixels += index % 2 == 0 ? [255, 0, 10] : [0, 100, 11] }
        let image = try VipsImage.fromRGB(pixels, width: 7, height: 5)
        #expect(gg_average_rgb(image.pointer, &rgb) == 0)
        let expected: [Double] = [255.0 * 18 / 35, 100.0 * 17 / 35, (10.0 * 18 + 11.0 * 17) / 35]
        #expect(rgb == expected)
    }

    @Test("an 8-bit sRGB image is used as it is, with no conversion and no copy to strip")
    func noNeedlessCopies() throws {
        let image = try VipsImage.fromRGB([UInt8](repeating: 9, count: 4 * 4 * 3), width: 4, height: 4)
        #expect(try image.srgb8() === image)
        let stripped = try image.withoutMetadata()
        #expect(stripped.pointer == image.pointer)
        vips_image_set_string(image.pointer, "exif-ifd0-Make", "Canon")
        #expect(try image.withoutMetadata().pointer != image.pointer)
    }
}

/// libvips' error buffer is shared by every thread: a diagnostic quotes the line about its own file.
struct ErrorTextTests {
    @Test("lines another image left in libvips' error buffer are passed over")
    func otherFilesLines() {
        let path = "/site/content/users/ann/posts/a/1.jpg"
        let stale = "/site/content/users/bob/posts/b/1.avif: bad seek to 1962"
        #expect(ImageProcessor.firstLine(of: VipsError(message: "\(stale)\nVipsJpeg: Premature end of input file"), path: path)
            == "VipsJpeg: Premature end of input file")
        #expect(ImageProcessor.firstLine(of: VipsError(message: "\(stale)\nVipsForeignLoad: \"\(path)\" is not a known file format"),
                                         path: path) == "VipsForeignLoad: is not a known file format")
        #expect(ImageProcessor.firstLine(of: VipsError(message: stale), path: path) == stale)
    }
}
