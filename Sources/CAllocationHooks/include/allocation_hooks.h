#ifndef PROFCTL_ALLOCATION_HOOKS_H
#define PROFCTL_ALLOCATION_HOOKS_H

/*
 * The platform seam of profctl: the malloc family is replaced inside the process
 * (no LD_PRELOAD) and every call is counted per thread. This header is all the rest
 * of the project sees; a port to another platform replaces hooks_glibc.c and keeps it.
 *
 * Vocabulary
 *   region   a measured stretch of one thread's work, opened by profctl_region_begin
 *            and closed by profctl_region_end. Regions nest.
 *   scope id the id of the innermost open region of a thread (0: none). Blocks allocated
 *            while a region is open are attributed to it: they are "tracked", so their
 *            requested size is known when they are freed, on whatever thread.
 *   excluded a stretch (profctl_exclusion_begin/end) whose allocations are never
 *            attributed to a region: the recorder's own work.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Process-wide totals: every live thread plus every thread that has exited.
typedef struct profctl_totals {
    uint64_t allocations;
    uint64_t frees;
    uint64_t requested_bytes;
    uint64_t usable_bytes;
    uint64_t freed_usable_bytes;
    /// Blocks allocated inside a region and not yet freed.
    uint64_t tracked_live_blocks;
    /// Threads that ever called the hooks, and how many of them have exited.
    uint64_t threads_seen;
    uint64_t threads_exited;
} profctl_totals;

/// A snapshot of the calling thread's counters, taken when a region opens.
typedef struct profctl_region {
    uint64_t scope_id;
    uint64_t parent_scope_id;
    uint64_t epoch;
    uint32_t slot;
    int32_t outermost;
    uint64_t attributed_allocations;
    uint64_t attributed_requested;
    uint64_t attributed_usable;
    uint64_t frees;
    uint64_t freed_usable;
    uint64_t reclaimed_requested;
    uint64_t reclaimed_usable;
    uint64_t prior_freed_requested;
    uint64_t prior_freed_usable;
    uint64_t tracked_freed_usable;
} profctl_region;

/// What a closed region did.
typedef struct profctl_region_result {
    uint64_t scope_id;
    /// Allocations made in the region (excluded stretches left out).
    uint64_t allocations;
    uint64_t requested_bytes;
    uint64_t usable_bytes;
    /// Frees performed on this thread during the region, of any block.
    uint64_t frees;
    /// Of the region's own allocations, the bytes still live when it closed.
    uint64_t retained_requested_bytes;
    uint64_t retained_usable_bytes;
    /// Bytes of blocks tracked by an earlier region and freed during this one.
    uint64_t released_requested_bytes;
    uint64_t released_usable_bytes;
    /// Usable bytes of never-tracked blocks freed during the region (requested size unknown).
    uint64_t untracked_freed_usable_bytes;
} profctl_region_result;

/// Opens a region on the calling thread. Returns 0 on success, -1 when the thread has
/// no counter slot of its own (more than PROFCTL_MAX_THREADS live threads, or the
/// thread is exiting); the region is then not open.
int profctl_region_begin(profctl_region *region);

/// Closes the innermost region opened by profctl_region_begin on this thread.
void profctl_region_end(profctl_region *region, profctl_region_result *result);

/// The calling thread's innermost open region, 0 when none.
uint64_t profctl_current_scope(void);

/// While excluded, this thread's allocations are counted in the totals but never
/// attributed to a region. Nests.
void profctl_exclusion_begin(void);
void profctl_exclusion_end(void);

void profctl_hooks_totals(profctl_totals *totals);

/// Non-zero once the replaced malloc has seen a call from outside this file, i.e.
/// the hooks really are the process's allocator (not so under valgrind, for one).
int profctl_hooks_active(void);

/// What the hooks do, for measuring their cost. FULL is the default and the only mode
/// whose figures are right; the others exist for the benchmark program.
enum {
    /// Forward to glibc, count nothing: what the program costs with the hooks compiled out,
    /// less one predictable branch.
    PROFCTL_HOOKS_FORWARD = 0,
    /// Count allocations, frees and requested bytes, and attribute them to regions; no usable sizes.
    PROFCTL_HOOKS_COUNT = 1,
    /// Everything: also usable sizes.
    PROFCTL_HOOKS_FULL = 2,
};
void profctl_hooks_set_mode(int mode);

/// Non-zero when usable sizes are read from glibc's chunk headers (checked against
/// malloc_usable_size at load), zero when glibc's function is called instead.
int profctl_hooks_header_usable_size(void);

/// The allocator underneath the hooks, for measuring what the hooks cost.
void *profctl_underlying_malloc(size_t size);
void profctl_underlying_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
