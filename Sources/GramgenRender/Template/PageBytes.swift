/// Where escaped and drawn bytes go: an array (feeds, the sitemap, a link's markup), or the
/// template renderer's own `PageBytes`.
protocol ByteSink {
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteSink where Element == UInt8 {
    @inline(__always)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

extension ByteSink {
    @inline(__always)
    mutating func append(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(bytes: $0) }
    }

    @inline(__always)
    mutating func append(bytes text: StaticString) {
        append(bytes: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

/// A page as the template renderer draws it: bytes in memory of its own, grown by doubling, so an
/// append is a bounds check and a copy. A page is drawn from small runs (a template's text between
/// two tags, a value, a kept card's pieces around each way back to the root: 1.6 million appends in
/// a pages-only build of 1,500 posts); through `Array.append(contentsOf:)`, with its checks that
/// the array is unique and its capacity, each took 90 instructions, 9.4% of the build's. A class,
/// handed around as it is; the escaper's functions take any sink `inout`, so a caller passes them a
/// variable that holds it (`var sink = out`).
final class PageBytes: ByteSink {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    /// What a page's buffer starts with: most pages fit.
    static let pageCapacity = 32 * 1024

    /// A buffer for a task that draws pages one after another, each into it from the start
    /// (`removeSuffix(from: 0)`) and handed on before the next: one buffer per task, not one per
    /// page and a copy of it. A buffer and its copy for each of a pages-only build's 28,000 pages
    /// at 10,000 posts (most of them past 32 KiB, so grown once) were fresh memory each time, and
    /// its first touch a page fault: 5% of the build's CPU was the kernel zeroing pages for them.
    static func forDrawing() -> PageBytes { PageBytes(capacity: pageCapacity) }

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    func append(bytes: UnsafeBufferPointer<UInt8>) {
        let added = bytes.count
        guard added > 0 else { return }
        if added > capacity - count { grow(toHold: count + added) }
        (base + count).initialize(from: bytes.baseAddress!, count: added)
        count += added
    }

    var last: UInt8? { count > 0 ? base[count - 1] : nil }

    /// Drops the bytes from `start` on.
    func removeSuffix(from start: Int) {
        precondition(start >= 0 && start <= count)
        count = start
    }

    /// The bytes from `start` on, in place (valid until the next append).
    func bytes(from start: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(start >= 0 && start <= count)
        return UnsafeBufferPointer(start: base + start, count: count - start)
    }

    /// The page's bytes as an array of their own.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    private func grow(toHold needed: Int) {
        var grown = capacity
        while grown < needed { grown *= 2 }
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        fresh.initialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = grown
    }
}
