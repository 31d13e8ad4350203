import Dispatch
import Foundation

/// The one way gramgen spreads work over threads: `--jobs` workers (by default the machine's
/// cores), each taking chunks of the items in turn so slow items even out. Results come back in
/// the items' order, so whatever the caller does with them happens as with a plain loop.
public struct Parallel: Sendable {
    /// Threads a pass may use at once.
    public let workers: Int

    /// `jobs` as `--jobs` gives it; nil for the machine's cores.
    public init(jobs: Int? = nil) {
        workers = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// `body(i)` for every `i` in `0..<count`, on up to `workers` threads, results in order.
    /// `body` runs on several threads at once and must only read shared state.
    public func map<Result>(count: Int, _ body: (Int) -> Result) -> [Result] {
        guard workers > 1, count > 1 else { return (0..<count).map(body) }
        // Chunks small enough to even out slow items, large enough that handing them out is cheap.
        let chunkCount = min(count, workers * 16)
        let next = Counter()
        return [Result](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            let base = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: min(workers, chunkCount)) { _ in
                while let chunk = next.take(below: chunkCount) {
                    for index in chunk * count / chunkCount..<(chunk + 1) * count / chunkCount {
                        (base + index).initialize(to: body(index))
                    }
                }
            }
            initializedCount = count
        }
    }

    /// `body(i)` for every `i` in `0..<count`, as `map` runs it.
    public func forEach(count: Int, _ body: (Int) -> Void) {
        _ = map(count: count, body)
    }

    /// Both at once when there are two workers.
    public func both<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
        guard workers > 1 else { return (first(), second()) }
        var a: A?
        var b: B?
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) { b = second() }
                a = first()
                group.wait()
            }
        }
        return (a!, b!)
    }

    /// Starts `work` on another thread and returns at once; `Ahead.value` waits for its result.
    /// For what a later step of a build needs and can make while this thread does something else
    /// (with one worker, `value` makes it).
    public func ahead<Value>(_ work: @escaping @Sendable () -> Value) -> Ahead<Value> {
        Ahead(work, now: workers > 1)
    }

    /// Replaces `value` with `replacement` and lets go of the old value on another thread:
    /// freeing a table of 10,000 entries held a build's one thread for 20 ms. (Handed over in a
    /// box that thread empties, so the last reference is dropped there, whichever runs first.)
    public static func free<Value>(_ value: inout Value, replacingWith replacement: Value) {
        let box = Box(value)
        value = replacement
        DispatchQueue.global(qos: .utility).async { box.value = nil }
    }

    private final class Box<Value>: @unchecked Sendable {
        var value: Value?
        init(_ value: Value) { self.value = value }
    }

    /// Hands out chunk numbers, each once.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func take(below limit: Int) -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard value < limit else { return nil }
            value += 1
            return value - 1
        }
    }
}

/// A value each thread makes for itself, once, and then finds without a lock. For what every
/// page reads and both threads of a build would otherwise share: a counted reference read by two
/// cores at once has its count's cache line move between them at every retain and release. A
/// pages-only build of 10,000 posts took 5.5 million such counts of a dozen strings of the pages'
/// frame and of their texts (`SiteRenderer.Frame`), every one from both threads.
///
/// Kept in the thread's dictionary under `name`, with the owner it was made for: a thread that
/// makes one for a new owner (the next build of `gramgen serve`) replaces the old one, so a
/// long-lived thread holds one a name at most. `name` is a literal, one for each kind of value:
/// a literal's text is counted by no one, where a name made at run time was itself a string
/// both threads counted at every look-up.
public final class PerThread<Value: AnyObject>: @unchecked Sendable {
    private let make: () -> Value
    private let owner: Int
    private let name: String

    public init(name: String, _ make: @escaping () -> Value) {
        self.name = name
        self.make = make
        owner = Owners.shared.next()
    }

    /// The calling thread's value, made now if it has none for this owner.
    public var value: Value {
        let dictionary = Thread.current.threadDictionary
        if let held = dictionary[name] as? Held, held.owner == owner { return held.value }
        let value = make()
        dictionary[name] = Held(owner: owner, value: value)
        return value
    }

    private final class Held {
        let owner: Int
        let value: Value
        init(owner: Int, value: Value) { (self.owner, self.value) = (owner, value) }
    }

}

/// Numbers each `PerThread` once, so a thread's value is known to be made for it.
private final class Owners: @unchecked Sendable {
    static let shared = Owners()
    private let lock = NSLock()
    private var last = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        last += 1
        return last
    }
}

extension Array {
    /// `map` over the machine's cores (`Parallel`), results in the order of `self`.
    public func parallelMap<Result>(_ parallel: Parallel = Parallel(), _ transform: (Element) -> Result) -> [Result] {
        withUnsafeBufferPointer { items in parallel.map(count: items.count) { transform(items[$0]) } }
    }
}

/// The result of work started on another thread (`Parallel.ahead`). Work that no thread has
/// begun when its value is asked for is done by the asking thread: queued behind other work on a
/// busy machine, it had the build wait idle for it (20-40 ms of a one-off build's load).
public final class Ahead<Value>: @unchecked Sendable {
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var result: Value?
    private var work: (@Sendable () -> Value)?

    /// `queue`: where the work is started (tests hold it back with a suspended queue).
    init(_ work: @escaping @Sendable () -> Value, now: Bool, queue: DispatchQueue = .global()) {
        self.work = work
        guard now else { return }
        queue.async { [self] in
            guard let work = claim() else { return }
            put(work())
        }
    }

    /// The work, taken by the one thread that does it; nil once taken. The taker is in `group`
    /// until it has put the result (`put`), so that another asker waits for it there: had it not
    /// been, a second asker while the first asking thread did the work found the queue's block
    /// gone (it had found the work taken) and no result.
    private func claim() -> (@Sendable () -> Value)? {
        lock.withLock {
            guard let work else { return nil }
            self.work = nil
            group.enter()
            return work
        }
    }

    private func put(_ value: Value) {
        lock.withLock { result = value }
        group.leave()
    }

    /// The work's result, once it is done.
    public var value: Value {
        if let result = lock.withLock({ result }) { return result }
        if let work = claim() {
            let value = work()
            put(value)
            return value
        }
        group.wait()
        return lock.withLock { result! }
    }
}
