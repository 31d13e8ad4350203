import ArgumentParser
import Foundation
import GramgenBuild

struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site into the output folder.",
        discussion: """
        Reads content/, templates/ and static/ under the site folder and writes the finished site. \
        The site is written to a temporary folder and swapped in only when complete: when the \
        site has errors, every one is listed and the previous output stays as it was (exit 1).
        """)

    @Option(name: .long, help: ArgumentHelp("The site folder (holding content/).", valueName: "dir"))
    var site: String = "."

    @Option(name: .long, help: ArgumentHelp("Where to write the site (default: <site>/public).", valueName: "dir"))
    var output: String?

    @Option(name: .customLong("base-url"),
            help: ArgumentHelp("Absolute URL the site is served from; overrides base_url in site.yml.", valueName: "url"))
    var baseURL: String?

    @Flag(name: .long, help: "Include posts marked `draft: true`.")
    var drafts = false

    @Flag(name: .long, help: "Treat warnings (e.g. mentions of unknown users) as errors.")
    var strict = false

    @Option(name: .long, help: ArgumentHelp("Images processed in parallel (default: number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(name: .long, help: "Print only errors and warnings.")
    var quiet = false

    @Flag(name: .long, help: "Also print each stage and its time.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be from 1 to 256.") }
    }

    func run() throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let siteRoot = URL(fileURLWithPath: site, relativeTo: cwd).standardizedFileURL
        var options = BuildOptions(siteRoot: siteRoot,
                                   output: output.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL })
        options.baseURL = baseURL
        options.includeDrafts = drafts
        options.strict = strict
        if let jobs { options.jobs = jobs }
        options.verbosity = quiet ? .quiet : verbose ? .verbose : .normal
        options.endsProcess = true
        let console = Console(verbosity: options.verbosity)
        let report = BuildPipeline(options: options, console: console).run()
        ReportPrinter(console: console, colour: isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
            .print(report, output: options.output, cwd: cwd)
        if !report.published { throw ExitCode(1) }
    }
}
