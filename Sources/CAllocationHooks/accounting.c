/*
 * The general path of counting: everything the fast paths (fast_paths.h) leave out. A new
 * or exiting thread, a nested call, the benchmark's modes, an open window, a tracked block
 * that is not in its home slot or not the innermost region's, and frees of other threads'
 * blocks ("foreign frees"). Runs under the reentrancy guard (the thread BUSY) wherever it
 * may call something that allocates.
 *
 * Calls go down only: to the tables (hooks_internal.h, tracked_table.c), lifetimes.h and
 * sites.c. The platform's entry points call in; nothing here calls the allocator.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "sites.h" /* record --sites: a block tracked in a region, and any free */

/* A counter of `n`: a plain add in the calling thread's own block, a locked one in the
 * shared retired totals (a thread past its exit). `shared` is a constant on the fast paths. */
#define ADD(n, shared, field, amount) do { \
    if (shared) __atomic_fetch_add(&(n)->field, (amount), __ATOMIC_RELAXED); \
    else (n)->field += (amount); \
} while (0)

/* The general path's insert. The attributed counters are the window's (summed over threads);
 * a region derives its own from everything counted while it was open (see regions.c,
 * region_counters), which is why the fast insert keeps none. In a region the size classes
 * count the allocation, not the thread's three counters (the caller's, see
 * thread_state.counted). */
static ALWAYS_INLINE void track_own(void *p, size_t requested, size_t usable, uint64_t window) {
    table *t = tls.table;
    tls.n.c.attributed_allocations += 1;
    SEPARATE();
    tls.n.c.attributed_requested += requested;
    SEPARATE();
    tls.n.c.attributed_usable += usable;
    if (tls.tracking) { /* a region: its size classes count it, not tls.n (the caller's) */
        lifetimes_allocated(tls.life, requested, usable);
        tls.top_live += requested;
    }
    if (window) window_allocated_peak(requested);
    settle_live(t);
    own_insert(t, (uintptr_t)p, requested, usable, (tls.scope_id & SCOPE_MASK) | (window << SCOPE_BITS));
    open_room(t);
}

/* The freeing thread's own share of a tracked free: whether its regions may count it as
 * released (only if no region of the allocating thread still holds it), and the window. */
static ALWAYS_INLINE void credit_freer(counters *n, bool shared, const entry *e, bool releasable, size_t usable) {
    if (releasable) {
        ADD(n, shared, c.releasable_requested, e->requested);
        ADD(n, shared, c.releasable_usable, e->usable);
    }
    uint64_t window = atomic_load_explicit(&hot.window, memory_order_relaxed);
    if (UNLIKELY(window != 0)) {
        if ((e->tag >> SCOPE_BITS) == window) {
            window_freed_peak(e->requested);
            ADD(n, shared, c.window_reclaimed_requested, e->requested);
            ADD(n, shared, c.window_reclaimed_usable, e->usable);
        } else {
            ADD(n, shared, c.window_released_requested, e->requested);
            ADD(n, shared, c.window_released_usable, e->usable);
        }
    }
    ADD(n, shared, c.tracked_freed_usable, usable);
}

/* The deepest of the given open regions (ids by depth) that holds a block allocated
 * with the given innermost scope: regions opened before it and still open. 0: none. */
static ALWAYS_INLINE uint32_t holding_depth(const uint64_t *ids, uint32_t depth, uint64_t scope) {
    if (!scope) return 0;
    while (depth > 0 && (ids[depth] & SCOPE_MASK) > scope) depth--;
    return depth;
}

/* Looks for p in this thread's own table; removes and credits it. True when found fresh. */
static ALWAYS_INLINE bool untrack_own(void *p, size_t usable) {
    table *t = tls.table;
    settle_live(t);
    bool found = false;
    int64_t i = t->live ? find(t, (uintptr_t)p) : -1;
    if (i >= 0) {
        entry e = t->entries[i];
        own_remove_at(t, (uint64_t)i);
        found = fresh_entry(&e, usable);
        uint32_t j = found ? holding_depth(tls.stack, tls.depth, e.tag & SCOPE_MASK) : 0;
        if (j) {
            if (j == tls.depth) {
                own_freed_peak(e.requested); /* (its requested bytes: see top_reclaimed_usable) */
                tls.top_reclaimed_usable += e.usable;
                tls.top_temporaries += 1;
                /* Counted there, as the fast free counts it: not in n too (see
                 * thread_state.counted_temporaries; the caller counted the free). */
                tls.n.c.frees -= 1;
                tls.n.c.freed_usable -= e.usable;
            } else {
                peaks_outer_freed(j, e.requested); /* (its requested bytes: see top_reclaimed_usable) */
                tls.reclaimed_usable[j] += e.usable;
                tls.temporaries[j] += 1;
            }
            tls.general_reclaimed_requested[j] += e.requested;
            tls.general_reclaimed_usable[j] += e.usable;
        }
        if (found) credit_freer(&tls.n, false, &e, true, usable);
    }
    open_room(t);
    return found;
}

void *track_slow(void *p, size_t requested, size_t usable) {
    table *t = tls.table;
    tls.room += 1;
    settle_live(t);
    /* Frees give no room back, so a table kept near half full by steady churn would open
     * only a little room each time and send many inserts this way: past 3/8 full it
     * doubles here, which leaves at least 5/16 of it to the fast insert. */
    if (has_entries(t) && (t->live + 1) * 8 > (t->mask + 1) * 3) rebuild(t, (t->mask + 1) * 2);
    own_insert(t, (uintptr_t)p, requested, usable, tls.scope_id & SCOPE_MASK);
    /* Published and with entries now, unless mmap failed: the fast insert may take over. */
    open_room(t);
    return p;
}

