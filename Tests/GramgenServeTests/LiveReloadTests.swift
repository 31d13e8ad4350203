import Foundation
import GramgenCore
import Testing
@testable import GramgenServe

/// The server half of live reload: what open pages are told after each build.
struct LiveReloadTests {
    @Test("events are framed as server-sent events; error text stays on one data line")
    func framing() {
        #expect(ReloadEvent.reload.text == "event: reload\ndata: reload\n\n")
        #expect(ReloadEvent.ping.text == ": ping\n\n")
        let error = ReloadEvent.error("content/a.md:3: error: bad\n<b>\"x\"</b>").text
        #expect(error == "event: error\ndata: \"content/a.md:3: error: bad\\n<b>\\\"x\\\"</b>\"\n\n")
    }

    @Test("every open page hears every build, and a page opened while the site is broken sees the error")
    func broadcasting() async {
        let broadcaster = ReloadBroadcaster()
        var first = broadcaster.subscribe().makeAsyncIterator()
        var second = broadcaster.subscribe().makeAsyncIterator()
        broadcaster.buildFailed("boom")
        #expect(await first.next() == .error("boom"))
        #expect(await second.next() == .error("boom"))
        var late = broadcaster.subscribe().makeAsyncIterator()
        #expect(await late.next() == .error("boom"))
        broadcaster.buildSucceeded()
        #expect(await first.next() == .reload)
        #expect(await late.next() == .reload)
        var fresh = broadcaster.subscribe().makeAsyncIterator()
        broadcaster.ping()
        #expect(await fresh.next() == .ping, "after a good build a new page gets no stale error")
        broadcaster.close()
        #expect(await first.next() == .ping, "what was sent before closing still arrives")
        #expect(await first.next() == nil)
        #expect(broadcaster.subscriberCount == 0)
    }

    @Test("the script is added before </body>, or at the end without one")
    func injection() {
        let page = Data("<html><body><p>x</p></body></html>".utf8)
        #expect(String(decoding: LiveReloadScript.inject(into: page), as: UTF8.self)
            == "<html><body><p>x</p><script src=\"/_gramgen/live.js\"></script></body></html>")
        #expect(String(decoding: LiveReloadScript.inject(into: Data("<p>x".utf8)), as: UTF8.self)
            == "<p>x<script src=\"/_gramgen/live.js\"></script>")
    }

    @Test("byte ranges follow RFC 9110")
    func byteRanges() {
        #expect(ByteRange(header: nil, length: 10) == .whole)
        #expect(ByteRange(header: "bytes=0-0", length: 10) == .part(0...0))
        #expect(ByteRange(header: "bytes=5-100", length: 10) == .part(5...9))
        #expect(ByteRange(header: "bytes=-20", length: 10) == .part(0...9))
        #expect(ByteRange(header: "bytes=10-", length: 10) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=abc", length: 10) == .unsatisfiable)
        #expect(ByteRange(header: "items=1-2", length: 10) == .whole)
        #expect(ByteRange(header: "bytes=0-1", length: 0) == .unsatisfiable)
    }

    @Test("HTTP dates round-trip")
    func httpDates() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        var random = SeededRandom.forTest("LiveReloadTests.httpDates")
        for _ in 0..<1000 {
            let seconds = Int.random(in: 0...4_102_444_800, using: &random)
            #expect(HTTPDate.parse(HTTPDate.format(seconds)) == seconds, "\(seconds)")
        }
    }
}
