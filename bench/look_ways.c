// Other ways to make the two looks a one-off build takes under the trust rules (`edit_floor.c`),
// timed by their CPU on one thread, to see whether either could be cheaper than gramgen's own.
//
//   cc -O2 -o /tmp/look_ways bench/look_ways.c && /tmp/look_ways SITE OUTPUT [RUNS]
//
// The look at each kept page (`SpareLook`, `Publisher.takeOver`): every `index.html` of OUTPUT,
// the last first, stat'ed
//   path      by its path in the output folder, as gramgen does (`fstatat`, no link followed at
//             the end);
//   folders   in its own folder, each folder on the way opened once in its parent (O_PATH,
//             no link followed), kept open while the next page shares it;
//   two       in the folder of its first two names (`ann/p`), opened once per such folder.
// The walk of the inputs (`FolderWalk`): every folder of SITE/content opened in its parent,
// listed (getdents64) and each file in it stat'ed, as gramgen does (`walk`), or with each post
// folder (`users/*/posts/*`) not opened or listed but stat'ed by name in its parent and its
// files by `folder/name`, as a walk could do when the folder's times say no name in it changed
// (`stamps`; the names taken from a first walk, not timed).
// Prints milliseconds of CPU for each, run after run. See bench/results/edits.md (thirty-third
// session).
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }

typedef struct { char **items; size_t count, capacity; } List;
static void push(List *list, const char *text) {
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 1024;
        list->items = realloc(list->items, list->capacity * sizeof *list->items);
    }
    list->items[list->count++] = strdup(text);
}
static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char buffer[32768];

/* Every index.html below the folder (paths relative to the output). */
static void gather(int parent, const char *name, const char *prefix, int depth, List *pages) {
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    List subs = {0};
    long got;
    while ((got = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
        for (long at = 0; at < got;) {
            struct dirent64 *entry = (struct dirent64 *)(buffer + at);
            at += entry->d_reclen;
            if (entry->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s%s", prefix, entry->d_name);
            if (entry->d_type == DT_DIR) push(&subs, entry->d_name);
            else if (strcmp(entry->d_name, "index.html") == 0) push(pages, path);
        }
    }
    for (size_t i = 0; i < subs.count; i++) {
        char sub[4096];
        snprintf(sub, sizeof sub, "%s%s/", prefix, subs.items[i]);
        gather(fd, subs.items[i], sub, depth + 1, pages);
        free(subs.items[i]);
    }
    free(subs.items);
    close(fd);
}

static int look_path(int root, List *pages) {
    int found = 0;
    struct stat info;
    for (size_t i = pages->count; i-- > 0;) found += fstatat(root, pages->items[i], &info, AT_SYMLINK_NOFOLLOW) == 0;
    return found;
}

/* Each page in its folder; the folders on the way kept open as a stack of their names. */
static int look_folders(int root, List *pages, int only_two) {
    int found = 0, depth = 0, fds[64];
    char names[64][256];
    struct stat info;
    for (size_t i = pages->count; i-- > 0;) {
        char path[4096], *parts[64];
        int count = 0;
        strcpy(path, pages->items[i]);
        for (char *at = path, *slash; (slash = strchr(at, '/')); at = slash + 1) { *slash = 0; parts[count++] = at; }
        char *file = count ? parts[count - 1] + strlen(parts[count - 1]) + 1 : path;
        int folders = only_two ? (count >= 2 ? 2 : 0) : count;
        if (only_two && count >= 2) file = pages->items[i] + (parts[1] - path) + strlen(parts[1]) + 1;
        int common = 0;
        while (common < depth && common < folders && strcmp(names[common], parts[common]) == 0) common++;
        while (depth > common) close(fds[--depth]);
        while (depth < folders) {
            int fd = openat(depth ? fds[depth - 1] : root, parts[depth], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0) break;
            fds[depth] = fd;
            strcpy(names[depth], parts[depth]);
            depth++;
        }
        if (depth == folders) found += fstatat(depth ? fds[depth - 1] : root, file, &info, AT_SYMLINK_NOFOLLOW) == 0;
    }
    while (depth > 0) close(fds[--depth]);
    return found;
}

/* The walk: each folder opened in its parent, listed, each file stat'ed. `mode` 1 also records
   each post folder's files as "<id>/<name>" in walk order; `mode` 2 stats each post folder by its
   name and its files by "<id>/<name>" (as recorded) instead of opening and listing it. */
static long walk(int parent, const char *name, int depth, int mode, List *posts, size_t *next) {
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return 0;
    struct stat info;
    fstat(fd, &info);
    long files = 0;
    List subs = {0};
    long got;
    while ((got = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
        for (long at = 0; at < got;) {
            struct dirent64 *entry = (struct dirent64 *)(buffer + at);
            at += entry->d_reclen;
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
            if (entry->d_type == DT_DIR) { push(&subs, entry->d_name); continue; }
            files += fstatat(fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0;
            if (mode == 1 && depth == 4) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", name, entry->d_name);
                push(posts, path);
            }
        }
    }
    for (size_t i = 0; i < subs.count; i++) {
        if (mode == 2 && depth == 3) {
            // users/<handle>/posts/<id>: the folder by its name, then its files by <id>/<name>.
            fstatat(fd, subs.items[i], &info, AT_SYMLINK_NOFOLLOW);
            size_t length = strlen(subs.items[i]);
            while (*next < posts->count && strncmp(posts->items[*next], subs.items[i], length) == 0
                   && posts->items[*next][length] == '/') {
                files += fstatat(fd, posts->items[(*next)++], &info, AT_SYMLINK_NOFOLLOW) == 0;
            }
        } else {
            files += walk(fd, subs.items[i], depth + 1, mode, posts, next);
        }
        free(subs.items[i]);
    }
    free(subs.items);
    close(fd);
    return files;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: look_ways SITE OUTPUT [RUNS]\n"); return 2; }
    int runs = argc > 3 ? atoi(argv[3]) : 3;
    int output = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (output < 0) { perror(argv[2]); return 1; }
    char content[4096];
    snprintf(content, sizeof content, "%s/content", argv[1]);
    int content_fd = open(content, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (content_fd < 0) { perror(content); return 1; }
    List pages = {0}, posts = {0};
    gather(output, ".", "", 0, &pages);
    qsort(pages.items, pages.count, sizeof *pages.items, by_text);
    size_t next = 0;
    walk(content_fd, ".", 0, 1, &posts, &next);  // the post folders' names, as the walk meets them
    printf("%zu pages, %zu files in post folders; ms of CPU:\n", pages.count, posts.count);
    printf("look: by path  by folders  by first two | walk: as gramgen  post folders by stamp\n");
    for (int run = 0; run < runs; run++) {
        double t0 = cpu();
        int a = look_path(output, &pages);
        double t1 = cpu();
        int b = look_folders(output, &pages, 0);
        double t2 = cpu();
        int c = look_folders(output, &pages, 1);
        double t3 = cpu();
        next = 0;
        long d = walk(content_fd, ".", 0, 0, &posts, &next);
        double t4 = cpu();
        next = 0;
        long e = walk(content_fd, ".", 0, 2, &posts, &next);
        double t5 = cpu();
        printf("%13.1f %11.1f %12.1f | %16.1f %21.1f   (found %d %d %d pages, %ld %ld files)\n",
               t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, a, b, c, d, e);
    }
    return 0;
}
