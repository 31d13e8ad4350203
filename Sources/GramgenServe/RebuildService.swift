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
                // Changes that arrive during a build are kept (newest one only), so the build
                // after it sees them: no edit is lost, and a burst is never built twice. The
                // build that runs meanwhile is told, so it leaves what it can for later.
                let (waiting, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
                let fastRender = rebuilder.memory.fastRender
                group.addTask {
                    for await _ in changes {
                        fastRender?.changeArrived()
                        arrived.yield()
                    }
                    arrived.finish()
                }
                group.addTask {
                    await rebuilder.warmUp()
                    for await _ in waiting {
                        fastRender?.changeTaken()
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
