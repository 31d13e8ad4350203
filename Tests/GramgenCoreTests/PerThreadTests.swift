import Foundation
import Testing
@testable import GramgenCore

/// A value each thread makes for itself (`PerThread`): one a thread and owner, made once, found
/// again by that thread only; a new owner's value takes the old one's place on a thread.
struct PerThreadTests {
    final class Made: @unchecked Sendable {
        let number: Int
        let thread: Thread
        init(_ number: Int) { (self.number, thread) = (number, Thread.current) }
    }

    /// Counts the values made.
    final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.withLock { value += 1; return value } }
        var total: Int { lock.withLock { value } }
    }

    @Test("each thread makes its value once and finds it again; no two threads share one")
    func oneEachThread() {
        let count = Count()
        let values = PerThread(name: "test.oneEachThread") { Made(count.next()) }
        // 4 threads asking 64 times each: every value was made by the thread that found it, and
        // a thread finds the same value every time.
        let found = Parallel(jobs: 4).map(count: 256) { _ in
            let value = values.value
            return (ObjectIdentifier(value), value.thread === Thread.current, ObjectIdentifier(values.value) == ObjectIdentifier(value))
        }
        #expect(found.allSatisfy { $0.1 && $0.2 })
        let distinct = Set(found.map(\.0))
        #expect(distinct.count == count.total)
        #expect(count.total >= 1 && count.total <= 4 + 1)
    }

    @Test("a new owner's value replaces the old one's on the thread; the old owner makes its own again")
    func newOwnerReplaces() {
        let count = Count()
        let first = PerThread(name: "test.newOwner") { Made(count.next()) }
        let second = PerThread(name: "test.newOwner") { Made(100 + count.next()) }
        let a = first.value
        #expect(first.value === a)
        let b = second.value
        #expect(b.number > 100)
        #expect(second.value === b)
        // One value a type and thread is held: the first owner's was let go for the second's.
        let again = first.value
        #expect(again !== a)
        #expect(again.number < 100)
        #expect(count.total == 3)
    }
}
