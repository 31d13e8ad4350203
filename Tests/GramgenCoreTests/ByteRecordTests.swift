import Foundation
import Testing
@testable import GramgenCore

/// The binary record of what a build keeps (`ByteWriter`, `ByteReader`): values read back as
/// written, and bytes cut short, damaged or claiming more than they hold are refused, never read
/// past their end nor allowed to reserve memory they do not hold. Seeded; the seed is printed.
struct ByteRecordTests {
    @Test("numbers of every size, text, optionals and lists read back exactly")
    func roundTrip() throws {
        let seed: UInt64 = 20_261_126
        print("ByteRecordTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let numbers: [Int64] = [0, 1, -1, 63, -64, 64, Int64.max, Int64.min, 1_795_638_382_935_295_924]
            + (0..<200).map { _ in Int64(bitPattern: random.next()) >> Int64(random.next() % 64) }
        var writer = ByteWriter()
        writer.list(numbers) { $0.int($1) }
        writer.strings(["", "ça va", "한국어 #태그", "tab\tnew\nline", String(repeating: "x", count: 300)])
        writer.optional(nil as String?) { $0.string($1) }
        writer.optional("here") { $0.string($1) }
        writer.double(-0.5)
        writer.word(UInt64.max)
        writer.bool(true)
        var reader = ByteReader(writer.bytes)
        #expect(try reader.list { try $0.int() } == numbers)
        #expect(try reader.strings() == ["", "ça va", "한국어 #태그", "tab\tnew\nline", String(repeating: "x", count: 300)])
        #expect(try reader.optional { try $0.string() } == nil)
        #expect(try reader.optional { try $0.string() } == "here")
        #expect(try reader.double() == -0.5)
        #expect(try reader.word() == UInt64.max)
        #expect(try reader.bool())
        #expect(reader.isAtEnd)
    }

    @Test("cut short, a count larger than the bytes left, a bad flag or an endless number throws")
    func malformed() throws {
        var writer = ByteWriter()
        writer.strings(["first", "second"])
        let bytes = writer.bytes
        for length in 0..<bytes.count {  // every prefix but the whole
            var reader = ByteReader(Array(bytes[..<length]))
            #expect(throws: ByteReader.Malformed.self) { try reader.strings() }
        }
        var huge = ByteWriter()
        huge.int(1 << 40)  // a billion items claimed, none there
        var reader = ByteReader(huge.bytes + [0, 0, 0])
        #expect(throws: ByteReader.Malformed.self) { try reader.strings() }
        // As many items as bytes left, each an empty list: read, not reserved ahead as items.
        var many = ByteWriter()
        many.int(100_000)
        var manyReader = ByteReader(many.bytes + [UInt8](repeating: 0, count: 100_000))
        #expect(try manyReader.list { try $0.strings() }.count == 100_000)
        var flag = ByteReader([2])
        #expect(throws: ByteReader.Malformed.self) { try flag.bool() }
        var endless = ByteReader([UInt8](repeating: 0xFF, count: 12))
        #expect(throws: ByteReader.Malformed.self) { let _: Int64 = try endless.int() }
    }

    @Test("a processed image reads back exactly, camera and video included; a file name with a slash or cut short is refused")
    func processedImage() throws {
        var image = ProcessedImage(
            width: 1080, height: 1350,
            variants: [ImageVariant(format: .avif, width: 320, height: 400, file: "0123456789abcdef.avif"),
                       ImageVariant(format: .jpeg, width: 1080, height: 1350, file: "fedcba9876543210.jpg")],
            squares: [ImageVariant(format: .webp, width: 480, height: 480, file: "00112233445566ff.webp")],
            focusX: 0.1 + 0.2, focusY: 1.0 / 3.0, dominantColor: "#a0b1c2", placeholder: "data:image/webp;base64,UklG+/=",
            camera: CameraInfo(camera: "Canon\tEOS", lens: nil, focalLength: "50 mm", aperture: nil, shutter: "1/200", iso: "400"))
        let plain = ProcessedImage(width: 1, height: 1, variants: [], squares: [], focusX: 0.5, focusY: 0.5,
                                   dominantColor: "", placeholder: "")
        image.video = ProcessedVideo(duration: 12.25, hasAudio: true, renditions: [
            VideoRendition(format: .mp4, width: 1080, height: 1920, bytes: 1_234_567, file: "aaaaaaaaaaaaaaaa.mp4")])
        var writer = ByteWriter()
        image.write(to: &writer)
        plain.write(to: &writer)
        var reader = ByteReader(writer.bytes)
        let read = try ProcessedImage(reading: &reader)
        #expect(read == image && read.camera == image.camera && read.video == image.video)
        #expect(try ProcessedImage(reading: &reader) == plain)
        #expect(reader.isAtEnd)
        var alone = ByteWriter()
        image.write(to: &alone)
        for length in 0..<alone.bytes.count {
            var short = ByteReader(Array(alone.bytes[..<length]))
            #expect(throws: ByteReader.Malformed.self) { try ProcessedImage(reading: &short) }
        }
        for name in ["../../etc/passwd", "media/x.jpg", ""] {
            var forged = image
            forged.variants[1].file = name
            var writer = ByteWriter()
            forged.write(to: &writer)
            var reader = ByteReader(writer.bytes)
            #expect(throws: ByteReader.Malformed.self, "\(name)") { try ProcessedImage(reading: &reader) }
        }
    }

    @Test("a case read by its raw text: every case of the formats and roles reads back, any other text (a prefix, another case of letters, invalid UTF-8) is refused")
    func rawCases() throws {
        func roundTrip<Value: CaseIterable & RawRepresentable & Equatable>(_: Value.Type) throws where Value.RawValue == String {
            for value in Value.allCases {
                var writer = ByteWriter()
                writer.string(value.rawValue)
                var reader = ByteReader(writer.bytes)
                #expect(try reader.rawCase(Value.self) == value)
                #expect(reader.isAtEnd)
            }
        }
        try roundTrip(ImageFormat.self)
        try roundTrip(VideoFormat.self)
        try roundTrip(ImageRole.self)
        let others: [[UInt8]] = ["png", "WEBP", "web", "webpx", "", "jpg", " avif"].map { Array($0.utf8) } + [[0x77, 0xFF, 0x62, 0x70]]
        for bytes in others {
            var writer = ByteWriter()
            bytes.withUnsafeBufferPointer { writer.string(bytes: $0) }
            var reader = ByteReader(writer.bytes)
            #expect(throws: ByteReader.Malformed.self, "\(bytes)") { try reader.rawCase(ImageFormat.self) }
        }
    }
}
