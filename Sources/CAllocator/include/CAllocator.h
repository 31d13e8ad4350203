#ifndef GRAMGEN_ALLOCATOR_H
#define GRAMGEN_ALLOCATOR_H

/* gramgen allocates through jemalloc, linked into the program (Allocator.c says why and how it
   is set). */

/* Hands the pages of freed memory in every arena back to the system now, instead of after the
   decay time. */
void gg_release_free_memory(void);

#endif
