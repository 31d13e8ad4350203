/// The allow-listed camera settings of a photo, read before metadata is stripped and shown only
/// when `show_exif` is on. Location and other EXIF fields are never read into it.
public struct CameraInfo: Codable, Sendable, Hashable {
    public var camera: String?
    public var lens: String?
    public var focalLength: String?
    public var aperture: String?
    public var shutter: String?
    public var iso: String?

    public init(camera: String? = nil, lens: String? = nil, focalLength: String? = nil, aperture: String? = nil,
                shutter: String? = nil, iso: String? = nil) {
        self.camera = camera
        self.lens = lens
        self.focalLength = focalLength
        self.aperture = aperture
        self.shutter = shutter
        self.iso = iso
    }

    public var isEmpty: Bool { [camera, lens, focalLength, aperture, shutter, iso].allSatisfy { $0 == nil } }

    /// Label and value pairs in display order.
    public var items: [(label: String, value: String)] {
        [("Camera", camera), ("Lens", lens), ("Focal length", focalLength), ("Aperture", aperture),
         ("Shutter", shutter), ("ISO", iso)].compactMap { label, value in value.map { (label, $0) } }
    }
}
