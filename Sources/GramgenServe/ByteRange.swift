import Foundation

/// A single `Range: bytes=…` request. Multi-part ranges are answered with the whole file, which
/// HTTP allows and no browser's media or PDF viewer needs otherwise.
enum ByteRange: Equatable {
    /// No usable Range header: send everything with 200.
    case whole
    /// Inclusive bounds inside the body: send 206.
    case part(ClosedRange<Int>)
    /// Well-formed but outside the body: send 416.
    case unsatisfiable

    init(header: String?, length: Int) {
        guard let header else { self = .whole; return }
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes=") else { self = .whole; return }
        let spec = value.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        if spec.contains(",") { self = .whole; return }
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else { self = .unsatisfiable; return }
        let first = bounds[0].trimmingCharacters(in: .whitespaces), last = bounds[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            // `bytes=-N`: the last N bytes.
            guard let suffix = Int(last), suffix > 0, length > 0 else { self = .unsatisfiable; return }
            self = .part(max(0, length - suffix)...(length - 1))
            return
        }
        guard let start = Int(first), start >= 0, start < length else { self = .unsatisfiable; return }
        if last.isEmpty {
            self = .part(start...(length - 1))
            return
        }
        guard let end = Int(last), end >= start else { self = .unsatisfiable; return }
        self = .part(start...min(end, length - 1))
    }
}
