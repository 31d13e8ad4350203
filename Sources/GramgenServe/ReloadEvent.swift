import Foundation

/// What the server tells open pages, in Server-Sent Events framing.
enum ReloadEvent: Sendable, Equatable {
    /// A build succeeded: reload the page.
    case reload
    /// A build failed: show the diagnostics; the served site is still the last good one.
    case error(String)
    /// A comment that keeps idle connections (and proxies) from timing out.
    case ping

    /// Sent first on every stream: how soon to reconnect, and a comment that tells a waiting client
    /// (or a test) that the stream is open.
    static let opening = "retry: 1000\n: connected\n\n"

    var text: String {
        switch self {
        case .reload:
            return "event: reload\ndata: reload\n\n"
        case .error(let message):
            // JSON keeps the message on one `data:` line whatever it contains.
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let encoded = (try? encoder.encode([message])).map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
            return "event: error\ndata: \(encoded.dropFirst().dropLast())\n\n"
        case .ping:
            return ": ping\n\n"
        }
    }
}
