import CVipsShim

/// How the process allocates memory while it processes images: one malloc arena per worker and
/// large buffers returned to the system when freed (`gg_tune_malloc`), so `--jobs N` does not
/// multiply the memory glibc keeps around.
public enum MemoryTuning {
    public static func apply(jobs: Int) {
        gg_tune_malloc(Int32(max(1, min(jobs, 64))))
    }

    /// Gives the pages of freed memory back to the system. glibc keeps freed memory inside its
    /// heaps, so a big site's render, which makes and drops views and pages batch after batch,
    /// would otherwise hold at its peak what the busiest batches left scattered there.
    public static func release() {
        gg_release_free_memory()
    }
}
