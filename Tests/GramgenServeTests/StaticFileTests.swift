import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GramgenServe

/// The preview server's HTTP behaviour, in process: what a browser (or a feed reader) gets back.
struct StaticFileTests {
    static func withServer(_ test: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let fixture = try OutputFixture()
        defer { fixture.remove() }
        let app = Application(responder: PreviewResponder(output: fixture.root, broadcaster: ReloadBroadcaster()))
        try await app.test(.router, test)
    }

    @Test("every file type the site holds has its proper content type", arguments: [
        ("/assets/style.css", "text/css; charset=utf-8"),
        ("/assets/app.js", "text/javascript; charset=utf-8"),
        ("/feed.json", "application/feed+json"),
        ("/alice/feed.json", "application/feed+json"),
        ("/feed.xml", "application/atom+xml"),
        ("/sitemap.xml", "application/xml"),
        ("/media/x.avif", "image/avif"),
        ("/media/x.webp", "image/webp"),
        ("/media/x.jpg", "image/jpeg"),
        ("/media/x.png", "image/png"),
        ("/icon.svg", "image/svg+xml"),
        ("/favicon.ico", "image/x-icon"),
        ("/robots.txt", "text/plain; charset=utf-8"),
        ("/font.woff2", "font/woff2"),
        ("/", "text/html; charset=utf-8"),
    ])
    func contentTypes(path: String, type: String) async throws {
        try await Self.withServer { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == type)
            }
        }
    }

    @Test("folders serve index.html, and a folder without its slash is redirected")
    func folders() async throws {
        try await Self.withServer { client in
            try await client.execute(uri: "/a/b/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("deep"))
            }
            try await client.execute(uri: "/a/b", method: .get) { response in
                #expect(response.status == .movedPermanently)
                #expect(response.headers[.location] == "/a/b/")
            }
            try await client.execute(uri: "/a/b?x=1", method: .get) { response in
                #expect(response.headers[.location] == "/a/b/?x=1")
            }
            try await client.execute(uri: "/a/", method: .get) { response in
                #expect(response.status == .notFound, "a folder without index.html is not listed")
            }
        }
    }

    @Test("a missing page gets the site's 404.html with status 404")
    func notFound() async throws {
        try await Self.withServer { client in
            for path in ["/nope", "/alice/p/none/", "/range.txt/", "/.hidden"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                    #expect(String(buffer: response.body).contains("Lost here"), "\(path)")
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                }
            }
            try await client.execute(uri: "/.well-known/security.txt", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("an unchanged file is answered 304 through its ETag")
    func etag() async throws {
        try await Self.withServer { client in
            let tag = try await client.execute(uri: "/assets/style.css", method: .get) { $0.headers[.eTag] }
            let etag = try #require(tag)
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            try await client.execute(uri: "/assets/style.css", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == etag)
            }
            try await client.execute(uri: "/assets/style.css", method: .get, headers: [.ifNoneMatch: "\"other\", W/\(etag)"]) {
                #expect($0.status == .notModified)
            }
            try await client.execute(uri: "/assets/style.css", method: .get, headers: [.ifNoneMatch: "\"other\""]) {
                #expect($0.status == .ok)
            }
            // HTML is served with the script added, so its tag differs from the file's own.
            let page = try await client.execute(uri: "/", method: .get) { $0.headers[.eTag] }
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: try #require(page)]) {
                #expect($0.status == .notModified)
            }
        }
    }

    @Test("an unchanged file is answered 304 through Last-Modified")
    func lastModified() async throws {
        try await Self.withServer { client in
            let date = try await client.execute(uri: "/feed.xml", method: .get) { $0.headers[.lastModified] }
            let modified = try #require(date)
            #expect(modified.hasSuffix(" GMT"))
            try await client.execute(uri: "/feed.xml", method: .get, headers: [.ifModifiedSince: modified]) {
                #expect($0.status == .notModified)
            }
            try await client.execute(uri: "/feed.xml", method: .get, headers: [.ifModifiedSince: "Thu, 01 Jan 1970 00:00:00 GMT"]) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/feed.xml", method: .get, headers: [.ifModifiedSince: "yesterday"]) {
                #expect($0.status == .ok, "an unreadable date is ignored")
            }
        }
    }

    @Test("HEAD sends the headers of GET without a body")
    func head() async throws {
        try await Self.withServer { client in
            try await client.execute(uri: "/range.txt", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == "10")
                #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/nope", method: .head) { response in
                #expect(response.status == .notFound)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/range.txt", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
            }
        }
    }

    @Test("a single byte range is answered 206, one outside the file 416")
    func ranges() async throws {
        try await Self.withServer { client in
            try await client.execute(uri: "/range.txt", method: .get, headers: [.range: "bytes=2-5"]) { response in
                #expect(response.status == .partialContent)
                #expect(String(buffer: response.body) == "2345")
                #expect(response.headers[.contentRange] == "bytes 2-5/10")
                #expect(response.headers[.contentLength] == "4")
            }
            try await client.execute(uri: "/range.txt", method: .get, headers: [.range: "bytes=-3"]) { response in
                #expect(response.status == .partialContent)
                #expect(String(buffer: response.body) == "789")
            }
            try await client.execute(uri: "/range.txt", method: .get, headers: [.range: "bytes=7-"]) { response in
                #expect(String(buffer: response.body) == "789")
                #expect(response.headers[.contentRange] == "bytes 7-9/10")
            }
            try await client.execute(uri: "/range.txt", method: .get, headers: [.range: "bytes=20-30"]) { response in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */10")
            }
            try await client.execute(uri: "/range.txt", method: .get, headers: [.range: "bytes=5-2"]) {
                #expect($0.status == .rangeNotSatisfiable)
            }
            try await client.execute(uri: "/range.txt", method: .get, headers: [.range: "bytes=0-1,4-5"]) { response in
                #expect(response.status == .ok, "several ranges: the whole file")
                #expect(String(buffer: response.body) == "0123456789")
            }
            try await client.execute(uri: "/range.txt", method: .get, headers: [.range: "bytes=0-1", .ifRange: "\"stale\""]) {
                #expect($0.status == .ok, "If-Range that does not match: the whole file")
            }
        }
    }

    @Test("a video larger than one read is sent in pieces from the file, whole or by range, byte for byte")
    func largeVideo() async throws {
        let fixture = try OutputFixture()
        defer { fixture.remove() }
        // Three and a half chunks, each byte its own position's low bits, so a misplaced piece shows.
        let size = StaticFileResponder.chunkBytes * 7 / 2
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        try bytes.write(to: fixture.root.appendingPathComponent("media/clip.mp4"))
        let app = Application(responder: PreviewResponder(output: fixture.root, broadcaster: ReloadBroadcaster()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/media/clip.mp4", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "video/mp4")
                #expect(response.headers[.acceptRanges] == "bytes")
                #expect(Data(buffer: response.body) == bytes)
            }
            let start = StaticFileResponder.chunkBytes - 10, end = StaticFileResponder.chunkBytes * 2 + 10
            try await client.execute(uri: "/media/clip.mp4", method: .get, headers: [.range: "bytes=\(start)-\(end)"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes \(start)-\(end)/\(size)")
                #expect(Data(buffer: response.body) == bytes[start...end])
            }
            try await client.execute(uri: "/media/clip.mp4", method: .head) { response in
                #expect(response.headers[.contentLength] == String(size))
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test("the live-reload script goes into HTML responses only")
    func injection() async throws {
        try await Self.withServer { client in
            for path in ["/", "/a/b/", "/nope"] {
                try await client.execute(uri: path, method: .get) { response in
                    let body = String(buffer: response.body)
                    #expect(body.contains("<script src=\"/_gramgen/live.js\"></script></body>"), "\(path)")
                    #expect(response.headers[.contentLength] == String(response.body.readableBytes))
                }
            }
            for path in ["/assets/style.css", "/feed.json", "/feed.xml", "/assets/app.js"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(!String(buffer: response.body).contains("_gramgen"), "\(path)")
                }
            }
            try await client.execute(uri: "/_gramgen/live.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                let script = String(buffer: response.body)
                // It names the page it is on (fast render draws that page before the reload).
                #expect(script.contains("new EventSource(\"/_gramgen/events?page=\" + encodeURIComponent(location.pathname))"))
                #expect(script.contains("textContent") && !script.contains("innerHTML"))
            }
        }
    }

    @Test("a symlink that stays inside the output is served")
    func insideLink() async throws {
        try await Self.withServer { client in
            try await client.execute(uri: "/inside.txt", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "0123456789")
            }
        }
    }
}
