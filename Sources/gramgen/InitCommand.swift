import ArgumentParser
import Foundation
import GramgenScaffold

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new site: settings, one user and a first post, ready to build.",
        discussion: """
        Writes content/site.yml, content/users/<handle>/ with a profile and an avatar, a first post \
        with a photo, and a README.md. Refuses a folder that already has content/.
        """)

    @Argument(help: ArgumentHelp("Where to create the site (made if missing).", valueName: "dir"))
    var directory: String = "."

    @Option(name: .long, help: ArgumentHelp("Your handle: a-z, 0-9, '.' and '_', up to 30 characters.", valueName: "handle"))
    var handle: String = "me"

    @Option(name: .long, help: ArgumentHelp("Your display name (default: the handle).", valueName: "name"))
    var name: String?

    func run() throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let folder = URL(fileURLWithPath: directory, relativeTo: cwd).standardizedFileURL
        let created = try ScaffoldOutput.run { try SiteScaffolder(directory: folder, handle: handle, name: name).run() }
        ScaffoldOutput.list(created, cwd: cwd)
        let place = folder.path == cwd.standardizedFileURL.path ? "" : " --site \(ScaffoldOutput.relative(folder, to: cwd))"
        print("Next: gramgen serve\(place)")
    }
}
