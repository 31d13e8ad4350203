import Foundation

/// The path of a request, checked before it comes near the file system. Anything that could name a
/// file outside the output folder is refused here; `OutputFolder` checks again after resolving links.
enum RequestPath: Equatable {
    /// Safe segments below the output root; `trailingSlash` tells `/dir` from `/dir/`.
    case segments([String], trailingSlash: Bool)
    /// Malformed: bad percent-encoding, an encoded slash or backslash, NUL, a raw backslash.
    case malformed
    /// Well-formed but never served: `..`, `.`, hidden files other than `.well-known`.
    case forbidden

    /// `raw` is the path as sent (still percent-encoded, without the query).
    init(raw: String) {
        let lower = raw.lowercased()
        // An encoded separator would become a real one after decoding: refuse rather than guess.
        if lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00") || raw.contains("\\") {
            self = .malformed
            return
        }
        guard raw.hasPrefix("/"), let decoded = raw.removingPercentEncoding else {
            self = .malformed
            return
        }
        if decoded.unicodeScalars.contains(where: { $0.value == 0 || $0 == "\\" }) {
            self = .malformed
            return
        }
        var parts: [String] = []
        for part in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if part == ".." || part == "." || (part.hasPrefix(".") && part != ".well-known") {
                self = .forbidden
                return
            }
            parts.append(String(part))
        }
        self = .segments(parts, trailingSlash: decoded.hasSuffix("/"))
    }

    /// The output files a request for this path may be served from: the file itself, or the
    /// folder's `index.html` (nothing for a path that is never served).
    var outputFiles: [String] {
        guard case .segments(let segments, _) = self else { return [] }
        let joined = segments.joined(separator: "/")
        return joined.isEmpty ? ["index.html"] : [joined, joined + "/index.html"]
    }
}
