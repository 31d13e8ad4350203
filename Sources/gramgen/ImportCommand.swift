import ArgumentParser
import Foundation
import GramgenCore
import GramgenImport

/// `gramgen import`: brings posts from other services into the site.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import posts from another service into the site.",
        subcommands: [InstagramImportCommand.self])
}

/// `gramgen import instagram EXPORT`: parses, runs the importer, prints its report, and maps
/// a bad export to exit 1 (bad usage is exit 2, through ValidationError).
struct InstagramImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instagram",
        abstract: "Import an Instagram data export as a user of the site.",
        discussion: """
        EXPORT is the export Instagram sends you (Accounts Center › Your information and permissions › \
        Download your information, format JSON), as the downloaded .zip or an unzipped folder; \
        an export split into several .zip files is given as all of them. \
        Writes content/users/<handle>/ with profile.md, the avatar, and one folder per post \
        (photos and videos in carousel order, post.md with the caption, date and alt text); each \
        Reel becomes a post. Files gramgen cannot use are listed and skipped; archived posts are \
        imported as drafts. \
        Importing again updates the posts, never duplicates them, and keeps any post you have edited.
        """)

    @Argument(help: ArgumentHelp("The export: a .zip or a folder; for an export Instagram split into several .zip files, all of them.",
                                 valueName: "export"))
    var exports: [String] = []

    var export: String { exports.first ?? "" }

    @Option(name: .long, help: ArgumentHelp("The site folder (holding content/).", valueName: "dir"))
    var site: String = "."

    @Option(name: .long, help: ArgumentHelp("The user's handle (default: the export's username).", valueName: "name"))
    var handle: String?

    @Flag(name: .customLong("dry-run"), help: "Print what would be written, and write nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Import stories too, as posts tagged #stories (the tag's page shows them together).")
    var stories = false

    func validate() throws {
        if export.isEmpty { throw ValidationError("Pass the export: a .zip or a folder.") }
        if let handle, let problem = Handle.problem(with: handle) {
            throw ValidationError("--handle '\(handle)' is not a valid handle: \(problem).")
        }
    }

    func run() throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var options = InstagramImporter.Options(
            siteRoot: URL(fileURLWithPath: site, relativeTo: cwd).standardizedFileURL,
            export: URL(fileURLWithPath: export, relativeTo: cwd).standardizedFileURL,
            exportName: export, handle: handle, dryRun: dryRun)
        options.includeStories = stories
        options.moreParts = exports.dropFirst().map { (URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL, $0) }
        let report: ImportReport
        do {
            report = try InstagramImporter(options: options).run()
        } catch let error as ImportError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        for line in ImportReportFormatter(exportName: export).lines(for: report) {
            if line.isWarning {
                fflush(stdout)
                FileHandle.standardError.write(Data((line.text + "\n").utf8))
            } else {
                print(line.text)
            }
        }
    }
}
