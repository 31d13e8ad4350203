#include "CAllocator.h"
#include <jemalloc/jemalloc.h>

/* Why jemalloc, not glibc's malloc: a build makes and drops millions of small objects (strings,
   arrays, views) on two or more threads, and libvips' and the AVIF encoder's threads free large
   buffers on other threads than the ones that made them. With glibc, allocation was a sixth of a
   one-off build's CPU and freed memory stayed scattered in per-thread arenas (900 MiB for 100
   ten-megapixel photos at its defaults). jemalloc, same binary, this machine: a caption edit's
   build at 10,000 posts 0.86x the time, a pages-only build 0.89x, 100,000 posts with 65 MiB less
   memory; photos 1.04x the time (it hands freed pages back sooner) in less memory, under 310 MiB
   (bench/results/allocator.md).

   How it is set, read by jemalloc at its start (before main), so it holds for every thread and
   for libvips once opened; MALLOC_CONF in the environment still overrides it:
   - two arenas, whatever the machine: the default, four per CPU, kept a fifth more memory with
     the photo workers of a two-core machine. Not one per CPU (`percpu_arena`): where gramgen may
     use fewer CPUs than the machine has (taskset, a container's cpuset), jemalloc turns that
     off and says so on stderr at every start. On many cores, MALLOC_CONF=narenas:N gives more;
   - freed pages handed back to the system after a second unused, at once when only reserved;
   - its memory in the system's ordinary pages, not asked for in transparent huge pages. Asking
     (`thp:always,metadata_thp:always`, from 2026-11-27) saved page faults (31,500 a caption edit
     at 10,000 posts against 5,800-7,700) but had the kernel zero each 2 MiB page whole at its
     first touch, however little of it was used. Builds run back to back took the same time either
     way on this machine's kernel (6.18); a build that starts after a few seconds of quiet, as one
     after an edit does, took 1.33-1.37x as long with huge pages (a caption edit at 10,000 posts
     0.535 s against 0.355 s, a new post 0.830 s against 0.585 s, 6 alternated pairs each way,
     sides swapped: the zeroing of fresh pages was a quarter of its CPU), and 10-14 MiB more
     memory (bench/results/allocator.md, forty-second session). */
const char *malloc_conf = "narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0";

#define GG_TEXT(x) #x
#define GG_NUMBER_TEXT(x) GG_TEXT(x)

void gg_release_free_memory(void) {
    mallctl("arena." GG_NUMBER_TEXT(MALLCTL_ARENAS_ALL) ".purge", NULL, NULL, NULL, 0);
}
