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
   - freed pages handed back to the system after a second unused, at once when only reserved. */
const char *malloc_conf = "narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0";

#define GG_TEXT(x) #x
#define GG_NUMBER_TEXT(x) GG_TEXT(x)

void gg_release_free_memory(void) {
    mallctl("arena." GG_NUMBER_TEXT(MALLCTL_ARENAS_ALL) ".purge", NULL, NULL, NULL, 0);
}
