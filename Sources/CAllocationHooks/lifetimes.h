/*
 * The hot half of the lifetimes and size classes (include/allocation_lifetimes.h): inline
 * in malloc and free (fast_paths.h) and the general path (accounting.c), a few
 * instructions each. The rest is lifetimes.c. A leaf: it calls nothing of the hooks;
 * regions.c hands it the table slot and depth of each region that opens or closes.
 */
#ifndef PROFCTL_LIFETIMES_INTERNAL_H
#define PROFCTL_LIFETIMES_INTERNAL_H

#include "allocation_lifetimes.h"
#include "hooks_base.h"

/* A region's figures while it is open: profctl_lifetimes with its size classes stored by
 * column, so that the allocation's three adds index by the column times 8 (an addressing
 * mode) where a row of three counters took a multiply. Class c is in column
 * lifetimes_column(c): see lifetimes_column_of_size. */
typedef struct lifetimes_block {
    uint64_t scope_id;
    uint64_t temporaries;
    uint64_t temporary_requested_bytes;
    uint64_t used_classes;
    uint64_t allocations[PROFCTL_SIZE_CLASSES];
    uint64_t requested_bytes[PROFCTL_SIZE_CLASSES];
    uint64_t usable_bytes[PROFCTL_SIZE_CLASSES];
} lifetimes_block;

/* The column of a requested size's class, in one instruction with a latency of one cycle:
 * the `lzcnt` encoding (F3 0F BD), which on a CPU with LZCNT (every x86-64 of the last ten
 * years) counts leading zeros, 63 - c for class c, and on an older one runs as BSR (the
 * prefix is ignored), c itself. Either way a different column per class; lifetimes.c maps
 * classes to columns by asking the CPU which it did (lifetimes_column). BSR itself, which
 * the compiler emits for a class, takes about 2 cycles more per allocation on this
 * machine's AMD EPYC (BENCHMARKS.md, "Hooks in time"). (size | 1) keeps both defined for
 * size 0, which lands in class 0 with size 1. */
static ALWAYS_INLINE uint64_t lifetimes_column_of_size(size_t requested) {
    uint64_t column; /* 64 bits wide, so that indexing by it takes no zero-extending move */
    __asm__("lzcnt %1, %0" : "=r"(column) : "r"((uint64_t)requested | 1) : "cc");
    return column;
}

/* An allocation in the region whose figures `b` holds: an lzcnt for the column, an or and
 * three adds. used_classes gets the requested size itself: its top bit is the class's, so
 * every class in use is marked (with some unused ones below it, which cost the close a look
 * at a zero) for one instruction where 1 << c took three. */
static ALWAYS_INLINE void lifetimes_allocated(lifetimes_block *b, size_t requested, size_t usable) {
    uint64_t c = lifetimes_column_of_size(requested);
    b->used_classes |= requested | 1;
    b->allocations[c] += 1;
    SEPARATE();
    b->requested_bytes[c] += requested;
    SEPARATE();
    b->usable_bytes[c] += usable;
}

/* The sums of b's size classes: allocations, requested and usable bytes (the region's
 * tracked allocations, its closed inner regions' included). Relaxed loads: another thread
 * may read them (registry.c's sums), racing the owner as it reads any counter. */
HIDDEN void lifetimes_sums(const lifetimes_block *b, uint64_t sums[3]);

/* False for the block figures go to when a slot's storage cannot be mapped (shared by such
 * threads, never read): a region cannot open on it, since its sums hold the region's
 * allocations (see hooks_internal.h, "counted"). */
HIDDEN bool lifetimes_kept(const lifetimes_block *b);

/* The figures of depth `depth` (0: outside any region) for the thread owning table slot
 * `slot`; never NULL (a shared block that nobody reads when the storage cannot be mapped). */
HIDDEN lifetimes_block *lifetimes_at(uint32_t slot, uint32_t depth);

/* A region opens at `depth` (>= 1): its figures start from zero. Returns them. */
HIDDEN lifetimes_block *lifetimes_open(uint32_t slot, uint32_t depth, uint64_t scope_id);

/* The region at `depth` closes with its temporaries (blocks it allocated that its thread
 * freed while it was open, its inner regions' included; the hooks count them beside
 * the bytes it reclaimed): its size classes are folded into its parent's, and its figures
 * kept for profctl_region_lifetimes_add until a region opens at that depth again. Returns
 * the parent's. (The parent's temporaries come with its own close: they include these.) */
HIDDEN lifetimes_block *lifetimes_close(uint32_t slot, uint32_t depth, uint64_t temporaries, uint64_t temporary_requested_bytes);

/* Adds the figures kept for the region `scope_id` that closed at `depth` in table slot
 * `slot` to `into` (profctl_region_lifetimes_add, regions.c's). 0; -1 when another region
 * opened there since, or none did. */
HIDDEN int lifetimes_add(uint32_t slot, uint32_t depth, uint64_t scope_id, profctl_lifetimes *into);

#endif
