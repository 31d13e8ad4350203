import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A built-site stand-in on disk, with a secret file beside it that no request may reach.
struct OutputFixture {
    let parent: URL
    var root: URL { parent.appendingPathComponent("out") }
    static let secret = "TOPSECRET-outside-the-output"

    init() throws {
        parent = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-serve-\(UUID().uuidString)")
        let files: [String: String] = [
            "index.html": "<!doctype html><html><body><h1>Home</h1></body></html>",
            "404.html": "<!doctype html><html><body><h1>Lost here</h1></body></html>",
            "a/b/index.html": "<!doctype html><html><body>deep</body></html>",
            "assets/style.css": "body{color:red}",
            "assets/app.js": "console.log(1)",
            "feed.json": "{\"version\":\"https://jsonfeed.org/version/1.1\"}",
            "alice/feed.json": "{}",
            "feed.xml": "<?xml version=\"1.0\"?><feed/>",
            "sitemap.xml": "<?xml version=\"1.0\"?><urlset/>",
            "media/x.avif": "AVIF", "media/x.webp": "WEBP", "media/x.jpg": "JPEG", "media/x.png": "PNG",
            "icon.svg": "<svg/>", "favicon.ico": "ICO", "robots.txt": "User-agent: *", "font.woff2": "W2",
            "range.txt": "0123456789",
            ".hidden": "hidden file",
            ".well-known/security.txt": "Contact: me",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try Data(Self.secret.utf8).write(to: parent.appendingPathComponent("secret.txt"))
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("escape").path, withDestinationPath: parent.path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("secret-link.txt").path,
                                  withDestinationPath: parent.appendingPathComponent("secret.txt").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("inside.txt").path, withDestinationPath: "range.txt")
    }

    func remove() { try? FileManager.default.removeItem(at: parent) }
}

/// Just enough HTTP/1.1 over a POSIX socket to test the real server without URLSession.
enum RawHTTP {
    struct Reply {
        var status: Int
        var head: String
        var body: String
    }

    static func connect(port: Int, timeout: Double = 5) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    static func get(port: Int, path: String) -> Reply? {
        guard let fd = connect(port: port) else { return nil }
        defer { close(fd) }
        send(fd, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            data += chunk[0..<n]
        }
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let head = String(text[..<split.lowerBound])
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Reply(status: status, head: head, body: String(text[split.upperBound...]))
    }

    /// A port nothing listens on right now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                bind(fd, pointer, length)
                return getsockname(fd, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Reads a server-sent event stream on a thread of its own, keeping everything received.
final class EventStreamReader: @unchecked Sendable {
    private let lock = NSLock()
    private var received = ""
    private let fd: Int32

    init?(port: Int) {
        guard let fd = RawHTTP.connect(port: port, timeout: 0.2) else { return nil }
        self.fd = fd
        RawHTTP.send(fd, "GET /_gramgen/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n == 0 { break }
                if n < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                    break
                }
                let text = String(decoding: chunk[0..<n], as: UTF8.self)
                lock.lock()
                received += text
                lock.unlock()
            }
            Glibc.close(fd)
        }.start()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Waits until `needle` has arrived at least `count` times; false after `seconds`.
    func waitFor(_ needle: String, count: Int = 1, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if text.components(separatedBy: needle).count - 1 >= count { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    func close() { shutdown(fd, Int32(SHUT_RDWR)) }
}
