import Foundation
import GramgenCore

/// `gramgen serve`'s fast render (Hugo's server does the same): a build after an edit draws the
/// pages a browser lands on first (each list's first page, every post's page, every page open in
/// a browser now); the other pages that changed it leaves as the last build drew them, recorded
/// as to be drawn again (`OutputManifest.drawLater`), and the browser reloads.
/// A catch-up build right after draws them (`BuildPipeline.catchUp`); until then the preview
/// server holds a request for one of them (`isStale`). A new post moves every post down one place
/// on every page of the home feed, explore and the feeds: a thousand pages at 10,000 posts, where
/// the browser shows one.
///
/// Nothing of it reaches a build's output: a folder holding pages left for later is never
/// recorded as up to date, so any later build draws them.
public final class FastRender: @unchecked Sendable {
    private let lock = NSLock()
    private var staleFiles: Set<String> = []
    private var waiting = false
    /// Told each time the set of files left for later changes (`staleChanges`), by number.
    private var watchers: [Int: AsyncStream<Void>.Continuation] = [:]
    private var watcherCount = 0
    /// The output files open in a browser now (the live-reload connections' pages).
    public var shown: @Sendable () -> Set<String> = { [] }

    public init() {}

    /// Whether the file at `path` (relative to the output) was left for later and not drawn since,
    /// or is a search index file while the index is left (the new one may have more files).
    public func isStale(_ path: String) -> Bool {
        lock.withLock {
            staleFiles.contains(path) || SitePaths.isSearchIndex(path) && staleFiles.contains(SitePaths.searchMeta)
        }
    }

    /// Some pages were left for later and not drawn since.
    public var hasStale: Bool {
        lock.withLock { !staleFiles.isEmpty }
    }

    /// A change waits to be built: a build that is running leaves every page it can for later,
    /// so the change's own build starts sooner. Cleared when that build starts (`changeTaken`).
    public func changeArrived() {
        lock.withLock { waiting = true }
    }

    public func changeTaken() {
        lock.withLock { waiting = false }
    }

    public var isChangeWaiting: Bool {
        lock.withLock { waiting }
    }

    /// A stream that yields each time a build published or gave up (the files left for later
    /// may have changed), for as long as it is iterated: a request for a stale file waits on it.
    public func staleChanges() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let number = lock.withLock {
            watcherCount += 1
            watchers[watcherCount] = continuation
            return watcherCount
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = lock.withLock { self.watchers.removeValue(forKey: number) }
        }
        return stream
    }

    /// After a build published: the files it left for later (all that are stale now; a page left
    /// earlier is drawn, left again or gone in every build).
    func published(leftForLater files: Set<String>) {
        setStale(files)
    }

    /// After a build that failed in a way no catch-up can follow: nothing is held for it (the
    /// pages left stay recorded as to be drawn, and the next build that publishes does).
    func abandoned() {
        setStale([])
    }

    private func setStale(_ files: Set<String>) {
        let told = lock.withLock {
            staleFiles = files
            return Array(watchers.values)
        }
        for watcher in told { watcher.yield() }
    }

    /// One build's choices. A build after an edit (not `catchUp`) leaves every changed page no
    /// browser lands on first for later; a catch-up build (a warm-up too) leaves pages only when
    /// a change waits. With `partial` (the output is as this process left it) a catch-up draws
    /// the pages left for later and no other: every other file stays as it is (`Publisher`'s
    /// partial record), and the search index is not made again.
    func choices(catchUp: Bool, partial: Bool) -> Choices {
        Choices(fastRender: self, shown: shown(), catchUp: catchUp,
                only: catchUp && partial ? lock.withLock { staleFiles } : nil)
    }

    struct Choices: Sendable {
        let fastRender: FastRender
        let shown: Set<String>
        let catchUp: Bool
        /// The only files a catch-up build makes: those left for later.
        let only: Set<String>?

        /// Whether the search index is left for later: by a build after an edit, and by a
        /// catch-up build when a change waits. The index takes a second thread while the pages
        /// are drawn, and a new hashtag or post changes most of its files.
        func leavesSearch() -> Bool {
            !catchUp || fastRender.isChangeWaiting
        }

        /// Whether a file that a catch-up build makes is one it draws: a page left for later,
        /// or any file of the search index when its index was left (the new index may have more
        /// files than the old one).
        func wants(_ path: String) -> Bool {
            guard let only else { return true }
            return only.contains(path) || SitePaths.isSearchIndex(path) && only.contains(SitePaths.searchMeta)
        }

        /// Whether the changed page at `path`, one no browser lands on first, is left for later.
        func leaves(_ path: String) -> Bool {
            !shown.contains(path) && (!catchUp || fastRender.isChangeWaiting)
        }
    }
}
