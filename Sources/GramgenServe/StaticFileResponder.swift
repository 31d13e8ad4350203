import Foundation
import GramgenCore
import Hummingbird

/// Serves the built site the way a static host would (index.html for folders, the site's 404.html,
/// validators and ranges), plus the one thing a host would not: the live-reload script in HTML.
struct StaticFileResponder: Sendable {
    let folder: OutputFolder
    /// Off only in tests that check the files are served byte for byte.
    var injectsLiveReload = true

    func respond(to request: Request) -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.plain(.methodNotAllowed, "Only GET and HEAD are served.\n", extra: [.allow: "GET, HEAD"])
        }
        let head = request.method == .head
        switch RequestPath(raw: request.uri.path) {
        case .malformed:
            return Self.plain(.badRequest, "Bad request path.\n", head: head)
        case .forbidden:
            return notFound(head: head)
        case .segments(let segments, let trailingSlash):
            switch folder.lookup(segments) {
            case .file(let file) where !trailingSlash:
                return serve(file, request: request, head: head)
            case .folder where !trailingSlash:
                let query = request.uri.query.map { "?\($0)" } ?? ""
                return Self.plain(.movedPermanently, "Moved.\n", head: head,
                                  extra: [.location: Self.sameSiteLocation(request.uri.path + "/") + query])
            case .folder:
                if case .file(let index) = folder.index(of: segments) {
                    return serve(index, request: request, head: head)
                }
                return notFound(head: head)
            case .file, .missing:
                return notFound(head: head)
            }
        }
    }

    /// A 200 (or 206/304/416) for a file that exists.
    private func serve(_ file: OutputFolder.File, request: Request, head: Bool) -> Response {
        let validators = FileValidators(file: file, injected: injects(file))
        var headers = validators.headers
        headers[.contentType] = ContentTypes.type(forFileName: file.name)
        headers[.acceptRanges] = "bytes"
        // Media names carry their content hash; everything else must be revalidated to see edits.
        headers[.cacheControl] = file.relative.hasPrefix("media/") ? "public, max-age=31536000, immutable" : "no-cache"
        if validators.notModified(request.headers) {
            return Response(status: .notModified, headers: headers)
        }
        // HTML gets the reload script, so it is read whole (pages are small); everything else,
        // videos above all, is sent from the file as it is read, only the bytes asked for.
        let source: Body
        if injects(file) {
            guard let page = contents(of: file) else { return notFound(head: head) }
            source = .memory(page)
        } else {
            guard let handle = folder.open(file), let size = try? handle.seekToEnd() else {
                return notFound(head: head)
            }
            source = .file(handle, Int(size))
        }
        var range = ByteRange(header: request.headers[.range], length: source.count)
        if let ifRange = request.headers[.ifRange], !validators.matches(ifRange) { range = .whole }
        switch range {
        case .whole:
            return Self.response(.ok, headers: headers, body: source, bytes: 0..<source.count, head: head)
        case .part(let bounds):
            headers[.contentRange] = "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(source.count)"
            return Self.response(.partialContent, headers: headers, body: source, bytes: bounds.lowerBound..<bounds.upperBound + 1, head: head)
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(source.count)"
            headers[.contentType] = "text/plain; charset=utf-8"
            return Self.response(.rangeNotSatisfiable, headers: headers, body: Data("Range not satisfiable.\n".utf8), head: head)
        }
    }

    /// What a response sends: bytes in memory, or an open file of known size.
    enum Body {
        case memory(Data)
        case file(FileHandle, Int)

        var count: Int {
            switch self {
            case .memory(let data): data.count
            case .file(_, let size): size
            }
        }
    }

    /// Bytes read from a file and written at a time.
    static let chunkBytes = 256 * 1024

    /// `bytes` of `body`; a file is read in chunks as the connection takes them.
    static func response(_ status: HTTPResponse.Status, headers: HTTPFields, body: Body, bytes: Range<Int>,
                         head: Bool) -> Response {
        switch body {
        case .memory(let data):
            return response(status, headers: headers, body: Data(data[data.startIndex + bytes.lowerBound..<data.startIndex + bytes.upperBound]),
                            head: head)
        case .file(let handle, _):
            var headers = headers
            headers[.contentLength] = String(bytes.count)
            guard !head else {
                try? handle.close()
                return Response(status: status, headers: headers, body: ResponseBody())
            }
            let stream = ResponseBody(contentLength: bytes.count) { writer in
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(bytes.lowerBound))
                var remaining = bytes.count
                while remaining > 0 {
                    guard let chunk = try handle.read(upToCount: min(remaining, chunkBytes)), !chunk.isEmpty else { break }
                    try await writer.write(ByteBuffer(bytes: chunk))
                    remaining -= chunk.count
                }
                try await writer.finish(nil)
            }
            return Response(status: status, headers: headers, body: stream)
        }
    }

    /// The site's own 404.html with status 404; a plain page (still reloading) when the site has none yet.
    private func notFound(head: Bool) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"]
        if case .file(let page) = folder.lookup([SitePaths.notFound]), let body = contents(of: page) {
            return Self.response(.notFound, headers: headers, body: body, head: head)
        }
        headers[.contentType] = "text/html; charset=utf-8"
        var page = Data("<!doctype html><meta charset=utf-8><title>Not found</title><body><h1>Not found</h1></body>".utf8)
        if injectsLiveReload { page = LiveReloadScript.inject(into: page) }
        return Self.response(.notFound, headers: headers, body: page, head: head)
    }

    private func injects(_ file: OutputFolder.File) -> Bool {
        injectsLiveReload && ContentTypes.isHTML(ContentTypes.type(forFileName: file.name))
    }

    private func contents(of file: OutputFolder.File) -> Data? {
        guard let data = folder.read(file) else { return nil }
        return injects(file) ? LiveReloadScript.inject(into: data) : data
    }

    static func response(_ status: HTTPResponse.Status, headers: HTTPFields, body: Data, head: Bool) -> Response {
        var headers = headers
        headers[.contentLength] = String(body.count)
        return Response(status: status, headers: headers, body: head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A redirect target that stays on this server: `//evil.example/` would be read by the
    /// browser as another host, so leading slashes (and backslashes, which browsers treat alike)
    /// become one.
    static func sameSiteLocation(_ path: String) -> String {
        "/" + path.drop { $0 == "/" || $0 == "\\" }
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String, head: Bool = false, extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "text/plain; charset=utf-8"
        return response(status, headers: headers, body: Data(text.utf8), head: head)
    }
}
