import CAllocator

/// The allocator's part in a build's memory: gramgen runs on jemalloc, set up where it is linked
/// (`Sources/CAllocator/Allocator.c`), which hands freed pages back to the system a second after
/// they are last used.
enum MemoryTuning {
    /// Gives the pages of freed memory back to the system now. A big site's render makes and
    /// drops views and pages batch after batch; a batch that drew hundreds of pages leaves their
    /// memory free at once, and the next batch should not have to wait for the decay to reuse it.
    static func release() {
        gg_release_free_memory()
    }
}
