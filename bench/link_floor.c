// The floor of placing a pages-only build's media files: every file of an output's media/
// linked again (linkat, then fstatat for the manifest, as the publish step does) from that
// folder into a fresh one, on one thread and on two, into one folder and into two. No reading,
// no drawing: what the file system charges for the links alone.
//
//   cc -O2 -pthread -o /tmp/link_floor bench/link_floor.c && /tmp/link_floor OUTPUT/media WORK [RUNS]
//
// WORK must be on the same file system as OUTPUT; the program makes and deletes WORK/link-floor
// only. Prints, per run, seconds for: one thread into one folder, two threads into one folder,
// two threads each into its own. See bench/results/edits.md (fifty-third session).
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char **names;
static int count, source, targets[2], threads, split;

static void *work(void *argument) {
    long thread = (long)argument;
    struct stat info;
    for (int i = (int)thread; i < count; i += threads) {
        int folder = split ? targets[thread] : targets[0];
        if (linkat(source, names[i], folder, names[i], 0) != 0 || fstatat(folder, names[i], &info, AT_SYMLINK_NOFOLLOW) != 0) {
            perror(names[i]);
            exit(1);
        }
    }
    return NULL;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// Removes every file of `folder` (made by this program: plain files only) and the folder.
static void clear(const char *folder) {
    DIR *dir = opendir(folder);
    if (!dir) return;
    struct dirent *entry;
    while ((entry = readdir(dir))) if (entry->d_name[0] != '.') unlinkat(dirfd(dir), entry->d_name, 0);
    closedir(dir);
    rmdir(folder);
}

static double run(const char *work_folder, int thread_count, int split_folders) {
    char root[4096], one[4200], two[4200];
    snprintf(root, sizeof root, "%s/link-floor", work_folder);
    snprintf(one, sizeof one, "%s/a", root);
    snprintf(two, sizeof two, "%s/b", root);
    clear(one); clear(two); rmdir(root);
    if (mkdir(root, 0755) != 0 || mkdir(one, 0755) != 0 || mkdir(two, 0755) != 0) { perror(root); exit(1); }
    targets[0] = open(one, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    targets[1] = open(two, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    threads = thread_count, split = split_folders;
    double start = now();
    pthread_t handles[2];
    for (long t = 0; t < threads; t++) pthread_create(&handles[t], NULL, work, (void *)t);
    for (int t = 0; t < threads; t++) pthread_join(handles[t], NULL);
    double seconds = now() - start;
    close(targets[0]); close(targets[1]);
    clear(one); clear(two); rmdir(root);
    return seconds;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s OUTPUT/media WORK [RUNS]\n", argv[0]); return 2; }
    int runs = argc > 3 ? atoi(argv[3]) : 3;
    DIR *dir = opendir(argv[1]);
    if (!dir) { perror(argv[1]); return 1; }
    size_t capacity = 1024;
    names = malloc(capacity * sizeof *names);
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (entry->d_type != DT_REG) continue;
        if ((size_t)count == capacity) names = realloc(names, (capacity *= 2) * sizeof *names);
        names[count++] = strdup(entry->d_name);
    }
    source = open(argv[1], O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    for (int r = 0; r < runs; r++) {
        double a = run(argv[2], 1, 0), b = run(argv[2], 2, 0), c = run(argv[2], 2, 1);
        printf("%d links: one thread %.3f s, two threads into one folder %.3f s, into two %.3f s\n", count, a, b, c);
    }
    closedir(dir);
    return 0;
}
