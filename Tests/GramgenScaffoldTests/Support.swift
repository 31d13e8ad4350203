import Foundation
import GramgenImaging

enum GramgenImagingBridge {
    static func gradient() throws -> Data {
        try SyntheticImage.gradientJPEG(width: 64, height: 48, from: .init(255, 0, 0), to: .init(0, 0, 255))
    }
}

/// Width and height from a JPEG's first SOF marker: enough to check an encoder's output.
enum JPEGSize {
    static func of(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xC3).contains(marker) {
                let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
                let width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                return (width, height)
            }
            i += 2 + length
        }
        return nil
    }
}
