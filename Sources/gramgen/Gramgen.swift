import ArgumentParser
import Foundation

/// The command line: parses, calls the pipeline, prints, and maps results to exit codes
/// (0 success, 1 site errors, 2 bad usage).
@main
struct Gramgen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gramgen",
        abstract: "Build a fast static photo site from a folder of users and posts.",
        discussion: """
        A site is a folder with content/users/<handle>/profile.md and \
        content/users/<handle>/posts/<post-id>/post.md plus images. \
        `gramgen build` turns it into a static site in public/.
        """,
        version: "0.1.0",
        subcommands: [BuildCommand.self])

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
