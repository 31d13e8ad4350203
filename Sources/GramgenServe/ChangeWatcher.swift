import Foundation
import GramgenBuild

/// Tells the rebuild loop that the site's inputs changed, once per burst of changes: saving a post
/// in an editor, or copying twenty photos, is one rebuild, not dozens.
public enum ChangeWatcher {
    /// inotify where the kernel offers it; otherwise (and with `polling: true`, for network and
    /// container-mounted folders where inotify sees nothing) a snapshot compared every 500 ms.
    /// The watching thread stops when the stream's consumer goes away. A burst ends after
    /// `debounceMilliseconds` of quiet, or `settleMilliseconds` when its last event finished a
    /// file (inotify only: a file closed after writing, moved into place or deleted), so a saved
    /// edit is built at once while a file still being written is waited for.
    ///
    /// inotify also tells `folderChanges` which folders changed (polling does not: each build
    /// then reads every folder).
    public static func changes(siteRoot: URL, debounceMilliseconds: Int = 150, settleMilliseconds: Int = 30,
                               polling: Bool = false, folderChanges: FolderChanges? = nil) -> (stream: AsyncStream<Void>, method: String) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let flag = StopFlag()
        continuation.onTermination = { _ in flag.stop() }
        let signal: @Sendable () -> Void = { continuation.yield() }
        #if os(Linux)
        if !polling, let watcher = InotifyWatcher(siteRoot: siteRoot, debounceMilliseconds: debounceMilliseconds,
                                                        settleMilliseconds: settleMilliseconds, folderChanges: folderChanges) {
            Thread { watcher.run(until: flag, changed: signal) }.start()
            return (stream, "inotify")
        }
        #endif
        let watcher = PollingWatcher(siteRoot: siteRoot, debounceMilliseconds: debounceMilliseconds)
        Thread { watcher.run(until: flag, changed: signal) }.start()
        return (stream, "polling every 500 ms")
    }
}

/// Set once, from any thread, to end a watcher's loop.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }
}
