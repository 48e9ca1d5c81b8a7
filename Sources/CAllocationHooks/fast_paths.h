/*
 * What malloc and free do on their fast paths, inline in the platform's entry points
 * (platform_glibc.c): counting, and the owner's insert and free of a tracked block in a
 * region with no window. Leaves that save no registers and call nothing that can allocate,
 * so they need no reentrancy guard; anything else goes to accounting.c, out of line.
 * They never call the allocator: the entry point does, so that the seam stays one file.
 *
 * Applies when the thread is READY and hot.fast says so (mode FULL, usable sizes from chunk
 * headers, no window, no sites, not chained): see fast().
 */
#ifndef PROFCTL_FAST_PATHS_H
#define PROFCTL_FAST_PATHS_H

#include "hooks_internal.h"

/* One compare of two bytes, the thread's state and hot.fast (read as a volatile: a byte's
 * load is never torn), which the compiler folds into the compare: 3 instructions where
 * testing the state and the flag apart took 5. */
static ALWAYS_INLINE bool fast(void) {
    return LIKELY(tls.state == *(volatile uint8_t *)&hot.fast);
}

/* The fast path with sites captured: tested only where fast() failed. */
static inline bool sites_fast(void) {
    return tls.state == STATE_READY && atomic_load_explicit(&hot.sites_fast, memory_order_relaxed);
}

/* Tracks a block allocated on the fast path, inline in malloc (one frame, no call): the
 * table has room (published, not growing) and the block's home slot is empty. It keeps
 * no attributed counters (a region derives them) and no live count (the room is it), and
 * counts the allocation in the region's size classes only (the thread's own three counters
 * take it when the region opens or closes: see thread_state.counted).
 * Anything else is track_slow's, out of line. */
static ALWAYS_INLINE void *track_fast(void *p, size_t requested, size_t usable) {
    lifetimes_allocated(tls.life, requested, usable); /* tracking: a region is open */
    tls.top_live += requested; /* its peak compares at the frees (peaks.c) */
    /* Takes one from the room; at 0 it wraps, and track_slow gives it back. */
    if (UNLIKELY(__builtin_sub_overflow(tls.room, (uint64_t)1, &tls.room))) return track_slow(p, requested, usable);
    uintptr_t a = (uintptr_t)p;
    entry *e = own_home_entry(a);
    if (UNLIKELY(e->address != 0)) return track_slow(p, requested, usable);
    e->requested = requested;
    e->usable = usable;
    e->tag = tls.scope_id; /* no window on the fast path: the scope alone, already within SCOPE_MASK */
    /* The address last: a reader on another thread sees a whole entry or none. */
    __atomic_store_n(&e->address, a, __ATOMIC_RELEASE);
    return p;
}

/* An allocation on the fast path, with the block's usable size; returns p (a tail call
 * when it is tracked). In a region the size classes count it (track_fast), else the
 * thread's three counters: the same test and three adds outside a region as counting
 * first, three adds fewer in one. */
static ALWAYS_INLINE void *account_fast(void *p, size_t requested, size_t usable) {
    if (tls.tracking) return track_fast(p, requested, usable);
    tls.n.allocations += 1;
    SEPARATE();
    tls.n.requested += requested;
    SEPARATE();
    tls.n.usable += usable;
    return p;
}

/* A free on the fast path that the innermost region does not take as its own temporary:
 * its two counters (untrack_fast counts the others, see thread_state.counted_temporaries). */
static ALWAYS_INLINE void count_free_fast(size_t usable) {
    tls.n.c.frees += 1;
    SEPARATE();
    tls.n.c.freed_usable += usable;
}

/* The fast path's free of a block that may be tracked (some thread's table is published),
 * in scratch registers only, so free still saves none. True when it finished the common
 * case itself, untrack_own's work cut down to it: the owner freeing a fresh entry in its
 * home slot that nothing follows (no entry moves), allocated in the innermost open region,
 * with no window open (hot.fast). It credits that region's own bytes only (a region derives
 * its releasable and tracked frees from them at its close) and counts a temporary, which
 * the next settle takes off the live count: the free is counted there only (the caller does
 * not add it to the thread's free counters; regions.c folds it in). False:
 * account_tracked_free's, this thread's empty table included, after the caller counted the
 * free. Either way the caller then frees the block. */
static ALWAYS_INLINE bool untrack_fast(void *p, size_t usable) {
    uintptr_t a = (uintptr_t)p;
    uint64_t at = home_offset(a, tls.byte_mask);
    char *es = (char *)tls.entries;
    entry *e = (entry *)(es + at);
    if (LIKELY(e->address == a) && LIKELY(e->usable == usable) &&
        LIKELY(((entry *)(es + at + sizeof(entry)))->address == 0) && /* the last slot: SENTINEL */
        LIKELY(e->tag == tls.scope_id)) { /* (a block tracked in a window has epoch bits too: the general way) */
        uint64_t requested = e->requested;
        __atomic_store_n(&e->address, 0, __ATOMIC_RELAXED);
        own_freed_peak(requested); /* (which keeps its requested bytes: see top_reclaimed_usable) */
        tls.top_reclaimed_usable += usable;
        SEPARATE();
        tls.top_temporaries += 1;
        return true;
    }
    return false;
}

#endif
