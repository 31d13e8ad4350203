import Foundation
import GramgenCore

/// `gramgen new post HANDLE [SLUG] [IMAGES...]`: a dated post folder with the photos and videos copied in and a
/// post.md whose `images:` list asks for alt text for each one.
public struct PostScaffolder {
    public let siteRoot: URL
    public let handle: String
    public var slug: String?
    public var images: [URL]
    public var clock: ScaffoldClock

    public init(siteRoot: URL, handle: String, slug: String? = nil, images: [URL] = [], clock: ScaffoldClock = ScaffoldClock()) {
        self.siteRoot = siteRoot.standardizedFileURL
        self.handle = handle
        self.slug = slug
        self.images = images
        self.clock = clock
    }

    /// What was made: the post folder, and every file and folder created.
    public struct Result: Sendable {
        public var folder: URL
        public var created: [URL]
        public var imageNames: [String]
    }

    public func run() throws -> Result {
        if let problem = Handle.problem(with: handle) {
            throw ScaffoldError("'\(handle)' is not a valid handle: \(problem)", hint: "name an existing user's folder")
        }
        let user = try SiteFolders.users(in: siteRoot).appendingPathComponent(handle)
        guard FileManager.default.fileExists(atPath: user.appendingPathComponent("profile.md").path) else {
            throw ScaffoldError("there is no user '\(handle)' (no \(user.path)/profile.md)",
                                hint: "create it with `gramgen new user \(handle)`")
        }
        try SiteFolders.checkInside("content/users/\(handle)/posts", siteRoot: siteRoot)
        try checkImages()

        let now = clock.now()
        let posts = user.appendingPathComponent("posts")
        let base = "\(clock.day(now))-\(PostSlug.slug(for: slug ?? ""))"
        let folderName = NameSanitizer.unique(base) { FileManager.default.fileExists(atPath: posts.appendingPathComponent($0).path) }
        let folder = posts.appendingPathComponent(folderName)

        var files = ScaffoldFiles()
        try files.makeNewFolder(folder)
        var names: [String] = []
        for image in images {
            let name = NameSanitizer.unique(NameSanitizer.fileName(image.lastPathComponent)) { candidate in
                names.contains { $0.lowercased() == candidate.lowercased() } || candidate == "post.md"
            }
            try files.copy(image, to: folder.appendingPathComponent(name))
            names.append(name)
        }
        try files.write(ScaffoldTexts.post(date: clock.timestamp(now), images: names), to: folder.appendingPathComponent("post.md"))
        return Result(folder: folder, created: files.created, imageNames: names)
    }

    /// Every photo and video is checked before anything is written, so a typo leaves no half-made post behind.
    private func checkImages() throws {
        for image in images {
            guard let type = MediaType(fileExtension: image.pathExtension) else {
                throw ScaffoldError("\(image.path) is not a photo or video gramgen can publish",
                                    hint: "use photos (\(MediaType.photoTypesText)) or videos (\(MediaType.videoTypesText))")
            }
            let limit = type == .video ? InputFile.maxVideoBytes : InputFile.maxMediaBytes
            // Checked before anything is written: a FIFO or device would block the copy, or
            // leave an empty post folder behind.
            switch InputFile.check(atPath: image.path) {
            case .success(let size) where size > limit:
                throw ScaffoldError("\(image.path): \(InputFile.Failure.tooLarge(limit: limit).message)",
                                    hint: type == .video ? "export the video again shorter or smaller" : "export the photo again at a smaller size")
            case .success: break
            case .failure(.missing): throw ScaffoldError("\(image.path) does not exist", hint: "check the file name")
            case .failure(let failure): throw ScaffoldError("\(image.path): \(failure.message)", hint: failure.hint)
            }
        }
    }
}
