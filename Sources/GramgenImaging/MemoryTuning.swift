import CVipsShim

/// How the process allocates memory while it processes images: one malloc arena per worker and
/// large buffers returned to the system when freed (`gg_tune_malloc`), so `--jobs N` does not
/// multiply the memory glibc keeps around.
public enum MemoryTuning {
    public static func apply(jobs: Int) {
        gg_tune_malloc(Int32(max(1, min(jobs, 64))))
    }
}
