import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GramgenServe

/// No request may read anything outside the output folder, however the path is spelled.
struct TraversalTests {
    @Test("traversal attempts never leave the output folder", arguments: [
        "/../etc/passwd",
        "/../../../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E/secret.txt",
        "/../secret.txt",
        "/a/../../secret.txt",
        "/a%2f..%2f..%2fetc",
        "/a%2f..%2f..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/..%5csecret.txt",
        "/..\\secret.txt",
        "/%252e%252e/secret.txt",
        "/secret.txt%00.html",
        "/%c0%ae%c0%ae/secret.txt",
        "/escape/secret.txt",
        "/secret-link.txt",
        "/passwd",
        "//etc/passwd",
    ])
    func traversal(path: String) async throws {
        let fixture = try OutputFixture()
        defer { fixture.remove() }
        let app = Application(responder: PreviewResponder(output: fixture.root, broadcaster: ReloadBroadcaster()))
        try await app.test(.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .notFound || response.status == .badRequest, "\(path) → \(response.status)")
                let body = String(buffer: response.body)
                #expect(!body.contains(OutputFixture.secret) && !body.contains("root:"), "\(path) leaked")
            }
        }
    }

    @Test("request paths are decoded once and checked segment by segment")
    func requestPaths() {
        #expect(RequestPath(raw: "/") == .segments([], trailingSlash: true))
        #expect(RequestPath(raw: "/tags/caf%C3%A9/") == .segments(["tags", "café"], trailingSlash: true))
        #expect(RequestPath(raw: "/a//b") == .segments(["a", "b"], trailingSlash: false))
        #expect(RequestPath(raw: "/.well-known/x") == .segments([".well-known", "x"], trailingSlash: false))
        #expect(RequestPath(raw: "/a/%2e%2e/b") == .forbidden)
        #expect(RequestPath(raw: "/.git/config") == .forbidden)
        #expect(RequestPath(raw: "/./a") == .forbidden)
        #expect(RequestPath(raw: "/a%2Fb") == .malformed)
        #expect(RequestPath(raw: "/a%5Cb") == .malformed)
        #expect(RequestPath(raw: "/a%00") == .malformed)
        #expect(RequestPath(raw: "/%zz") == .malformed)
        #expect(RequestPath(raw: "relative") == .malformed)
    }
}
