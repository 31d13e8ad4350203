import ArgumentParser
import Foundation

/// The command line: parses, calls the pipeline, prints, and maps results to exit codes
/// (0 success, 1 site errors, 2 bad usage).
@main
struct Gramgen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gramgen",
        abstract: "Build a fast static photo site from a folder of users and posts.",
        discussion: """
        A site is a folder with content/users/<handle>/profile.md and \
        content/users/<handle>/posts/<post-id>/post.md plus images. \
        `gramgen build` turns it into a static site in public/.
        """,
        version: "0.1.0",
        subcommands: [BuildCommand.self, ServeCommand.self, InitCommand.self, NewCommand.self, ImportCommand.self])

    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
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
