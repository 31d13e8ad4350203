import CFileSwap
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child program run with bounds on its wall time, processor time and memory, its output
/// written to files (no pipes to drain, so a chatty child never blocks) and read back bounded.
struct BoundedProcess {
    struct Limits {
        var seconds: Double
        var memoryBytes: UInt64
    }

    struct Outcome {
        /// The exit status, or nil when the child was killed (time limit, memory, signal).
        var status: Int32?
        var timedOut: Bool
        /// At most `outputLimit` bytes of standard output.
        var output: Data
        /// The last lines of standard error.
        var errorTail: String
    }

    /// Standard output is read up to this size (ffprobe's JSON for a sane file is a few KB).
    static let outputLimit = 4 * 1024 * 1024
    static let errorTailBytes = 8 * 1024

    /// Runs `tool` with `arguments`, its output files in `workFolder` (which must exist).
    static func run(_ tool: URL, _ arguments: [String], limits: Limits, workFolder: URL) throws -> Outcome {
        let outPath = workFolder.appendingPathComponent("stdout").path
        let errPath = workFolder.appendingPathComponent("stderr").path
        let argv = [tool.path] + arguments
        let environment = ["PATH=/usr/bin:/bin", "LC_ALL=C", "AV_LOG_FORCE_NOCOLOR=1"]
        let cpuSeconds = UInt(max(1, (limits.seconds * Double(max(1, ProcessInfo.processInfo.activeProcessorCount))).rounded(.up)))
        let pid: pid_t = withCStrings(argv) { argvPointer in
            withCStrings(environment) { envPointer in
                gg_spawn_bounded(tool.path, argvPointer, envPointer, outPath, errPath, limits.memoryBytes, cpuSeconds)
            }
        }
        guard pid > 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot start \(tool.lastPathComponent): \(String(cString: strerror(errno)))"])
        }
        let deadline = Date().addingTimeInterval(limits.seconds)
        var status: Int32 = 0
        var timedOut = false
        var pause: UInt32 = 2_000
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { break }
            if Date() >= deadline {
                timedOut = true
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                break
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        let exited = (status & 0x7F) == 0
        return Outcome(status: exited && !timedOut ? (status >> 8) & 0xFF : nil, timedOut: timedOut,
                       output: readPrefix(outPath, limit: outputLimit), errorTail: readTail(errPath, limit: errorTailBytes))
    }

    /// The first `limit` bytes of a file.
    private static func readPrefix(_ path: String, limit: Int) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: limit)) ?? Data()
    }

    /// The last `limit` bytes of a file, from a line start.
    private static func readTail(_ path: String, limit: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        let start = size > UInt64(limit) ? size - UInt64(limit) : 0
        try? handle.seek(toOffset: start)
        var data = (try? handle.readToEnd()) ?? Data()
        if start > 0, let newline = data.firstIndex(of: 0x0A) { data = data[(newline + 1)...] }
        return String(decoding: data, as: UTF8.self)
    }

    /// A NULL-terminated array of C strings that lives while `body` runs.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
