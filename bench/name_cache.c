// The kernel's cache of file names (the dcache), for benchmarks on a machine whose look-ups of
// names depend on how many it holds: every stat, open and link of a path looks each of its
// names up in one hash table, and a look-up walks its bucket's whole chain. The table's size is
// fixed at boot (`dhash_entries=` on the kernel's command line, else one bucket per 8 KiB of
// memory, rounded to a power of two); this machine's kernel is started with 131,072 buckets,
// so with three million names cached each look-up walks some 23. Those names are kept until
// memory runs short, whoever made them (every file any build, test or benchmark touched).
//
//   cc -O2 -o /tmp/name_cache bench/name_cache.c
//   /tmp/name_cache count              the names cached now, and the table's size if the boot says
//   /tmp/name_cache fill FOLDER N      N more names cached: N look-ups of names that do not exist
//                                      in FOLDER (made if missing), each cached as absent
//   sync; echo 2 > /proc/sys/vm/drop_caches   (as root) the unused names and files dropped
//
// See bench/results/name-cache.md.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long cached(void) {
    FILE *file = fopen("/proc/sys/fs/dentry-state", "r");
    long count = -1;
    if (file) {
        if (fscanf(file, "%ld", &count) != 1) count = -1;
        fclose(file);
    }
    return count;
}

static long buckets(void) {  // from the boot's command line; -1 when it does not set it
    FILE *file = fopen("/proc/cmdline", "r");
    char line[4096] = {0};
    if (!file) return -1;
    size_t got = fread(line, 1, sizeof line - 1, file);
    fclose(file);
    line[got] = 0;
    char *at = strstr(line, "dhash_entries=");
    return at ? atol(at + strlen("dhash_entries=")) : -1;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "count") == 0) {
        long table = buckets();
        if (table > 0) printf("names cached: %ld; hash buckets: %ld (dhash_entries); names per bucket: %.1f\n", cached(), table, (double)cached() / table);
        else printf("names cached: %ld; hash buckets: sized by the kernel from memory (no dhash_entries)\n", cached());
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "fill") == 0) {
        mkdir(argv[2], 0700);
        int folder = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (folder < 0) { perror(argv[2]); return 1; }
        long count = atol(argv[3]), before = cached();
        char name[64];
        struct stat info;
        for (long i = 0; i < count; i++) {
            snprintf(name, sizeof name, "absent-%ld-%ld", (long)getpid(), i);
            fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW);
        }
        printf("names cached: %ld before, %ld after\n", before, cached());
        return 0;
    }
    fprintf(stderr, "usage: name_cache count | name_cache fill FOLDER N\n");
    return 2;
}
