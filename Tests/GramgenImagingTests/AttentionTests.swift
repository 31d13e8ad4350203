import Foundation
import Testing
@testable import GramgenImaging

/// The square grid tile is cut around what draws the eye: strong colour, skin tones, detail.
struct AttentionTests {
    /// A flat grey picture with `paint` deciding some pixels' colour.
    static func picture(width: Int, height: Int, paint: (Int, Int) -> (UInt8, UInt8, UInt8)?) throws -> VipsImage {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = paint(x, y) ?? (128, 128, 128)
                bytes += [r, g, b]
            }
        }
        return try VipsImage.fromRGB(bytes, width: width, height: height)
    }

    static func inDisc(_ x: Int, _ y: Int, cx: Int, cy: Int, r: Int) -> Bool {
        (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r
    }

    struct Subject: Sendable, CustomTestStringConvertible {
        var what: String
        var width: Int, height: Int
        var centre: (x: Int, y: Int), radius: Int
        var colour: (UInt8, UInt8, UInt8)
        var testDescription: String { what }
    }

    @Test("a subject that draws the eye pulls the crop to it", arguments: [
        Subject(what: "strong colour at one end of a wide picture", width: 300, height: 100,
                centre: (250, 50), radius: 25, colour: (230, 20, 20)),
        Subject(what: "a skin-toned face near the top of a tall picture", width: 120, height: 400,
                centre: (60, 70), radius: 30, colour: (224, 172, 140)),
    ])
    func subject(_ subject: Subject) throws {
        let image = try Self.picture(width: subject.width, height: subject.height) { x, y in
            Self.inDisc(x, y, cx: subject.centre.x, cy: subject.centre.y, r: subject.radius) ? subject.colour : nil
        }
        let edge = min(subject.width, subject.height)
        let square = try image.smartSquare(edge: edge)
        #expect(square.image.width == edge && square.image.height == edge)
        let wide = subject.width > subject.height
        let (focus, centre, length) = wide ? (square.focusX, subject.centre.x, subject.width)
            : (square.focusY, subject.centre.y, subject.height)
        #expect(abs(focus - centre) <= 16)
        let wanted = min(1, max(0, Double(centre - edge / 2) / Double(length - edge)))
        #expect(abs(ImageProcessor.objectPosition(attention: focus, length: length, edge: edge) - wanted) < 0.06)
    }

    @Test("fine detail wins over a flat area; a flat picture is cut in the middle")
    func detail() throws {
        let stripes = try Self.picture(width: 400, height: 100) { x, _ in
            x < 100 ? (x % 4 < 2 ? (20, 20, 20) : (235, 235, 235)) : nil
        }
        #expect(try stripes.smartSquare(edge: 100).focusX <= 60)
        let flat = try Self.picture(width: 400, height: 100) { _, _ in nil }
        let middle = try flat.smartSquare(edge: 100)
        #expect(abs(middle.focusX - 200) <= 10 && abs(middle.focusY - 50) <= 5)
    }

    @Test("a square that does not fit is an error, not a crash")
    func tooLarge() throws {
        let image = try Self.picture(width: 40, height: 30) { _, _ in nil }
        #expect(throws: VipsError.self) { try image.smartSquare(edge: 31) }
    }

    @Test("the placeholder is at most 16 pixels long, each the mean colour of its area, transparency on white")
    func placeholder() throws {
        let image = try Self.picture(width: 320, height: 160) { x, _ in x < 160 ? (255, 0, 0) : (0, 0, 255) }
        let tiny = try VariantWriter.placeholder(of: image)
        #expect(tiny.width == 16 && tiny.height == 8)
        let small = try Self.picture(width: 9, height: 5) { _, _ in (10, 20, 30) }
        let same = try VariantWriter.placeholder(of: small)
        #expect(same.width == 9 && same.height == 5)
        #expect(try same.averageRGB() == (10, 20, 30))
        #expect(try tiny.averageRGB() == (127.5, 0, 127.5))
    }
}
