import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GramgenServe

/// The preview answers only to its own address and loopback names (no DNS rebinding), and never
/// redirects to another host.
struct HostCheckTests {
    @Test("Host headers the preview answers on 127.0.0.1", arguments: [
        ("localhost:8000", true), ("127.0.0.1:8000", true), ("LOCALHOST", true), ("[::1]:8000", true),
        ("app.localhost:8000", true), ("localhost.", true), (nil, true),
        ("evil.example:8000", false), ("127.0.0.1.evil.example", false), ("localhost.evil.example", false),
        ("192.168.1.5:8000", false),
    ] as [(String?, Bool)])
    func loopback(_ host: String?, _ allowed: Bool) {
        #expect(HostCheck(listenHost: "127.0.0.1").allows(host) == allowed)
    }

    @Test("listening on an address answers it too; on every address, every name")
    func otherAddresses() {
        #expect(HostCheck(listenHost: "192.168.1.5").allows("192.168.1.5:8000"))
        #expect(!HostCheck(listenHost: "192.168.1.5").allows("evil.example"))
        #expect(HostCheck(listenHost: "0.0.0.0").allows("my-laptop.lan:8000"))
    }

    @Test("a request for another host gets 421 and none of the site")
    func misdirected() async throws {
        let fixture = try OutputFixture()
        defer { fixture.remove() }
        let app = Application(responder: PreviewResponder(output: fixture.root, broadcaster: ReloadBroadcaster()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get, headers: [HTTPField.Name("Host")!: "evil.example:8000"]) { response in
                #expect(response.status == .misdirectedRequest)
                #expect(!String(buffer: response.body).contains("Home"))
            }
            try await client.execute(uri: "/", method: .get, headers: [HTTPField.Name("Host")!: "localhost:8000"]) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("a folder redirect never points at another host", arguments: ["//a/b", "///a/b", "/\\a/b"])
    func redirectStaysHere(_ path: String) async throws {
        let fixture = try OutputFixture()
        defer { fixture.remove() }
        #expect(StaticFileResponder.sameSiteLocation(path + "/") == "/a/b/" || !path.hasPrefix("//"))
        let app = Application(responder: PreviewResponder(output: fixture.root, broadcaster: ReloadBroadcaster()))
        try await app.test(.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                if let location = response.headers[.location] {
                    #expect(location.hasPrefix("/") && !location.hasPrefix("//") && !location.hasPrefix("/\\"), "\(location)")
                }
            }
        }
    }
}
