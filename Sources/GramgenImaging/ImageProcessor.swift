import Foundation
import GramgenCore

/// A source image gramgen cannot use; the message says why, for the diagnostic.
public struct ImageProblem: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String
    public var description: String { "\(message) — \(hint)" }

    public init(message: String, hint: String) {
        self.message = message
        self.hint = hint
    }
}

/// Stage 3 for one image: decode once (shrink-on-load), then make every variant from memory.
public struct ImageProcessor: Sendable {
    /// Bumped whenever the output for the same input and settings changes, so caches are rebuilt.
    public static let pipelineVersion = 5
    /// Avatar edges in pixels (1× and 2× of the largest avatar the theme shows).
    public static let avatarEdges = [160, 320]

    public let settings: ImageSettings

    /// Shared by the workers of one build (see `DecodeBudget`).
    public let budget: DecodeBudget

    public init(settings: ImageSettings, budget: DecodeBudget = DecodeBudget()) {
        self.settings = settings
        self.budget = budget
    }

    /// Makes every file of the image, returning them with their names; nothing is written.
    public func process(_ url: URL, role: ImageRole) throws -> (ProcessedImage, [String: Data]) {
        try decoding(url) { header, upright in
            var result = try role == .post ? makePostFiles(url, source: upright) : makeAvatarFiles(url, source: upright)
            if role == .post { result.0.camera = CameraInfoReader.read(header) }
            return result
        }
    }

    /// The site's icons from a square crop of the image: `icon-<edge>.png` for each of
    /// `SiteIcons.edges`, and `favicon.ico` (the 32 px one).
    public func icons(_ url: URL) throws -> [String: Data] {
        try decoding(url) { _, upright in
            var files: [String: Data] = [:]
            // Every size, a small picture's enlarged: a home screen wants its icon whatever the source.
            let made = try squares(url, source: upright, edges: SiteIcons.edges)
            let largest = made.last!.image // safe: `squares` always gives at least one size
            for edge in SiteIcons.edges {
                let image = try made.first { $0.edge == edge }?.image ?? largest.resized(scale: Double(edge) / Double(largest.width))
                let png = try image.srgb8().encoded(as: .png, quality: 0, strip: true)
                files[SiteIcons.fileName(edge)] = png
                if edge == SiteIcons.edges.first { files[SiteIcons.favicon] = SiteIcons.ico(png: png, edge: edge) }
            }
            return files
        }
    }

    /// Reads the header, refuses what cannot or may not be decoded, and holds the decode budget
    /// while `body` makes the files.
    private func decoding<T>(_ url: URL, _ body: (VipsImage, VipsImage.PixelSize) throws -> T) throws -> T {
        do {
            try VipsImage.start()
        } catch {
            throw ImageProblem(message: "libvips cannot be opened: \(error)",
                               hint: "install libvips (apt-get install libvips42), the library gramgen processes photos with")
        }
        let header: VipsImage
        do {
            header = try VipsImage.attributed { try VipsImage.header(path: url.path) }
        } catch {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
            if size == 0 {
                throw ImageProblem(message: "the image file is empty", hint: "copy the photo again, or remove the file")
            }
            let reason = Self.firstLine(of: error, path: url.path)
            throw ImageProblem(
                message: reason.contains("not a known file format") || reason.contains("operation is blocked")
                    ? "the file is not an image gramgen can read"
                    : "cannot read the image: \(reason)",
                hint: "use a complete JPEG, PNG, WebP, GIF, TIFF, HEIC or AVIF file")
        }
        let megapixels = Double(header.width) * Double(header.height) / 1_000_000
        if megapixels > settings.maxMegapixels {
            throw ImageProblem(
                message: String(format: "the image is %d×%d (%.3g megapixels), over the limit of %.3g",
                                header.width, header.height, megapixels, settings.maxMegapixels),
                hint: "downscale it, or raise `images.max_megapixels` in site.yml")
        }
        // The whole image decoded, the most any encoding needs; shrink-on-load needs less.
        let decoded = header.width * header.height * header.bands * header.bytesPerBand
        budget.acquire(decoded)
        defer { budget.release(decoded) }
        let swaps = header.orientationSwapsAxes
        let upright = VipsImage.PixelSize(width: swaps ? header.height : header.width, height: swaps ? header.width : header.height)
        do {
            return try VipsImage.attributed { try body(header, upright) }
        } catch let error as VipsError {
            throw ImageProblem(message: "cannot decode the image: \(Self.firstLine(of: error, path: url.path))",
                               hint: "the file may be truncated or damaged; export it again")
        }
    }

    private func makePostFiles(_ url: URL, source: VipsImage.PixelSize) throws -> (ProcessedImage, [String: Data]) {
        var widths = Self.targetWidths(settings.widths, sourceWidth: source.width)
        if settings.slideScale != nil, let last = widths.last, last < source.width, settings.widths.contains(where: { $0 > source.width }) {
            widths.append(source.width)
        }
        let largest = try VipsImage.thumbnail(path: url.path, width: widths.last ?? source.width, source: source).inMemory()
        var output = VariantWriter(settings: settings)
        var byWidth: [Int: VipsImage] = [:]
        for width in widths {
            let image = width >= largest.width ? largest
                : try largest.resized(scale: Double(width) / Double(largest.width))
            byWidth[width] = image
            try output.add(image)
        }
        let (focusX, focusY) = try addSquare(from: largest, variants: byWidth, url: url, source: source, to: &output)
        return try output.finish(displayed: largest, focusX: focusX, focusY: focusY)
    }

