// The floor of a one-off `gramgen build` after an edit, under gramgen's trust rules: before
// anything is drawn, a new process must find what changed (a stat of every entry of content/,
// templates/ and static/) and may take over an output file only if it is exactly the file the
// last build wrote (a stat of every file it keeps). This does only that, on two threads, as fast
// as C can: it is what any design that keeps those rules pays, whatever else it does.
//
//   cc -O2 -pthread -o /tmp/edit_floor bench/edit_floor.c && /tmp/edit_floor SITE OUTPUT [RUNS]
//
// Prints, per run, milliseconds for: the inputs walked (every file of content/users/ stat'ed,
// getdents64 + fstatat in each folder opened in its parent, the users' folders shared between
// two threads; the few other inputs left out), the output's files stat'ed by path (as a build
// checks the files its record lists; paths gathered first, not timed), and the same output
// stat'ed folder by folder (readdir + fstatat, the cheapest way to see every file). See
// bench/results/edit-floor.md.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }

typedef struct { char **items; size_t count, capacity; } List;
static void push(List *list, const char *text) {
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 1024;
        list->items = realloc(list->items, list->capacity * sizeof *list->items);
    }
    list->items[list->count++] = strdup(text);
}
static int dots(const char *name) { return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])); }

// Every entry below `folder` counted, every non-folder stat'ed; files (and folders, when given)
// gathered. The cheapest walk there is: each folder opened by its name in its open parent and
// read with getdents64 into one buffer, no stat of a real folder (the listing says what it is).
struct record { unsigned long long inode; long long offset; unsigned short length; unsigned char type; char name[]; };
static long walk_in(int parent, const char *name, const char *folder, List *files, List *folders) {
    int fd = parent < 0 ? open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                        : openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return 0;
    if (folders) push(folders, folder);
    long count = 0;
    char path[4096], buffer[32768];
    List subfolders = {0};
    long got;
    while ((got = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
        for (long at = 0; at < got;) {
            struct record *entry = (struct record *)(buffer + at);
            at += entry->length;
            if (dots(entry->name)) continue;
            if (entry->type == DT_DIR) { count++; push(&subfolders, entry->name); continue; }
            struct stat info;
            if (fstatat(fd, entry->name, &info, AT_SYMLINK_NOFOLLOW)) continue;
            count++;
            if (files) { snprintf(path, sizeof path, "%s/%s", folder, entry->name); push(files, path); }
        }
    }
    for (size_t i = 0; i < subfolders.count; i++) {
        snprintf(path, sizeof path, "%s/%s", folder, subfolders.items[i]);
        count += walk_in(fd, subfolders.items[i], path, files, folders);
        free(subfolders.items[i]);
    }
    free(subfolders.items);
    close(fd);
    return count;
}
static long walk(const char *folder, List *files, List *folders) { return walk_in(-1, NULL, folder, files, folders); }

typedef struct { List *list; size_t from, step; int mode; long count; } Job;
static void *work(void *argument) {
    Job *job = argument;
    struct stat info;
    for (size_t i = job->from; i < job->list->count; i += job->step) {
        if (job->mode == 0) job->count += walk(job->list->items[i], NULL, NULL);  // a folder walked
        else if (job->mode == 1) job->count += lstat(job->list->items[i], &info) == 0;  // a file by path
        else {  // a folder's own files
            DIR *dir = opendir(job->list->items[i]);
            if (!dir) continue;
            struct dirent *entry;
            while ((entry = readdir(dir))) {
                if (!dots(entry->d_name) && fstatat(dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0) job->count++;
            }
            closedir(dir);
        }
    }
    return NULL;
}
static long both(List *list, int mode) {
    Job jobs[2] = {{list, 0, 2, mode, 0}, {list, 1, 2, mode, 0}};
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, work, &jobs[i]);
    for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
    return jobs[0].count + jobs[1].count;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: edit_floor SITE OUTPUT [RUNS]\n"); return 2; }
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    char path[4096];
    // The inputs' folders, shared out: content/users/<handle> each.
    List tops = {0};
    snprintf(path, sizeof path, "%s/content/users", argv[1]);
    DIR *users = opendir(path);
    struct dirent *entry;
    while (users && (entry = readdir(users))) {
        if (dots(entry->d_name)) continue;
        char user[4096];
        snprintf(user, sizeof user, "%s/%s", path, entry->d_name);
        push(&tops, user);
    }
    if (users) closedir(users);
    List files = {0}, folders = {0};
    walk(argv[2], &files, &folders);
    printf("run\tinputs walked (ms)\toutput files by path (ms)\toutput folder by folder (ms)\tinput entries\toutput files\n");
    for (int run = 1; run <= runs; run++) {
        double start = now();
        long inputs = both(&tops, 0);
        double walked = now();
        long byPath = both(&files, 1);
        double checked = now();
        both(&folders, 2);
        double listed = now();
        printf("%d\t%.1f\t%.1f\t%.1f\t%ld\t%ld\n", run, walked - start, checked - walked, listed - checked, inputs, byPath);
    }
    return 0;
}