/* ---- foreign frees ----
 * A thread freeing a block another thread tracked finds the entry under that table's lock
 * (which keeps the table from growing or being purged meanwhile), reading it inside a
 * sequence-count check (the owner moves entries without the lock). It credits the free and
 * marks the entry dead with a compare-and-swap on its address; if the owner may have moved
 * entries meanwhile, it looks again for an unmarked copy. The block is then freed at once.
 * A dead entry matches no address, so a reused address is never taken for it; the owner
 * sheds dead entries when a region opens or closes, or its table grows. A table whose
 * thread has exited is changed directly, under its lock. */

/* Looks for p in other threads' tables; credits and marks its entry when found. The
 * freeing thread's share goes to `n` (its own counters, or the retired totals). */
static SLOW void foreign_free(void *p, size_t usable, counters *n, bool shared) {
    uintptr_t a = (uintptr_t)p;
    /* Only the words of the bitmap that claimed tables can reach: usually one. */
    uint32_t words = (atomic_load_explicit(&tables_high_water, memory_order_acquire) + 63) / 64;
    for (uint32_t w = 0; w < words; w++) {
        uint64_t bits = atomic_load_explicit(&published_tables[w], memory_order_acquire);
        while (bits) {
            uint32_t index = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            table *t = &tables[index];
            if (t == tls.table) continue;
            spin_lock(&t->lock);
            if (!has_entries(t)) { spin_unlock(&t->lock); continue; }
            entry e = { 0, 0, 0, 0 };
            int64_t i;
            uint64_t seq;
            do {
                seq = even_seq(t);
                i = find(t, a);
                if (i >= 0) e = t->entries[i];
                atomic_thread_fence(memory_order_acquire);
            } while (atomic_load_explicit(&t->seq, memory_order_relaxed) != seq);
            if (i < 0 || e.address != a) { spin_unlock(&t->lock); continue; }
            bool fresh = fresh_entry(&e, usable);
            if (!t->owned) {
                own_remove_at(t, (uint64_t)i); /* nobody else changes it: we hold the lock */
            } else {
                /* Mark it dead; if entries moved meanwhile, an unmarked copy may remain: again. */
                for (;;) {
                    uintptr_t expected = a;
                    bool marked = atomic_compare_exchange_strong((_Atomic uintptr_t *)&t->entries[i].address, &expected, a | 1);
                    if (marked && atomic_load_explicit(&t->seq, memory_order_seq_cst) == seq) break;
                    seq = even_seq(t);
                    i = find(t, a);
                    if (i < 0) break; /* no unmarked copy: the mark holds */
                }
                atomic_fetch_add_explicit(&t->dead, 1, memory_order_relaxed);
            }
            uint32_t j = fresh ? holding_depth(t->open_ids, t->depth, e.tag & SCOPE_MASK) : 0;
            if (j) {
                t->foreign_reclaimed_requested[j] += e.requested;
                t->foreign_reclaimed_usable[j] += e.usable;
            }
            spin_unlock(&t->lock);
            /* A stale entry is dropped uncredited and the search goes on. */
            if (fresh) {
                credit_freer(n, shared, &e, j == 0, usable);
                return;
            }
        }
    }
}

void account_free(void *p, size_t usable, uint8_t state) {
    bool shared = state == STATE_EXITED;
    counters *n = shared ? &retired : &tls.n;
    ADD(n, shared, c.frees, 1);
    ADD(n, shared, c.freed_usable, usable);
    if (UNLIKELY(meters_on)) meter_freed(p);
    if (UNLIKELY(profctl_sites_on) && !shared) profctl_sites_free(p, usable, tls.scope_id);
    if (untrack_own(p, usable)) return;
    if (atomic_load_explicit(&published_count, memory_order_relaxed) > tls.published) foreign_free(p, usable, n, shared);
}

void account_tracked_free(void *p, size_t usable) {
    if (!untrack_own(p, usable) && atomic_load_explicit(&published_count, memory_order_relaxed) != tls.published) {
        tls.state = STATE_BUSY;
        foreign_free(p, usable, &tls.n, false);
        tls.state = STATE_READY;
    }
}

void account_allocation_general(void *p, size_t requested, size_t usable) {
    if (!p || !enter()) return;
    uint8_t state = tls.state;
    tls.state = STATE_BUSY;
    if (state == STATE_EXITED) {
        __atomic_fetch_add(&retired.allocations, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&retired.requested, requested, __ATOMIC_RELAXED);
        __atomic_fetch_add(&retired.usable, usable, __ATOMIC_RELAXED);
    } else {
        /* In a region (tracking), the region's size classes count it: track_own. */
        bool in_region = tls.tracking;
        if (!in_region) {
            tls.n.allocations += 1;
            tls.n.requested += requested;
            tls.n.usable += usable;
        }
        if (UNLIKELY(meters_on) && !tls.excluded_depth) meter_allocated(p, requested, usable);
        uint64_t window = atomic_load_explicit(&hot.window, memory_order_relaxed);
        if (in_region || (window && !tls.excluded_depth && tls.table != &no_table)) {
            if (UNLIKELY(profctl_sites_on) && tls.depth) profctl_sites_alloc(p, requested, usable, 0, NULL, tls.scope_id);
            track_own(p, requested, usable, window);
        }
    }
    tls.state = state;
}
