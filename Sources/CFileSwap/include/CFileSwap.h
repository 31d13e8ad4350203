// Linux file-system calls the build needs that Foundation does not offer.
#ifndef GRAMGEN_CFILESWAP_H
#define GRAMGEN_CFILESWAP_H

/// Swaps two existing paths atomically (Linux renameat2 RENAME_EXCHANGE).
/// Returns 0 on success, or -1 with errno set (EINVAL/ENOSYS where the file system cannot).
int gg_exchange_paths(const char *a, const char *b);

/// Marks the open folder `fd` as the top of a tree (FS_TOPDIR_FL, what `chattr +T` sets), so ext4
/// places each folder made in it in a group of its own instead of packing all of them together.
/// Returns 0 on success, or -1 with errno set (ENOTTY/EOPNOTSUPP on file systems without the flag).
int gg_mark_top_folder(int fd);
/// Reads the next entries of the open folder `fd` into `buffer` as the kernel lays them out
/// (Linux getdents64: each record an inode (8 bytes), an offset (8), the record's length (2),
/// the entry's type (1) and its name, ending with a zero byte). Returns the bytes read, 0 at the
/// folder's end, or -1 with errno set.
long gg_read_folder(int fd, void *buffer, unsigned long size);
/// Writes every dirty page of the file system that holds the open file `fd` (Linux syncfs).
/// Returns 0 on success, or -1 with errno set.
int gg_sync_file_system(int fd);
/// Gives the calling thread alone the lowest priority (nice 19 on Linux, where each thread has
/// its own), so it runs only where the process's other threads leave a core idle. Returns 0 on
/// success, or -1 with errno set.
int gg_lower_thread_priority(void);


#include <sys/types.h>

/// Starts the program at `path` with `argv` and `envp`, its standard input /dev/null and its
/// standard output and error written to the files `out_path` and `err_path` (created or
/// truncated), with at most `memory_bytes` of address space and `cpu_seconds` of processor time,
/// killed when the calling process dies. Only async-signal-safe calls run between fork and exec.
/// Returns the child's pid, or -1 with errno set.
pid_t gg_spawn_bounded(const char *path, char *const argv[], char *const envp[], const char *out_path,
                       const char *err_path, unsigned long long memory_bytes, unsigned long cpu_seconds);

#endif
