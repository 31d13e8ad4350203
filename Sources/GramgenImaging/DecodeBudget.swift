import Foundation

/// How much decoded pixel memory the image workers may hold at once. Most photos decode in
/// strips or shrink on load, but some encodings must be decoded whole (interlaced PNG, some TIFF
/// and HEIF files): a 100-megapixel 16-bit RGBA PNG is 800 MB in memory. `--jobs` workers each
/// taking such a file would multiply that past the machine's memory, so a worker waits until its
/// image fits the budget; an image larger than the whole budget runs alone.
public final class DecodeBudget: @unchecked Sendable {
    public let capacity: Int
    private var used = 0
    private let condition = NSCondition()

    /// Half of the machine's memory by default, at least 512 MB.
    public init(capacity: Int = max(512 << 20, Int(ProcessInfo.processInfo.physicalMemory / 2))) {
        self.capacity = capacity
    }

    /// Blocks until `bytes` fit beside what the other workers hold (or nothing else is held).
    public func acquire(_ bytes: Int) {
        condition.lock()
        while used > 0 && used + bytes > capacity { condition.wait() }
        used += bytes
        condition.unlock()
    }

    public func release(_ bytes: Int) {
        condition.lock()
        used -= bytes
        condition.broadcast()
        condition.unlock()
    }

    /// What the other workers hold now (for tests).
    public var inUse: Int {
        condition.lock()
        defer { condition.unlock() }
        return used
    }
}
