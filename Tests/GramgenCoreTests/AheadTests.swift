import Foundation
import Testing
@testable import GramgenCore

/// Work started ahead (`Parallel.ahead`): done exactly once, by the queue's thread or, when none
/// has begun it, by the first thread that asks; every asker gets its one result.
struct AheadTests {
    /// Counts the runs of a piece of work.
    final class Runs: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var threads: [Thread] = []

        func record() -> Int {
            lock.withLock {
                count += 1
                threads.append(Thread.current)
                return count
            }
        }

        var total: Int { lock.withLock { count } }
        var lastThread: Thread? { lock.withLock { threads.last } }
    }

    @Test("work asked for at once from many threads, while the queue may be starting it, runs once")
    func runsOnce() {
        for round in 0..<200 {
            let runs = Runs()
            let ahead = Parallel(jobs: 2).ahead { runs.record() * 1000 + round }
            let values = Parallel(jobs: 8).map(count: 8) { _ in ahead.value }
            #expect(runs.total == 1)
            #expect(values == [Int](repeating: 1000 + round, count: 8))
            #expect(ahead.value == 1000 + round)
        }
    }

    @Test("work the queue has not begun is done by the thread that asks, and not again by the queue")
    func askerDoesQueuedWork() {
        // A queue held back: the work started ahead waits in it. Asking must not wait for it
        // (were it to, this would never return).
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        let runs = Runs()
        let ahead = Ahead({ runs.record() }, now: true, queue: queue)
        #expect(ahead.value == 1)
        #expect(runs.lastThread == Thread.current)
        queue.resume()
        queue.sync {}  // the queued block has run, and found the work taken
        #expect(ahead.value == 1)
        #expect(runs.total == 1)
    }

    @Test("with one job, the work is done when asked for, on the asking thread")
    func oneJob() {
        let runs = Runs()
        let ahead = Parallel(jobs: 1).ahead { runs.record() }
        #expect(runs.total == 0)
        #expect(ahead.value == 1)
        #expect(runs.lastThread == Thread.current)
        #expect(ahead.value == 1)
        #expect(runs.total == 1)
    }

    @Test("a thread that asks while another asking thread does the work waits for its result")
    func secondAskerWaits() {
        // The queue's block runs only once the first asker has taken the work, and finds it
        // taken; the second asker then has neither the work nor the queue's block to wait for.
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let runs = Runs()
        let ahead = Ahead({ started.signal(); release.wait(); return runs.record() }, now: true, queue: queue)
        let values = Runs(), done = DispatchSemaphore(value: 0), asking = DispatchSemaphore(value: 0)
        // Threads of their own: the pool's threads may all be busy (one waits in the work).
        Thread { if ahead.value == 1 { _ = values.record() }; done.signal() }.start()
        started.wait()
        queue.resume()
        queue.sync {}
        Thread { asking.signal(); if ahead.value == 1 { _ = values.record() }; done.signal() }.start()
        // The second asker is given time to reach its wait before the work ends.
        asking.wait()
        Thread.sleep(forTimeInterval: 0.05)
        release.signal()
        done.wait()
        done.wait()
        #expect(values.total == 2)
        #expect(runs.total == 1)
    }
}
