import Foundation
import Hummingbird

/// ETag and Last-Modified for a served file, and the conditional-request rules that use them, so a
/// browser revalidating an unchanged page gets a 304 instead of the page again.
struct FileValidators {
    let etag: String
    let lastModified: String
    let modifiedSeconds: Int

    /// Size and modification time identify the file's bytes: every build rewrites the pages it makes,
    /// so an edit always moves the time. Injected HTML gets its own tag, since its bytes differ.
    init(file: OutputFolder.File, injected: Bool) {
        let nanos = String(Int(file.modified.tv_nsec), radix: 16)
        etag = "\"\(String(file.size, radix: 16))-\(String(Int(file.modified.tv_sec), radix: 16))\(nanos)\(injected ? "-lr" : "")\""
        modifiedSeconds = Int(file.modified.tv_sec)
        lastModified = HTTPDate.format(modifiedSeconds)
    }

    var headers: HTTPFields { [.eTag: etag, .lastModified: lastModified] }

    /// If-None-Match wins over If-Modified-Since (RFC 9110, 13.2.2).
    func notModified(_ request: HTTPFields) -> Bool {
        if let tags = request[.ifNoneMatch] {
            return tags.trimmingCharacters(in: .whitespaces) == "*"
                || tags.split(separator: ",").contains { Self.weakEqual(String($0), etag) }
        }
        if let since = request[.ifModifiedSince], let seconds = HTTPDate.parse(since) {
            return modifiedSeconds <= seconds
        }
        return false
    }

    /// For If-Range: the exact strong tag, or the exact date.
    func matches(_ validator: String) -> Bool {
        let value = validator.trimmingCharacters(in: .whitespaces)
        return value == etag || value == lastModified
    }

    private static func weakEqual(_ a: String, _ b: String) -> Bool {
        func opaque(_ tag: String) -> Substring {
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : Substring(trimmed)
        }
        return opaque(a) == opaque(b)
    }
}
