import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// Every request of the preview server: the two live-reload endpoints under `/_gramgen/`, and the
/// built site for everything else. Public so tests can drive it in process (HummingbirdTesting).
public struct PreviewResponder: HTTPResponder {
    public typealias Context = BasicRequestContext

    let files: StaticFileResponder
    let broadcaster: ReloadBroadcaster
    let hosts: HostCheck

    public init(output: URL, broadcaster: ReloadBroadcaster, hosts: HostCheck = HostCheck(listenHost: "127.0.0.1")) {
        files = StaticFileResponder(folder: OutputFolder(root: output))
        self.broadcaster = broadcaster
        self.hosts = hosts
    }

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
            return events()
        default:
            return files.respond(to: request)
        }
    }

    /// The SSE stream of one page. It ends when the page goes away or when the server shuts down
    /// (a stream that never ends would otherwise hold graceful shutdown open for ever).
    private func events() -> Response {
        let broadcaster = self.broadcaster
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let stream = broadcaster.subscribe()
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
