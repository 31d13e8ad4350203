/// A processed image as a kept file holds it (`ByteWriter`): the images a build keeps for the
/// next one are read back field by field, without the text of the image cache's index to parse
/// (`IndexLine`), which was most of the cost of taking 10,000 unchanged photos in a one-off build.
/// A file name is read only as one name in `media/` (no `/`, not empty), as the index reads it.
extension ProcessedImage {
    public func write(to writer: inout ByteWriter) {
        writer.int(width)
        writer.int(height)
        writer.list(variants) { $0.variant($1) }
        writer.list(squares) { $0.variant($1) }
        writer.double(focusX)
        writer.double(focusY)
        writer.string(dominantColor)
        writer.string(placeholder)
        writer.optional(camera) { writer, camera in
            for value in [camera.camera, camera.lens, camera.focalLength, camera.aperture, camera.shutter, camera.iso] {
                writer.optional(value) { $0.string($1) }
            }
        }
        writer.optional(video) { writer, video in
            writer.double(video.duration)
            writer.bool(video.hasAudio)
            writer.list(video.renditions) { writer, rendition in
                writer.string(rendition.format.rawValue)
                writer.int(rendition.width)
                writer.int(rendition.height)
                writer.int(rendition.bytes)
                writer.string(rendition.file)
            }
        }
    }

    public init(reading reader: inout ByteReader) throws {
        let width: Int = try reader.int(), height: Int = try reader.int()
        let variants = try reader.list { try $0.variant() }, squares = try reader.list { try $0.variant() }
        let focusX = try reader.double(), focusY = try reader.double()
        let color = try reader.string(), placeholder = try reader.string()
        let camera = try reader.optional { reader -> CameraInfo in
            let values = try (0..<6).map { _ in try reader.optional { try $0.string() } }
            return CameraInfo(camera: values[0], lens: values[1], focalLength: values[2], aperture: values[3],
                              shutter: values[4], iso: values[5])
        }
        let video = try reader.optional { reader -> ProcessedVideo in
            let duration = try reader.double(), hasAudio = try reader.bool()
            let renditions = try reader.list { reader -> VideoRendition in
                let format = try reader.rawCase(VideoFormat.self)
                let width: Int = try reader.int(), height: Int = try reader.int(), bytes: Int = try reader.int()
                return VideoRendition(format: format, width: width, height: height, bytes: bytes, file: try reader.mediaName())
            }
            return ProcessedVideo(duration: duration, hasAudio: hasAudio, renditions: renditions)
        }
        self.init(width: width, height: height, variants: variants, squares: squares, focusX: focusX, focusY: focusY,
                  dominantColor: color, placeholder: placeholder, camera: camera)
        self.video = video
    }
}

private extension ByteWriter {
    mutating func variant(_ variant: ImageVariant) {
        string(variant.format.rawValue)
        int(variant.width)
        int(variant.height)
        string(variant.file)
    }
}

private extension ByteReader {
    mutating func variant() throws -> ImageVariant {
        let format = try rawCase(ImageFormat.self)
        let width: Int = try int(), height: Int = try int()
        return ImageVariant(format: format, width: width, height: height, file: try mediaName())
    }

    /// A file's name in `media/`.
    mutating func mediaName() throws -> String {
        let name = try string()
        guard !name.isEmpty, !name.hasByte(UInt8(ascii: "/")) else { throw Malformed() }
        return name
    }
}
