import Dispatch
import Foundation

extension Array {
    /// `map` spread over the machine's cores. Results come back in the order of `self`, so
    /// whatever the caller does with them (appending diagnostics, say) happens in the same order
    /// as with `map`. `transform` runs on several threads at once and must only read shared state.
    func parallelMap<Result>(_ transform: (Element) -> Result) -> [Result] {
        let workers = Swift.min(ProcessInfo.processInfo.activeProcessorCount, count)
        guard workers > 1 else { return map(transform) }
        // Chunks small enough to even out slow items, large enough that handing them out is cheap.
        let chunkCount = Swift.min(count, workers * 16)
        return [Result](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            let base = buffer.baseAddress!
            self.withUnsafeBufferPointer { items in
                DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                    let start = chunk * items.count / chunkCount
                    let end = (chunk + 1) * items.count / chunkCount
                    for index in start..<end {
                        (base + index).initialize(to: transform(items[index]))
                    }
                }
            }
            initializedCount = count
        }
    }
}
