#define _GNU_SOURCE
#include "CFileSwap.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/fs.h>
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

int gg_sync_file_system(int fd) {
#if defined(__linux__)
    return syncfs(fd);
#else
    sync();
    return 0;
#endif
}
