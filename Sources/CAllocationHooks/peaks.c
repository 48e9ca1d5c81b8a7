/*
 * Peaks: the highest live requested bytes of each open region of a thread (its own
 * allocations less its own frees, at the highest point) and of the window.
 *
 * A region's live bytes rise only at its allocations and fall only at frees of its own
 * blocks, so its highest point is the value just before one of those frees, or at its close.
 * The allocation therefore only adds (tls.top_live, in fast_paths.h and accounting.c) and
 * compares nothing; the free of the innermost region's own block compares before it
 * subtracts (own_freed_peak, hooks_internal.h). Outside regions nothing of this runs.
 *
 * Nested regions: an outer region's live bytes are the innermost's plus what it holds
 * beyond them (live_beyond_top, by depth), which only a free of the outer region's own
 * block changes while the inner one is open (the general path: such a block is not the
 * innermost's, so the fast free never takes it). Between two such events an outer region's
 * highest point is therefore its beyond plus the innermost's highest point: folded in at
 * each event (fold), and at every open and close. So every region's peak is exact, to the
 * byte, for the frees its own thread makes.
 *
 * The rule for other frees: a block allocated before the region opened is not its own,
 * and freeing it never lowers the region's live bytes (nor its peak): a region that frees
 * 1 MB of earlier work and allocates 100 bytes peaks at 100. A region's block freed on
 * another thread while it is open counts as live until the region closes (the owner cannot
 * order it against its own work without a shared counter on every allocation): the peak is
 * then an upper bound, never under the truth. The window's live bytes are one process-wide
 * counter (every thread takes the general path while it is open), so its peak is exact
 * for frees on any thread.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"

HIDDEN _Atomic int64_t window_live;
static _Atomic uint64_t window_peak;

static inline uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Folds the innermost region's highest point since the last fold (and its live bytes
 * now) into the peak of every open region. */
static void fold(void) {
    uint32_t k = tls.depth;
    if (k == 0) return;
    uint64_t m = max_u64(tls.top_peak, tls.top_live);
    for (uint32_t i = 1; i < k; i++) tls.peak[i] = max_u64(tls.peak[i], tls.live_beyond_top[i] + m);
    tls.peak[k] = max_u64(tls.peak[k], m);
    tls.top_peak = tls.top_live;
}

void peaks_region_opening(void) {
    uint32_t k = tls.depth; /* the parent's depth, 0 when none */
    fold();
    /* Every open region now holds the parent's live bytes beyond the new innermost's 0. */
    for (uint32_t i = 1; i < k; i++) tls.live_beyond_top[i] += tls.top_live;
    if (k) tls.live_beyond_top[k] = tls.top_live;
    tls.peak[k + 1] = 0;
    tls.top_live = tls.top_peak = 0;
}

uint64_t peaks_region_closing(void) {
    uint32_t k = tls.depth; /* the closing region's */
    fold();
    uint64_t peak = tls.peak[k];
    if (k > 1) {
        /* The parent becomes the innermost: its live bytes are its beyond plus the closing
         * region's, and what the regions below hold beyond it shrinks by its beyond. */
        uint64_t beyond = tls.live_beyond_top[k - 1];
        for (uint32_t i = 1; i < k - 1; i++) tls.live_beyond_top[i] -= beyond;
        tls.top_live = tls.top_peak = beyond + tls.top_live;
    } else {
        tls.top_live = tls.top_peak = 0;
    }
    return peak;
}

void peaks_outer_freed(uint32_t depth, uint64_t requested) {
    fold();
    /* Regions 1..depth hold the block, the innermost does not. */
    for (uint32_t i = 1; i <= depth; i++) tls.live_beyond_top[i] = minus(tls.live_beyond_top[i], requested);
}

void peaks_window_opening(void) {
    atomic_store_explicit(&window_live, 0, memory_order_relaxed);
    atomic_store_explicit(&window_peak, 0, memory_order_relaxed);
}

uint64_t peaks_window_closing(void) {
    int64_t live = atomic_load_explicit(&window_live, memory_order_relaxed);
    uint64_t peak = atomic_load_explicit(&window_peak, memory_order_relaxed);
    return live > 0 && (uint64_t)live > peak ? (uint64_t)live : peak;
}

void window_freed_peak(uint64_t requested) {
    int64_t before = atomic_fetch_sub_explicit(&window_live, (int64_t)requested, memory_order_relaxed);
    if (before <= 0) return;
    uint64_t peak = atomic_load_explicit(&window_peak, memory_order_relaxed);
    while ((uint64_t)before > peak &&
           !atomic_compare_exchange_weak_explicit(&window_peak, &peak, (uint64_t)before, memory_order_relaxed,
                                                  memory_order_relaxed)) { }
}
