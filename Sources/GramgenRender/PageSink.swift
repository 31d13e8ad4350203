import Foundation

/// Where rendered files go as they are made, so a site is never held in memory whole. Called from
/// several threads at once.
public protocol PageSink: Sendable {
    /// Takes over the previous build's file at `path` when it was made from the same `inputs`
    /// (a digest of everything the page reads) and is still intact; the page is then not rendered.
    func reuse(_ path: String, inputs: UInt64) -> Bool
    /// A finished file; `inputs` as above, nil for files that are always rendered. `bytes` are
    /// valid only during the call.
    func put(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>, inputs: UInt64?) throws
    /// Whether a page that must be drawn again, and that no browser lands on first (a list's
    /// later page, a feed), is left as the last build drew it, to be drawn by a build after the
    /// reload (`gramgen serve`'s fast render); the page is then not rendered.
    func leaveForLater(_ path: String) -> Bool
    /// Whether the file at `path` is to be made at all: a build that only draws the pages an
    /// earlier one left for later wants no other, and those it does not visit stay as they are.
    func wants(_ path: String) -> Bool
    /// Whether the search index is left as the last build made it, every file of it to be made
    /// by a build after the reload (`leaveForLater`); the index is then not made.
    func leaveSearchForLater() -> Bool
    /// Whether the build stops before its next page: one that draws only some pages may stop
    /// when there is more urgent work (a catch-up build when a change waits). What it does not
    /// draw stays as it is.
    func stopsEarly() -> Bool
    /// A batch of pages is done and its jobs and views are dropped: a moment to give memory back.
    func batchDone()
    /// Takes over every file of a group of pages (`PageSet.addGroup`) as the last build recorded
    /// it, without the pages being queued, when that build drew the group from the same `inputs`
    /// and recorded every file of it with its inputs; returns the group's sitemap paths, or nil
    /// when its pages are to be queued.
    func takeOverGroup(_ name: String, inputs: UInt64) -> [String]?
    /// The files (and sitemap paths) of a group whose pages this build queued, for the next
    /// build's `takeOverGroup`.
    func queuedGroup(_ name: String, inputs: UInt64, files: [String], sitemap: [String])
}

/// What a group of pages (`PageSink.takeOverGroup`) holds, told by its name.
public enum PageGroupKind: Sendable, Hashable {
    /// A run of one author's post and likes pages (`PageSet.addPostPages`).
    case posts
    /// A profile tab's pages drawn as cards: a user's list or following feed (`PageSet.addCardTabs`).
    case tab
    /// A user's other profile pages (`PageSet.addProfile`).
    case profile

    public init(name: String) {
        self = [Self.tab, .profile].first { name.hasPrefix($0.prefix) } ?? .posts
    }

    /// The name of a group of this kind.
    func name(_ rest: String) -> String { prefix + rest }

    private var prefix: String {
        switch self {
        case .posts: "posts "
        case .tab: "tab "
        case .profile: "profile "
        }
    }
}

extension PageSink {
    public func put(_ path: String, _ bytes: [UInt8], inputs: UInt64?) throws {
        try bytes.withUnsafeBufferPointer { try put(path, $0, inputs: inputs) }
    }

    public func batchDone() {}
    public func takeOverGroup(_ name: String, inputs: UInt64) -> [String]? { nil }
    public func queuedGroup(_ name: String, inputs: UInt64, files: [String], sitemap: [String]) {}
    public func leaveForLater(_ path: String) -> Bool { false }
    public func wants(_ path: String) -> Bool { true }
    public func leaveSearchForLater() -> Bool { false }
    public func stopsEarly() -> Bool { false }
}

/// Keeps every file in memory (tests, and callers that want the files themselves).
public final class CollectingSink: PageSink, @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [OutputFile] = []

    public init() {}

    public func reuse(_ path: String, inputs: UInt64) -> Bool { false }

    public func put(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>, inputs: UInt64?) throws {
        lock.lock()
        collected.append(OutputFile(path: path, contents: Data(buffer: bytes)))
        lock.unlock()
    }

    public var files: [OutputFile] {
        lock.lock()
        defer { lock.unlock() }
        return collected.sorted { $0.path < $1.path }
    }
}
