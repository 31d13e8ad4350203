import Foundation
import GramgenCore
import Testing
@testable import GramgenImaging

/// Workers never hold more decoded pixels at once than the budget, whatever `--jobs` says.
struct DecodeBudgetTests {
    @Test("concurrent decodes stay within the budget; one larger than it runs alone")
    func bounded() {
        var generator = SeededRandom.forTest("DecodeBudgetTests.bounded")
        let sizes = (0..<400).map { _ in Int.random(in: 1...60, using: &generator) } + [250, 5, 250]
        let budget = DecodeBudget(capacity: 100)
        let lock = NSLock()
        var peak = 0, held = 0, aloneViolations = 0
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in stride(from: worker, to: sizes.count, by: 8) {
                let size = sizes[index]
                budget.acquire(size)
                lock.withLock {
                    held += size
                    if size > 100 && held != size { aloneViolations += 1 }
                    if size <= 100 { peak = max(peak, held) }
                }
                usleep(200)
                lock.withLock { held -= size }
                budget.release(size)
            }
        }
        #expect(peak <= 100)
        #expect(aloneViolations == 0)
        #expect(budget.inUse == 0)
    }

    @Test("images that fit together decode side by side; one that does not waits for a release")
    func waits() {
        let budget = DecodeBudget(capacity: 100)
        budget.acquire(40)
        let second = DispatchSemaphore(value: 0), third = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            budget.acquire(40)
            second.signal()
        }
        #expect(second.wait(timeout: .now() + 10) == .success, "40 + 40 fit: no waiting")
        Thread.detachNewThread {
            budget.acquire(30)
            third.signal()
        }
        #expect(third.wait(timeout: .now() + 0.3) == .timedOut, "40 + 40 + 30 does not fit")
        budget.release(40)
        #expect(third.wait(timeout: .now() + 10) == .success, "after a release it does")
        budget.release(40)
        budget.release(30)
        #expect(budget.inUse == 0)
    }
}
