import Foundation

/// Fans build results out to every open page. Remembers a failed build, so a page opened (or
/// reloaded by hand) while the site is broken still shows the error.
public final class ReloadBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<ReloadEvent>.Continuation] = [:]
    /// The output file each open page shows, as its script told (`RequestPath.outputFiles`).
    private var pages: [UUID: [String]] = [:]
    private var currentError: String?
    private var closed = false

    public init() {}

    /// A new page's stream; it ends when the page goes away or the server shuts down. `page`:
    /// the output files the page may be (see `shownFiles`).
    func subscribe(page: [String] = []) -> AsyncStream<ReloadEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: ReloadEvent.self, bufferingPolicy: .bufferingNewest(8))
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        lock.lock()
        defer { lock.unlock() }
        if closed {
            continuation.finish()
        } else {
            subscribers[id] = continuation
            pages[id] = page
            if let currentError { continuation.yield(.error(currentError)) }
        }
        return stream
    }

    /// After a successful build: every page reloads.
    public func buildSucceeded() {
        send(.reload, error: nil)
    }

    /// After a failed build: every page shows `diagnostics` over the last good site.
    public func buildFailed(_ diagnostics: String) {
        send(.error(diagnostics), error: .some(diagnostics))
    }

    func ping() { send(.ping, error: nil, keepError: true) }

    /// Ends every stream, so graceful shutdown does not wait for pages that never disconnect.
    public func close() {
        lock.lock()
        closed = true
        let all = Array(subscribers.values)
        subscribers.removeAll()
        pages.removeAll()
        lock.unlock()
        for continuation in all { continuation.finish() }
    }

    public var subscriberCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return subscribers.count
    }

    private func send(_ event: ReloadEvent, error: String?, keepError: Bool = false) {
        lock.lock()
        if !keepError { currentError = error }
        let all = Array(subscribers.values)
        lock.unlock()
        for continuation in all { continuation.yield(event) }
    }

    /// The output files the open pages show: a build draws them before the reload (`FastRender`).
    public var shownFiles: Set<String> {
        lock.withLock { Set(pages.values.joined()) }
    }

    private func remove(_ id: UUID) {
        lock.lock()
        subscribers[id] = nil
        pages[id] = nil
        lock.unlock()
    }
}
