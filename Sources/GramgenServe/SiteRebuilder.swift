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
    let memory: BuildMemory

    /// `folderChanges`: what the watcher tells of each change, so a rebuild reads only the
    /// folders that changed.
    ///
    /// `fastRender`: a build after an edit may leave pages the browser does not show for a
    /// catch-up build right after its reload (`FastRender`).
    ///
    /// `recordsQuiet`: how long without a change before a build's records are written
    /// (`BuildMemory.settle`).
    public init(options: BuildOptions, console: Console, broadcaster: ReloadBroadcaster, folderChanges: FolderChanges = FolderChanges(),
                fastRender: FastRender? = nil, recordsQuiet: TimeInterval = 0, report: @escaping @Sendable (BuildReport) -> Void) {
        memory = BuildMemory(folderChanges: folderChanges, fastRender: fastRender, recordsQuiet: recordsQuiet)
        self.options = options
        self.console = console
        self.broadcaster = broadcaster
        self.report = report
    }

    /// Builds on a thread of its own: the pipeline blocks (libvips, file IO), and the few threads
    /// Swift concurrency has must stay free to answer requests meanwhile.
    @discardableResult
    public func build() async -> BuildReport {
        let result = await onBuildThread { $0.run() }
        report(result)
        if result.published {
            broadcaster.buildSucceeded()
        } else {
            broadcaster.buildFailed(Self.overlayText(result))
        }
        await catchUp()
        return result
    }

    /// Draws the pages the last build left for later, unless a change waits (its build comes
    /// first, and leaves or draws them in turn). Quiet when it succeeds: the pages open in a
    /// browser were drawn already. A change made meanwhile is built after it and reloads then.
    private func catchUp() async {
        guard let fastRender = memory.fastRender, fastRender.hasStale, !fastRender.isChangeWaiting else { return }
        let result = await onBuildThread { $0.catchUp() }
        if result.stoppedForChange {
            return
        } else if result.published {
            console.detail(String(format: "Drew %d pages left for later in %.2fs%@", result.pagesDrawn, result.totalSeconds,
                                  result.pagesLeftForLater > 0 ? " (\(result.pagesLeftForLater) left again: a change waits)" : ""))
        } else {
            report(result)
            broadcaster.buildFailed(Self.overlayText(result))
        }
    }

    /// After a start that found the output up to date, loads the site into memory all the same
    /// (every page is taken over), so that the first edit is rebuilt as quickly as the next ones.
    /// Quiet, and no reload: nothing in the output changes.
    public func warmUp() async {
        _ = await onBuildThread { $0.warmUp() }
        await catchUp()
    }

    /// Runs `body` on a pipeline of its own thread: the pipeline blocks (libvips, file IO), and
    /// the few threads Swift concurrency has must stay free to answer requests meanwhile. What
    /// the build leaves to write down is written after the result is handed back (the browser is
    /// told to reload meanwhile).
    private func onBuildThread<Result: Sendable>(_ body: @escaping @Sendable (BuildPipeline) -> Result) async -> Result {
        let pipeline = BuildPipeline(options: options, console: console, memory: memory), memory = self.memory
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: body(pipeline))
                memory.settle()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// What the browser overlay shows: every problem, errors first, one per line.
    static func overlayText(_ report: BuildReport) -> String {
        let problems = report.diagnostics.sorted.sorted { $0.severity > $1.severity }.map(\.description)
        return problems.isEmpty ? "The build failed." : problems.joined(separator: "\n")
    }
}
