#ifndef PROFCTL_ALLOCATION_LIFETIMES_H
#define PROFCTL_ALLOCATION_LIFETIMES_H

/*
 * Lifetimes and size classes of a region's allocations (docs/leaks.md, "Temporaries and
 * size classes"). While a region is open, each allocation it makes is counted in a log2
 * size class of its requested size, with its requested and usable bytes; each of its
 * blocks freed on its own thread before it closes is a *temporary*. Like the region's
 * other figures, an inner region's are its own and the outer region's include them.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Size classes: class c holds requested sizes in [2^c, 2^(c+1)), and class 0 also size 0.
#define PROFCTL_SIZE_CLASSES 64

/// The allocations of one size class.
typedef struct profctl_size_class {
    uint64_t allocations;
    uint64_t requested_bytes;
    uint64_t usable_bytes;
} profctl_size_class;

/// What one region's allocations were: temporaries and size classes.
typedef struct profctl_lifetimes {
    /// The region these figures belong to (0: none yet).
    uint64_t scope_id;
    /// Blocks the region allocated and its thread freed before it closed, and their requested bytes.
    uint64_t temporaries;
    uint64_t temporary_requested_bytes;
    /// Bit c set when classes[c] may have allocations (every class that has is marked).
    uint64_t used_classes;
    profctl_size_class classes[PROFCTL_SIZE_CLASSES];
} profctl_lifetimes;

/// Adds the figures of the calling thread's most recently closed region, `scope_id`, to
/// `into` (an accumulator the caller owns; its scope_id is left alone). Returns 0; -1 when
/// that region is not the one most recently closed at its depth on this thread (another
/// opened there since, or it belongs to another thread): nothing is added then.
/// Allocates nothing.
int profctl_region_lifetimes_add(uint64_t scope_id, profctl_lifetimes *into);

/// glibc's malloc_usable_size (not in Swift's Glibc module): what malloc handed back for a
/// block, for stating what a size class should hold.
size_t profctl_malloc_usable_size(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
