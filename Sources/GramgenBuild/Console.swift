import Foundation

/// Where a build talks to the user: stderr, with a progress bar on a terminal,
/// plain lines otherwise, nothing with `--quiet`.
public final class Console: @unchecked Sendable {
    let verbosity: BuildOptions.Verbosity
    let isTerminal: Bool
    private let lock = NSLock()
    private var lastPlainPercent = -1
    private var barShown = false

    public init(verbosity: BuildOptions.Verbosity, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.verbosity = verbosity
        self.isTerminal = isTerminal
    }

    public func info(_ text: String) {
        guard verbosity >= .normal else { return }
        write(text + "\n")
    }

    /// `text` is made only when it is shown.
    public func detail(_ text: @autoclosure () -> String) {
        guard verbosity >= .verbose else { return }
        write(text() + "\n")
    }

    /// Always shown, even with `--quiet`: errors and warnings.
    public func problem(_ text: String) { write(text + "\n") }

    /// `done` of `total` items; an ETA once a few are done.
    public func progress(_ label: String, done: Int, total: Int, started: Date) {
        guard verbosity >= .normal, total > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        let elapsed = Date().timeIntervalSince(started)
        let eta = done > 0 && done < total ? elapsed / Double(done) * Double(total - done) : 0
        if isTerminal {
            let width = 24
            let filled = width * done / total
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let etaText = done < total && done > 0 ? String(format: " ETA %.0fs", eta.rounded(.up)) : ""
            rawWrite("\r\u{1B}[2K\(label) \(bar) \(done)/\(total)\(etaText)")
            barShown = done < total
            if done == total { rawWrite("\n") }
        } else {
            let percent = done * 100 / total
            guard percent / 25 != lastPlainPercent / 25 || done == total else { return }
            lastPlainPercent = percent
            rawWrite("\(label): \(done)/\(total)\(done < total && done > 0 ? String(format: ", about %.0fs left", eta.rounded(.up)) : "")\n")
        }
    }

    private func write(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if barShown {
            rawWrite("\r\u{1B}[2K")
            barShown = false
        }
        rawWrite(text)
    }

    private func rawWrite(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
