import ArgumentParser
import Foundation
import GramgenBuild
import GramgenServe

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview the site in a browser, rebuilding and reloading on every save.",
        discussion: """
        Builds the site into <site>/.gramgen/serve/ (public/ is left alone), serves it at \
        http://127.0.0.1:8000/ and watches content/, templates/ and static/. After each change the \
        site is rebuilt (only changed images are processed again) and open pages reload. A broken \
        edit keeps the last good site served and shows the error in the page until the next good save.
        """)

    @Option(name: .long, help: ArgumentHelp("The site folder (holding content/).", valueName: "dir"))
    var site: String = "."

    @Option(name: .long, help: ArgumentHelp("The port to listen on.", valueName: "port"))
    var port: Int = 8000

    @Option(name: .long, help: ArgumentHelp("The address to listen on; anything but loopback shows the preview to the network.",
                                           valueName: "host"))
    var host: String = "127.0.0.1"

    @Flag(name: .long, help: "Include posts marked `draft: true`.")
    var drafts = false

    @Flag(name: .long, help: "Poll for changes every 500 ms instead of using inotify (for network or container mounts).")
    var poll = false

    @Flag(name: .long, help: "Also print each build's stages and their times.")
    var verbose = false

    func validate() throws {
        if !(1...65535).contains(port) { throw ValidationError("--port must be from 1 to 65535.") }
        if host.isEmpty { throw ValidationError("--host must not be empty.") }
    }

    func run() async throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var options = ServeOptions(siteRoot: URL(fileURLWithPath: site, relativeTo: cwd).standardizedFileURL)
        options.host = host
        options.port = port
        options.includeDrafts = drafts
        options.polling = poll
        options.verbosity = verbose ? .verbose : .normal
        let console = Console(verbosity: options.verbosity)
        let printer = ReportPrinter(console: console,
                                    colour: isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        let output = options.output
        do {
            try await PreviewServer(options: options, console: console) { report in
                printer.print(report, output: output, cwd: cwd)
            }.run()
        } catch let error as ServeError {
            console.problem("error: \(error)")
            throw ExitCode(1)
        }
    }
}
