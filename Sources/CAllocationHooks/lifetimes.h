/*
 * The hot half of the lifetimes and size classes (include/allocation_lifetimes.h): inline
 * in hooks_glibc.c's malloc and free, a few instructions each. The rest is lifetimes.c.
 */
#ifndef PROFCTL_LIFETIMES_INTERNAL_H
#define PROFCTL_LIFETIMES_INTERNAL_H

#include "allocation_lifetimes.h"
#include <stddef.h>

/* Between adds to neighbouring counters: keeps the compiler from pairing them into vector
 * instructions, which take more instructions than the adds (as hooks_glibc.c's SEPARATE). */
#define LIFETIMES_SEPARATE() __asm__ volatile("" ::: "memory")

/* An allocation in the region whose figures `b` holds: a clz for the class, an or and three
 * adds. (requested | 1) keeps clz defined for size 0, which lands in class 0 with size 1.
 * used_classes gets the requested size itself: its top bit is the class's, so every class
 * in use is marked (with some unused ones below it, which cost the close a look at a zero)
 * for one instruction where 1 << c took three. */
static inline __attribute__((always_inline)) void lifetimes_allocated(profctl_lifetimes *b, size_t requested, size_t usable) {
    unsigned c = 63u ^ (unsigned)__builtin_clzll((unsigned long long)requested | 1);
    b->used_classes |= requested | 1;
    profctl_size_class *k = &b->classes[c];
    k->allocations += 1;
    LIFETIMES_SEPARATE();
    k->requested_bytes += requested;
    LIFETIMES_SEPARATE();
    k->usable_bytes += usable;
}

/* A block the region of `b` allocated, freed on its thread while that region is open. */
static inline __attribute__((always_inline)) void lifetimes_temporary(profctl_lifetimes *b, uint64_t requested) {
    b->temporaries += 1;
    LIFETIMES_SEPARATE();
    b->temporary_requested_bytes += requested;
}

/* The figures of depth `depth` (0: outside any region) for the thread owning table slot
 * `slot`; never NULL (a shared block that nobody reads when the storage cannot be mapped). */
profctl_lifetimes *lifetimes_at(uint32_t slot, uint32_t depth);

/* A region opens at `depth` (>= 1): its figures start from zero. Returns them. */
profctl_lifetimes *lifetimes_open(uint32_t slot, uint32_t depth, uint64_t scope_id);

/* The region at `depth` closes: its figures are folded into its parent's and kept for
 * profctl_region_lifetimes_add until a region opens at that depth again. Returns the parent's. */
profctl_lifetimes *lifetimes_close(uint32_t slot, uint32_t depth);

/* The table slot of the calling thread and its open depth, for profctl_region_lifetimes_add
 * (hooks_glibc.c's). False when the thread has no slot. */
int lifetimes_thread_position(uint32_t *slot, uint32_t *depth);

#endif