    /// The square grid tile, cut from the decoded image when it is large enough; a panorama whose
    /// decoded height is below the tile edge is decoded once more, straight to the square.
    /// When the width is the short side and a variant already has the tile's width, the tile is cut
    /// from that variant (the same resize); a square image needs no cut at all, and its tile is
    /// the very image a variant encoded, so `VariantWriter` reuses those files.
    private func addSquare(from largest: VipsImage, variants: [Int: VipsImage], url: URL, source: VipsImage.PixelSize,
                           to output: inout VariantWriter) throws -> (Double, Double) {
        let wanted = min(settings.thumbnail, source.width, source.height)
        let shortSide = min(largest.width, largest.height)
        if shortSide < wanted {
            try output.add(try VipsImage.squareThumbnail(path: url.path, edge: wanted, source: source), square: true)
            return (0.5, 0.5)
        }
        let scaled: VipsImage
        if shortSide == wanted {
            scaled = largest
        } else if largest.width == shortSide, let variant = variants[wanted] {
            scaled = variant
        } else {
            scaled = try largest.resized(scale: Double(wanted) / Double(shortSide))
        }
        if scaled.width == wanted && scaled.height == wanted {
            try output.add(scaled, square: true)
            return (0.5, 0.5)
        }
        let square = try scaled.smartSquare(edge: wanted)
        try output.add(square.image, square: true)
        return (Self.objectPosition(attention: square.focusX, length: scaled.width, edge: wanted),
                Self.objectPosition(attention: square.focusY, length: scaled.height, edge: wanted))
    }

    private func makeAvatarFiles(_ url: URL, source: VipsImage.PixelSize) throws -> (ProcessedImage, [String: Data]) {
        let squares = try squares(url, source: source, edges: Self.avatarEdges)
        var output = VariantWriter(settings: settings)
        for (_, image) in squares { try output.add(image, square: true) }
        return try output.finish(displayed: squares.last!.image, focusX: 0.5, focusY: 0.5) // safe: never empty
    }

    /// The image cropped square around its most interesting part, at each of `edges` it is large
    /// enough for (or at its short side when it is smaller than all of them), smallest first;
    /// never empty (`targetWidths` always gives one size).
    private func squares(_ url: URL, source: VipsImage.PixelSize, edges wanted: [Int]) throws -> [(edge: Int, image: VipsImage)] {
        let (sourceWidth, sourceHeight) = (source.width, source.height)
        let shortSide = min(sourceWidth, sourceHeight)
        let edges = Self.targetWidths(wanted, sourceWidth: shortSide)
        let maxEdge = edges.last ?? shortSide
        // Decode so the short side is at least the largest edge.
        let decodeWidth = sourceWidth <= sourceHeight ? maxEdge
            : Int((Double(maxEdge) * Double(sourceWidth) / Double(max(1, sourceHeight))).rounded(.up))
        let decoded = try VipsImage.thumbnail(path: url.path, width: min(decodeWidth, sourceWidth), source: source).inMemory()
        let edge = min(maxEdge, decoded.width, decoded.height)
        // A crop of an image in memory costs nothing to read again, so it is not copied.
        let square = decoded.width == edge && decoded.height == edge ? decoded
            : try decoded.smartSquare(edge: edge).image
        return try edges.map { edge in
            (edge, edge >= square.width ? square : try square.resized(scale: Double(edge) / Double(square.width)))
        }
    }

    /// Configured widths not above the source, plus the source width when every configured one is larger.
    static func targetWidths(_ widths: [Int], sourceWidth: Int) -> [Int] {
        let fitting = widths.filter { $0 <= sourceWidth }.sorted()
        if fitting.isEmpty { return [sourceWidth] }
        return fitting
    }

    /// Where the square crop sits along one axis, as CSS `object-position` wants it: 0 = start, 1 = end.
    static func objectPosition(attention: Int, length: Int, edge: Int) -> Double {
        guard length > edge else { return 0.5 }
        let left = Double(attention) - Double(edge) / 2
        return min(1, max(0, left / Double(length - edge)))
    }

    /// libvips' first line of explanation, without the absolute path it quotes (the diagnostic names the file).
    /// libvips 8.14 keeps one error buffer for the whole process, and a loader may leave a line there
    /// even when it succeeds (HEIF: "<file>: bad seek to …"); lines naming another file come from
    /// images processed at the same time and are passed over.
    static func firstLine(of error: Error, path: String) -> String {
        let lines = String(describing: error).split(separator: "\n").map(String.init)
        let line = lines.first { $0.contains(path) || !namesAFile($0) } ?? lines.first ?? "unknown error"
        return line.replacingOccurrences(of: "\"\(path)\" ", with: "")
            .replacingOccurrences(of: path, with: (path as NSString).lastPathComponent)
    }

    /// Whether a libvips message quotes an absolute path (at its start, or after a space or quote).
    private static func namesAFile(_ line: String) -> Bool {
        line.hasPrefix("/") || line.contains(" /") || line.contains("\"/")
    }
}
