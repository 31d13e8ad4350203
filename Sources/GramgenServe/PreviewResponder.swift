import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import GramgenBuild

/// Every request of the preview server: the two live-reload endpoints under `/_gramgen/`, and the
/// built site for everything else. Public so tests can drive it in process (HummingbirdTesting).
public struct PreviewResponder: HTTPResponder {
    public typealias Context = BasicRequestContext

    let files: StaticFileResponder
    let broadcaster: ReloadBroadcaster
    let hosts: HostCheck
    /// Pages a build left for later are held until the catch-up build has drawn them.
    let fastRender: FastRender?

    public init(output: URL, broadcaster: ReloadBroadcaster, hosts: HostCheck = HostCheck(listenHost: "127.0.0.1"),
                fastRender: FastRender? = nil) {
        files = StaticFileResponder(folder: OutputFolder(root: output))
        self.broadcaster = broadcaster
        self.hosts = hosts
        self.fastRender = fastRender
    }

    /// How long a request for a page left for later waits for the catch-up build at most; then
    /// the page is served as it is.
    static let staleWait = Duration.seconds(30)

    /// HTTP/1.1's `Host` header, when a request arrives without an authority.
    private static let host = HTTPField.Name("Host")!

    public func respond(to request: Request, context: Context) async throws -> Response {
        guard hosts.allows(request.head.authority), hosts.allows(request.headers[Self.host]) else {
            return StaticFileResponder.plain(.misdirectedRequest, "This preview answers only to localhost.\n",
                                             head: request.method == .head)
        }
        switch request.uri.path {
        case LiveReloadScript.path where request.method == .get || request.method == .head:
            return StaticFileResponder.response(
                .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                body: LiveReloadScript.sourceData, head: request.method == .head)
        case LiveReloadScript.eventsPath where request.method == .get:
            return events(page: Self.shownPage(request.uri.queryParameters["page"].map(String.init)))
        default:
            try await waitUntilDrawn(RequestPath(raw: request.uri.path).outputFiles)
            return files.respond(to: request)
        }
    }

    /// The output files of the page an events stream comes from: the live-reload script sends
    /// its path, percent-encoded, as `?page=` (`page`: that parameter, decoded once).
    static func shownPage(_ page: String?) -> [String] {
        page.map { RequestPath(raw: $0).outputFiles } ?? []
    }

    /// Returns once none of `files` is a page left for later (or after `staleWait`): looked at
    /// again each time a build publishes, not polled, so held requests cost nothing while they wait.
    private func waitUntilDrawn(_ files: [String]) async throws {
        guard let fastRender, fastRender.hasStale else { return }
        let changes = fastRender.staleChanges()  // before the look, so no publish falls between
        guard files.contains(where: fastRender.isStale) else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in changes where !files.contains(where: fastRender.isStale) { return }
            }
            group.addTask { try? await Task.sleep(for: Self.staleWait) }
            await group.next()
            group.cancelAll()
        }
    }

    /// The SSE stream of one page. It ends when the page goes away or when the server shuts down
    /// (a stream that never ends would otherwise hold graceful shutdown open for ever).
    private func events(page: [String]) -> Response {
        let broadcaster = self.broadcaster
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let stream = broadcaster.subscribe(page: page)
            try await writer.write(ByteBuffer(string: ReloadEvent.opening))
            try await withGracefulShutdownHandler {
                for await event in stream {
                    try await writer.write(ByteBuffer(string: event.text))
                }
            } onGracefulShutdown: {
                broadcaster.close()
            }
            try await writer.finish(nil)
        })
    }
}
