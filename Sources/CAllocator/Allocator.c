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
   - its memory in transparent huge pages where the system gives them on request (`madvise`, as
     Debian and Ubuntu set it; where it gives them to every process or to none, this changes
     nothing). A process touches every page it uses once, and each first touch is a page fault:
     31,500 of them, 7% of a caption edit's CPU at 10,000 posts, against 5,800-7,700 in 2 MiB
     pages. Same binary, 30 alternated pairs: that build 0.89x the time, 0.91x the CPU, at 145
     MiB instead of 131; 100 photos the same time (system 11 s instead of 22) at 262 MiB instead
     of 239; a first build of 100,000 posts 953 MiB against 914 (bench/results/allocator.md). */
const char *malloc_conf = "narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0,thp:always,metadata_thp:always";

#define GG_TEXT(x) #x
#define GG_NUMBER_TEXT(x) GG_TEXT(x)

void gg_release_free_memory(void) {
    mallctl("arena." GG_NUMBER_TEXT(MALLCTL_ARENAS_ALL) ".purge", NULL, NULL, NULL, 0);
}
