import Testing
@testable import GramgenRender

/// The memo of view models stays bounded whatever the site's size, and keeps what was asked for
/// recently.
struct ViewCacheTests {
    @Test("at most twice the limit is held; recent values are kept, old ones made again")
    func bounded() {
        let cache = ViewCache<Int>(limit: 3)
        var made: [String] = []
        func get(_ key: String) -> Int { cache.value(for: key) { made.append(key); return key.count } }
        for key in ["a", "bb", "ccc"] { _ = get(key) }
        _ = get("a")  // still there
        #expect(made == ["a", "bb", "ccc"])
        for key in ["d", "e", "f", "g", "h", "i", "j"] { _ = get(key) }
        #expect(cache.count <= 6)
        _ = get("j")  // the newest is kept
        _ = get("a")  // long gone: made again
        #expect(made.suffix(2) == ["j", "a"])
        // A value found in the older half moves to the newer one and survives the next turn.
        let kept = ViewCache<Int>(limit: 2)
        var again = 0
        func keep(_ key: String) -> Int { kept.value(for: key) { again += 1; return 0 } }
        _ = keep("x"); _ = keep("y"); _ = keep("z")  // x, y now older
        _ = keep("x")  // from older, moved to newer (z, x): full
        _ = keep("w")  // turn: older = (z, x), newer = (w)
        let before = again
        _ = keep("x")
        #expect(again == before)
        for index in 0..<1000 { _ = keep("k\(index)") }
        #expect(kept.count <= 4)
    }
}
