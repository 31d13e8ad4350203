import Foundation
import ServiceLifecycle

/// The watch → rebuild → reload loop, and the keep-alive pings, run beside the HTTP server and
/// stopped with it on Ctrl-C.
struct RebuildService: Service {
    let changes: AsyncStream<Void>
    let rebuilder: SiteRebuilder
    let broadcaster: ReloadBroadcaster
    var pingSeconds = 15

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await rebuilder.warmUp()
                    // Changes that arrive during a build are kept (newest one only), so the build
                    // after it sees them: no edit is lost, and a burst is never built twice.
                    for await _ in changes {
                        await rebuilder.build()
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(pingSeconds))
                        if !Task.isCancelled { broadcaster.ping() }
                    }
                }
            }
        }
    }
}
