import Foundation

/// Images made in code, so `gramgen init` can ship a site that builds without any photo of the user's
/// (and without the repository carrying binary sample files).
public enum SyntheticImage {
    /// An sRGB colour with 8-bit channels.
    public struct RGB: Sendable, Hashable {
        public var red: UInt8, green: UInt8, blue: UInt8
        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// A diagonal gradient from the top-left `from` colour to the bottom-right `to` colour, as a JPEG.
    public static func gradientJPEG(width: Int, height: Int, from: RGB, to: RGB, quality: Int = 85) throws -> Data {
        guard width > 0, height > 0, width <= 8192, height <= 8192 else {
            throw VipsError(message: "a synthetic image is 1 to 8192 pixels on each side")
        }
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let span = Double(max(1, width + height - 2))
        for y in 0..<height {
            for x in 0..<width {
                let t = Double(x + y) / span
                let offset = (y * width + x) * 3
                bytes[offset] = mix(from.red, to.red, t)
                bytes[offset + 1] = mix(from.green, to.green, t)
                bytes[offset + 2] = mix(from.blue, to.blue, t)
            }
        }
        return try VipsImage.fromRGB(bytes, width: width, height: height)
            .encoded(as: .jpeg, quality: quality, strip: true)
    }

    private static func mix(_ a: UInt8, _ b: UInt8, _ t: Double) -> UInt8 {
        UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded())
    }
}
