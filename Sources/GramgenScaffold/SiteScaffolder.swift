import Foundation
import GramgenCore
import GramgenImaging

/// `gramgen init [DIR]`: a complete small site (settings, one user with an avatar, one post with a
/// photo) that builds without a warning, so the first `gramgen serve` already shows a feed.
public struct SiteScaffolder {
    public let directory: URL
    public var handle: String
    public var name: String?
    public var clock: ScaffoldClock

    public init(directory: URL, handle: String = "me", name: String? = nil, clock: ScaffoldClock = ScaffoldClock()) {
        self.directory = directory.standardizedFileURL
        self.handle = handle
        self.name = name
        self.clock = clock
    }

    /// Writes the site; returns every file and folder created, in order. Refuses a folder that already
    /// has content/ (it is a site already), and leaves an existing README.md or .gitignore alone.
    public func run() throws -> [URL] {
        if let problem = Handle.problem(with: handle) {
            throw ScaffoldError("'\(handle)' is not a valid handle: \(problem)", hint: "pass e.g. --handle my.name")
        }
        let content = directory.appendingPathComponent("content")
        if FileManager.default.fileExists(atPath: content.path) {
            throw ScaffoldError("\(content.path) already exists, so this is a site already",
                                hint: "add to it with `gramgen new user` or `gramgen new post`, or choose an empty folder")
        }
        var files = ScaffoldFiles()
        try files.makeFolder(directory)
        try files.write(ScaffoldTexts.siteYAML, to: content.appendingPathComponent("site.yml"))

        let user = content.appendingPathComponent("users/\(handle)")
        try files.write(ScaffoldTexts.profile(name: name ?? handle), to: user.appendingPathComponent("profile.md"))
        try files.write(try Self.image(edge: 400, from: .init(0x3A, 0x7B, 0xD5), to: .init(0x00, 0xD2, 0xA8)),
                        to: user.appendingPathComponent("avatar.jpg"))

        let now = clock.now()
        let post = user.appendingPathComponent("posts/\(clock.day(now))-hello")
        try files.makeNewFolder(post)
        try files.write(try Self.image(edge: 1080, from: .init(0xFF, 0x7E, 0x5F), to: .init(0x86, 0x5F, 0xD8)),
                        to: post.appendingPathComponent("1.jpg"))
        try files.write(ScaffoldTexts.firstPost(date: clock.timestamp(now)), to: post.appendingPathComponent("post.md"))

        for (name, text) in [("README.md", ScaffoldTexts.readme(handle: handle)), (".gitignore", ScaffoldTexts.gitignore)] {
            let url = directory.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: url.path) { try files.write(text, to: url) }
        }
        return files.created
    }

    private static func image(edge: Int, from: SyntheticImage.RGB, to: SyntheticImage.RGB) throws -> Data {
        do {
            return try SyntheticImage.gradientJPEG(width: edge, height: edge, from: from, to: to)
        } catch {
            throw ScaffoldError("cannot make the sample image: \(error)", hint: "check that libvips is installed with JPEG support")
        }
    }
}
