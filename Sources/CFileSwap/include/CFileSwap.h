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
/// Writes every dirty page of the file system that holds the open file `fd` (Linux syncfs).
/// Returns 0 on success, or -1 with errno set.
int gg_sync_file_system(int fd);

#endif
