// Atomic exchange of two paths, so a finished build replaces the old output in one step.
#ifndef GRAMGEN_CFILESWAP_H
#define GRAMGEN_CFILESWAP_H

/// Swaps two existing paths atomically (Linux renameat2 RENAME_EXCHANGE).
/// Returns 0 on success, or -1 with errno set (EINVAL/ENOSYS where the file system cannot).
int gg_exchange_paths(const char *a, const char *b);

#endif
