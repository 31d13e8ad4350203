// What a new process's memory costs on this machine: the time to touch MB megabytes of fresh
// anonymous memory (one byte per 4 KiB page), in transparent huge pages and in 4 KiB pages,
// first after IDLE seconds of quiet, then again right after. A one-off build is a new process
// and fills its memory this way (about 125 MiB for a caption edit at 10,000 posts).
//
//   cc -O2 -o /tmp/fresh_memory bench/fresh_memory.c && /tmp/fresh_memory 150 6 3
//
// Prints one line per measurement: pages, when, milliseconds, GB/s.
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double touch(size_t megabytes, int huge) {
    size_t bytes = megabytes << 20;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    char *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) { perror("mmap"); exit(1); }
    madvise(memory, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    for (size_t i = 0; i < bytes; i += 4096) memory[i] = 1;
    clock_gettime(CLOCK_MONOTONIC, &end);
    munmap(memory, bytes);
    return (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: fresh_memory MB IDLE_SECONDS ROUNDS\n"); return 2; }
    size_t megabytes = (size_t)atol(argv[1]);
    int idle = atoi(argv[2]), rounds = atoi(argv[3]);
    printf("pages\twhen\tms\tGB/s\n");
    for (int round = 0; round < rounds; round++) {
        for (int huge = 1; huge >= 0; huge--) {
            const char *kind = huge ? "huge" : "4k";
            sleep(idle);
            double after = touch(megabytes, huge), right = touch(megabytes, huge);
            printf("%s\tafter %ds idle\t%.1f\t%.2f\n", kind, idle, after, megabytes / 1024.0 / (after / 1e3));
            printf("%s\tright after\t%.1f\t%.2f\n", kind, right, megabytes / 1024.0 / (right / 1e3));
        }
    }
    return 0;
}
