#define _GNU_SOURCE
#include "CFileSwap.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <signal.h>
#include <sys/resource.h>
#if defined(__linux__)
#include <linux/fs.h>
#include <sys/prctl.h>
#endif

int gg_exchange_paths(const char *a, const char *b) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int) syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int gg_mark_top_folder(int fd) {
#if defined(__linux__) && defined(FS_IOC_SETFLAGS) && defined(FS_TOPDIR_FL)
    int flags = 0;
    if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) return -1;
    if (flags & FS_TOPDIR_FL) return 0;
    flags |= FS_TOPDIR_FL;
    return ioctl(fd, FS_IOC_SETFLAGS, &flags);
#else
    (void) fd;
    errno = ENOTTY;
    return -1;
#endif
}

int gg_lower_thread_priority(void) {
#if defined(__linux__) && defined(SYS_gettid)
    return setpriority(PRIO_PROCESS, (id_t) syscall(SYS_gettid), 19);
#else
    errno = ENOSYS;
    return -1;
#endif
}

long gg_read_folder(int fd, void *buffer, unsigned long size) {
    return syscall(SYS_getdents64, fd, buffer, size);
}

int gg_sync_file_system(int fd) {
#if defined(__linux__)
    return syncfs(fd);
#else
    sync();
    return 0;
#endif
}

pid_t gg_spawn_bounded(const char *path, char *const argv[], char *const envp[], const char *out_path,
                       const char *err_path, unsigned long long memory_bytes, unsigned long cpu_seconds) {
    int input = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (input < 0) return -1;
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    int err = out < 0 ? -1 : open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (out < 0 || err < 0) {
        int saved = errno;
        close(input);
        if (out >= 0) close(out);
        errno = saved;
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
#if defined(__linux__)
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
#endif
        struct sigaction fallback;
        fallback.sa_handler = SIG_DFL;
        fallback.sa_flags = 0;
        sigemptyset(&fallback.sa_mask);
        sigaction(SIGPIPE, &fallback, NULL);
        sigaction(SIGINT, &fallback, NULL);
        sigaction(SIGTERM, &fallback, NULL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (dup2(input, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
        struct rlimit memory = { memory_bytes, memory_bytes };
        struct rlimit cpu = { cpu_seconds, cpu_seconds + 1 };
        if (setrlimit(RLIMIT_AS, &memory) != 0 || setrlimit(RLIMIT_CPU, &cpu) != 0) _exit(127);
        struct rlimit no_core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &no_core);
        execve(path, argv, envp);
        _exit(127);
    }
    int saved = errno;
    close(input);
    close(out);
    close(err);
    errno = saved;
    return pid;
}
