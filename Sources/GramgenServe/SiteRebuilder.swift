import Foundation
import GramgenBuild

/// Runs one build at a time and tells the pages how it went. A failed build publishes nothing
/// (BuildPipeline's guarantee), so the last good site stays served while the error is shown.
public final class SiteRebuilder: @unchecked Sendable {
    let options: BuildOptions
    let console: Console
    let broadcaster: ReloadBroadcaster
    /// Prints a build's diagnostics and summary the way `gramgen build` does (the CLI owns the format).
    let report: @Sendable (BuildReport) -> Void
    /// What each build leaves for the next (posts as loaded, the image cache's index, the output's
    /// record): a rebuild after one edit reads only what changed.
    let memory = BuildMemory()

    public init(options: BuildOptions, console: Console, broadcaster: ReloadBroadcaster,
                report: @escaping @Sendable (BuildReport) -> Void) {
        self.options = options
        self.console = console
        self.broadcaster = broadcaster
        self.report = report
    }

    /// Builds on a thread of its own: the pipeline blocks (libvips, file IO), and the few threads
    /// Swift concurrency has must stay free to answer requests meanwhile.
    @discardableResult
    public func build() async -> BuildReport {
        let options = self.options, console = self.console, memory = self.memory
        let result: BuildReport = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: BuildPipeline(options: options, console: console, memory: memory).run())
                // The browser is told to reload meanwhile.
                memory.settle()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        report(result)
        if result.published {
            broadcaster.buildSucceeded()
        } else {
            broadcaster.buildFailed(Self.overlayText(result))
        }
        return result
    }

    /// What the browser overlay shows: every problem, errors first, one per line.
    static func overlayText(_ report: BuildReport) -> String {
        let problems = report.diagnostics.sorted.sorted { $0.severity > $1.severity }.map(\.description)
        return problems.isEmpty ? "The build failed." : problems.joined(separator: "\n")
    }
}
