import Foundation
import GramgenBuild
import Hummingbird
import Logging

/// `gramgen serve`: build once, then serve the output while watching the inputs, rebuilding on each
/// change and reloading open pages. Ctrl-C (SIGINT) or SIGTERM shuts it down gracefully.
public struct PreviewServer {
    let options: ServeOptions
    let console: Console
    let report: @Sendable (BuildReport) -> Void

    /// `report` prints each build's diagnostics and summary (the CLI's printer, so both commands
    /// speak alike).
    public init(options: ServeOptions, console: Console, report: @escaping @Sendable (BuildReport) -> Void) {
        self.options = options
        self.console = console
        self.report = report
    }

    public func run() async throws {
        var isFolder: ObjCBool = false
        let content = options.siteRoot.appendingPathComponent("content")
        guard FileManager.default.fileExists(atPath: content.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ServeError.notASite(path: options.siteRoot.path)
        }
        switch PortProbe.check(host: options.host, port: options.port) {
        case .free: break
        case .inUse: throw ServeError.portInUse(port: options.port)
        case .unavailable(let reason): throw ServeError.cannotBind(host: options.host, port: options.port, reason: reason)
        }
        if !PortProbe.isLoopback(options.host) {
            console.problem("warning: listening on \(options.host), so the preview\(options.includeDrafts ? " (drafts included)" : "") "
                + "is visible to other machines on the network — use --host 127.0.0.1 to keep it on this machine")
        }

        // Watching starts first, so an edit made during the first (possibly long) build is not missed.
        let folderChanges = FolderChanges()
        let watch = ChangeWatcher.changes(siteRoot: options.siteRoot, debounceMilliseconds: options.debounceMilliseconds,
                                          settleMilliseconds: options.settleMilliseconds, polling: options.polling,
                                          folderChanges: folderChanges)
        let broadcaster = ReloadBroadcaster()
        let fastRender = FastRender()
        fastRender.shown = { broadcaster.shownFiles }
        let rebuilder = SiteRebuilder(options: options.buildOptions, console: console, broadcaster: broadcaster,
                                      folderChanges: folderChanges, fastRender: fastRender,
                                      recordsQuiet: Double(options.recordsQuietMilliseconds) / 1000, report: report)
        await rebuilder.build()
        var logger = Logger(label: "gramgen.serve")
        logger.logLevel = .critical
        let console = self.console, options = self.options
        let app = Application(
            responder: PreviewResponder(output: options.output, broadcaster: broadcaster,
                                        hosts: HostCheck(listenHost: options.host), fastRender: fastRender),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            services: [RebuildService(changes: watch.stream, rebuilder: rebuilder, broadcaster: broadcaster)],
            onServerRunning: { _ in
                console.info("Serving \(options.siteRoot.path) at \(options.baseURL)")
                console.info("Watching content/, templates/ and static/ (\(watch.method)); press Ctrl-C to stop.")
            },
            logger: logger)
        do {
            try await app.runService()
        } catch {
            broadcaster.close()
            // The probe above makes this rare: another program took the port in the meantime.
            if "\(error)".contains("Address already in use") { throw ServeError.portInUse(port: options.port) }
            throw ServeError.serverFailed(reason: "\(error)")
        }
        broadcaster.close()
        // The last build's records (written after its reload) are on disk before the process ends,
        // so the next start finds the output up to date.
        rebuilder.memory.settle(writing: true)
        console.info("Stopped.")
    }
}
