import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GramgenBuild
@testable import GramgenServe

/// The server's half of fast render: which pages are open, and holding a page left for later.
struct FastRenderServeTests {
    @Test("an open page names its output file, which builds then draw before the reload")
    func shownPages() {
        #expect(RequestPath(raw: "/").outputFiles == ["index.html"])
        #expect(RequestPath(raw: "/page/3/").outputFiles == ["page/3", "page/3/index.html"])
        #expect(RequestPath(raw: "/tags/caf%C3%A9/").outputFiles == ["tags/café", "tags/café/index.html"])
        #expect(RequestPath(raw: "/../etc/").outputFiles == [])
        let broadcaster = ReloadBroadcaster()
        let stream = broadcaster.subscribe(page: RequestPath(raw: "/alice/").outputFiles)
        #expect(broadcaster.shownFiles == ["alice", "alice/index.html"])
        broadcaster.close()
        _ = stream
        #expect(broadcaster.shownFiles.isEmpty)
    }

    @Test("a request for a page left for later waits until the catch-up build has drawn it; others do not wait")
    func heldUntilDrawn() async throws {
        let fixture = try OutputFixture()
        defer { fixture.remove() }
        let fastRender = FastRender()
        fastRender.published(leftForLater: ["a/b/index.html"])
        let app = Application(responder: PreviewResponder(output: fixture.root, broadcaster: ReloadBroadcaster(), fastRender: fastRender))
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
            }
            let served = Task {
                try await client.execute(uri: "/a/b/", method: .get) { response in
                    (response.status, ContinuousClock.now)
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let drawn = ContinuousClock.now
            fastRender.published(leftForLater: [])
            let (status, at) = try await served.value
            #expect(status == .ok)
            #expect(at >= drawn, "answered only once the page was drawn")
        }
    }

    @Test("the events stream of a page names its output file, as the live-reload script sends it")
    func eventsNameThePage() {
        // encodeURIComponent(location.pathname) on /tags/café/
        #expect(PreviewResponder.shownPage("/tags/caf%C3%A9/") == ["tags/café", "tags/café/index.html"])
        #expect(PreviewResponder.shownPage("/") == ["index.html"])
        #expect(PreviewResponder.shownPage(nil) == [])
    }
}
