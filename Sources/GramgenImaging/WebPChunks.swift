import Foundation

/// Removes EXIF, XMP and ICC chunks from a WebP file. libvips 8.14's webpsave writes a small EXIF
/// block even when asked to strip, so gramgen strips WebP output itself.
enum WebPChunks {
    static let metadata: Set<String> = ["EXIF", "XMP ", "ICCP"]

    static func stripped(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF",
              String(decoding: bytes[8..<12], as: UTF8.self) == "WEBP" else { return data }
        var body: [UInt8] = Array("WEBP".utf8)
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            let end = offset + 8 + size + (size & 1)
            guard end <= bytes.count || offset + 8 + size == bytes.count else { return data }
            var chunk = Array(bytes[offset..<min(end, bytes.count)])
            if name == "VP8X", chunk.count > 8 {
                chunk[8] &= ~UInt8(0x20 | 0x08 | 0x04) // ICC, EXIF and XMP flags
            }
            if !metadata.contains(name) { body += chunk }
            offset = end
        }
        let total = UInt32(body.count)
        var out: [UInt8] = Array("RIFF".utf8)
        out += [UInt8(total & 0xff), UInt8(total >> 8 & 0xff), UInt8(total >> 16 & 0xff), UInt8(total >> 24 & 0xff)]
        return Data(out + body)
    }
}
