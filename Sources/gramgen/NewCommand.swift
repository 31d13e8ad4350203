import ArgumentParser
import Foundation
import GramgenScaffold

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Add a user or a post to the site.",
        subcommands: [NewUserCommand.self, NewPostCommand.self])
}

struct NewUserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Create content/users/HANDLE/ with a profile.md to fill in.")

    @Option(name: .long, help: ArgumentHelp("The site folder (holding content/).", valueName: "dir"))
    var site: String = "."

    @Argument(help: ArgumentHelp("The new user's handle: a-z, 0-9, '.' and '_', up to 30 characters.", valueName: "handle"))
    var handle: String

    @Option(name: .long, help: ArgumentHelp("Display name (default: the handle).", valueName: "name"))
    var name: String?

    func run() throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let root = URL(fileURLWithPath: site, relativeTo: cwd).standardizedFileURL
        let created = try ScaffoldOutput.run { try UserScaffolder(siteRoot: root, handle: handle, name: name).run() }
        ScaffoldOutput.list(created, cwd: cwd)
    }
}

struct NewPostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Create a dated post folder for HANDLE, copy the images in, and write post.md.",
        discussion: """
        The folder is named YYYY-MM-DD-SLUG from today's date (SLUG defaults to 'post'; -2, -3 … are \
        added rather than replace an existing folder). post.md lists each image with an empty alt \
        text to fill in: describe the photo for people who cannot see it.
        """)

    @Option(name: .long, help: ArgumentHelp("The site folder (holding content/).", valueName: "dir"))
    var site: String = "."

    @Argument(help: ArgumentHelp("The user who posts (an existing handle).", valueName: "handle"))
    var handle: String

    @Argument(help: ArgumentHelp("A short name for the post's folder and URL, e.g. han-river.", valueName: "slug"))
    var slug: String?

    @Argument(help: ArgumentHelp("Images to copy into the post (jpg, png, webp, gif, tiff, heic, avif).", valueName: "images"))
    var images: [String] = []

    func run() throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let root = URL(fileURLWithPath: site, relativeTo: cwd).standardizedFileURL
        // `gramgen new post ann photo.jpg`: a first argument that is an existing file is an image, not a slug.
        var slug = self.slug, paths = images
        if let first = slug, first.contains(".") || first.contains("/"), FileManager.default.fileExists(atPath: first) {
            paths.insert(first, at: 0)
            slug = nil
        }
        let urls = paths.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL }
        let result = try ScaffoldOutput.run {
            try PostScaffolder(siteRoot: root, handle: handle, slug: slug, images: urls).run()
        }
        ScaffoldOutput.list(result.created, cwd: cwd)
        if result.imageNames.isEmpty {
            print("Next: copy the photos into \(ScaffoldOutput.relative(result.folder, to: cwd))/ and list them in post.md")
        } else {
            print("Next: write the caption and the alt texts in \(ScaffoldOutput.relative(result.folder, to: cwd))/post.md")
        }
    }
}
