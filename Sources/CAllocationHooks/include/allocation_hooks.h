#ifndef PROFCTL_ALLOCATION_HOOKS_H
#define PROFCTL_ALLOCATION_HOOKS_H

/*
 * The platform seam of profctl: the malloc family is replaced inside the process
 * (no LD_PRELOAD) and every call is counted per thread. This header is all the rest
 * of the project sees; a port to another platform replaces platform_glibc.c and keeps it.
 *
 * Vocabulary
 *   region   a measured stretch of ONE thread's work, opened by profctl_region_begin and
 *            closed by profctl_region_end on that thread. Regions nest like timers: an
 *            inner region's figures are its own, and the outer region's include them.
 *   window   a measured stretch of the WHOLE PROCESS's work (profctl_window_begin/end):
 *            every thread's allocations count while it is open, as heaptrack counts.
 *            One window at a time.
 *   tracked  a block allocated while a region or window is open: its requested size and
 *            where it was allocated are kept, so its free is credited exactly, on any thread.
 *   excluded a stretch (profctl_exclusion_begin/end) whose allocations are never
 *            attributed to a region or window: the recorder's own work.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Regions open at once on one thread, at most.
#define PROFCTL_MAX_REGION_DEPTH 32

/// Process-wide totals: every live thread plus every thread that has exited.
typedef struct profctl_totals {
    uint64_t allocations;
    uint64_t frees;
    uint64_t requested_bytes;
    uint64_t usable_bytes;
    uint64_t freed_usable_bytes;
    /// Blocks allocated inside a region or window and not yet freed.
    uint64_t tracked_live_blocks;
    /// Threads that ever called the hooks, and how many of them have exited.
    uint64_t threads_seen;
    uint64_t threads_exited;
} profctl_totals;

/// Counters a region or window reads when it opens and again when it closes.
typedef struct profctl_snapshot {
    uint64_t attributed_allocations;
    uint64_t attributed_requested;
    uint64_t attributed_usable;
    uint64_t frees;
    uint64_t freed_usable;
    uint64_t tracked_freed_usable;
    /// Tracked blocks freed that no open region of their allocating thread still holds.
    uint64_t releasable_requested;
    uint64_t releasable_usable;
    /// Window only: tracked blocks freed, allocated in this window / before it.
    uint64_t window_reclaimed_requested;
    uint64_t window_reclaimed_usable;
    uint64_t window_released_requested;
    uint64_t window_released_usable;
    /// Swift retains and releases counted while a region or window counts them
    /// (allocation_arc.h; 0 unless ARC counting is on), `_n` variants as n.
    uint64_t retains;
    uint64_t releases;
} profctl_snapshot;

/// An open region: where it is and the calling thread's counters when it opened.
typedef struct profctl_region {
    uint64_t scope_id;
    uint64_t parent_scope_id;
    uint32_t slot;
    uint32_t depth;
    profctl_snapshot start;
} profctl_region;

/// An open window: its epoch and the process's counters when it opened.
typedef struct profctl_window {
    uint64_t epoch;
    profctl_snapshot start;
} profctl_window;

/// What a closed region or window did.
typedef struct profctl_region_result {
    uint64_t scope_id;
    /// Allocations made in it (excluded stretches left out).
    uint64_t allocations;
    uint64_t requested_bytes;
    uint64_t usable_bytes;
    /// Frees performed during it (on its thread, for a region), of any block.
    uint64_t frees;
    /// Of its own allocations, the bytes still live when it closed.
    uint64_t retained_requested_bytes;
    uint64_t retained_usable_bytes;
    /// Bytes of blocks tracked before it opened (not its own) and freed during it.
    uint64_t released_requested_bytes;
    uint64_t released_usable_bytes;
    /// Usable bytes of never-tracked blocks freed during it (requested size unknown).
    uint64_t untracked_freed_usable_bytes;
    /// Swift retains and releases made in it (on its thread, for a region), `_n` as n;
    /// 0 unless ARC counting was on (allocation_arc.h).
    uint64_t retains;
    uint64_t releases;
    /// Its own allocations less its own frees at the highest point, in requested bytes:
    /// frees of blocks from before it never lower it; a region's blocks freed on another
    /// thread while it is open count as live until it closes (docs/hooks.md, "Peak").
    uint64_t peak_requested_bytes;
} profctl_region_result;

/// Opens a region on the calling thread. Returns 0 on success; -1 when the thread has
/// no table of tracked blocks of its own (more than 4,095 threads at once, or the thread
/// is exiting);
/// -2 when PROFCTL_MAX_REGION_DEPTH regions are already open on it. On failure the
/// region is not open.
int profctl_region_begin(profctl_region *region);

/// Closes the innermost region opened by profctl_region_begin on this thread.
void profctl_region_end(profctl_region *region, profctl_region_result *result);

/// The calling thread's innermost open region, 0 when none.
uint64_t profctl_current_scope(void);

/// Opens the process-wide window. Returns 0 on success, -1 when a window is already open.
int profctl_window_begin(profctl_window *window);

/// Closes the window opened by profctl_window_begin (on any thread).
void profctl_window_end(profctl_window *window, profctl_region_result *result);

/// Non-zero while a window is open.
int profctl_window_is_open(void);

/// While excluded, this thread's allocations are counted in the totals but never
/// attributed to a region or window. Nests.
void profctl_exclusion_begin(void);
void profctl_exclusion_end(void);

/// Sums every thread's counters: costs a pass over the registry, not for hot paths.
void profctl_hooks_totals(profctl_totals *totals);

/// Non-zero once the replaced malloc has counted a call, i.e. the hooks really are the
/// process's allocator (not so under valgrind, for one). O(1) once true.
int profctl_hooks_active(void);

/// What the hooks do, for measuring their cost. FULL is the default and the only mode
/// whose figures are right; the others exist for the benchmark program.
enum {
    /// Forward to glibc, count nothing: what the program costs with the hooks compiled out,
    /// less one predictable branch.
    PROFCTL_HOOKS_FORWARD = 0,
    /// Count allocations, frees and requested bytes, and attribute them to regions; no usable
    /// sizes. Takes the general path (slower than FULL, whose fast path reads usable sizes
    /// from chunk headers); kept for comparison.
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
