/*
 * Regions (a measured stretch of one thread's work) and exclusion (the recorder's own
 * stretches, never attributed). A region's figures are what its thread counted while it
 * was open, less the excluded stretches, with the frees credited to it by the fast path,
 * the general path (accounting.c) and other threads (the table's foreign_reclaimed_*).
 */
#define _GNU_SOURCE
#include "hooks_internal.h"

#include <string.h>

static _Atomic uint64_t next_scope_id = 1;

static void update_tracking(void) { tls.tracking = tls.depth > 0 && tls.excluded_depth == 0 && tls.table != &no_table; }

/* This thread's counters as a region reads them. Inside a region every allocation counted
 * outside an excluded stretch is attributed (tracked), so a region's attributed figures are
 * everything counted less what was counted while excluded: the fast insert keeps no
 * attributed counters of its own. (The attributed_* fields proper are the window's.) */
static profctl_snapshot region_counters(void) {
    profctl_snapshot c = tls.n.c;
    uint64_t allocations = tls.excluded_allocations, requested = tls.excluded_requested, usable = tls.excluded_usable;
    if (tls.excluded_depth) {
        allocations += tls.n.allocations - tls.excluded_since_allocations;
        requested += tls.n.requested - tls.excluded_since_requested;
        usable += tls.n.usable - tls.excluded_since_usable;
    }
    c.attributed_allocations = tls.n.allocations - allocations;
    c.attributed_requested = tls.n.requested - requested;
    c.attributed_usable = tls.n.usable - usable;
    return c;
}

/* Folds what the innermost region's size classes and own temporaries counted since the
 * last fold into the thread's counters (see thread_state.counted), before a region opens or
 * closes. Returns the classes' sums. Those allocations were made before any exclusion now
 * open (none are tracked while excluded), so the open stretch's start moves up with them. */
static void fold_counted(uint64_t sums[3]) {
    lifetimes_sums(tls.life, sums);
    uint64_t *n = &tls.n.allocations, *since = &tls.excluded_since_allocations;
    for (int i = 0; i < 3; i++) {
        uint64_t more = sums[i] - tls.counted[i];
        n[i] += more;
        if (tls.excluded_depth) since[i] += more;
        tls.counted[i] = sums[i];
    }
    tls.n.c.frees += tls.top_temporaries - tls.counted_temporaries;
    tls.n.c.freed_usable += tls.top_reclaimed_usable - tls.counted_reclaimed_usable;
    tls.counted_temporaries = tls.top_temporaries;
    tls.counted_reclaimed_usable = tls.top_reclaimed_usable;
}

int profctl_region_begin(profctl_region *r) {
    if (!enter_always()) return -1;
    if (tls.state != STATE_READY || tls.table == &no_table) return -1;
    if (tls.depth >= MAX_DEPTH) return -2;
    tls.state = STATE_BUSY;
    table *t = tls.table;
    settle_live(t);
    purge(t);
    /* Ids fit the entries' scope bits, so the fast paths store and compare them unmasked. */
    uint64_t id;
    do { id = atomic_fetch_add(&next_scope_id, 1) & SCOPE_MASK; } while (id == 0);
    uint32_t k = tls.depth + 1;
    lifetimes_block *life = lifetimes_open((uint32_t)(t - tables), k, id);
    if (!lifetimes_kept(life)) { /* no storage for its size classes, which count its allocations */
        open_room(t);
        tls.state = STATE_READY;
        return -1;
    }
    if (k > 1) fold_counted(tls.counted_below[k - 1]);
    tls.counted[0] = tls.counted[1] = tls.counted[2] = 0;
    peaks_region_opening();
    r->parent_scope_id = tls.scope_id;
    r->scope_id = id;
    r->slot = (uint32_t)(t - tables);
    r->depth = k;
    tls.stack[k] = id;
    /* The region below keeps its own bytes in the stack while this one is on top. */
    tls.reclaimed_usable[k - 1] = tls.top_reclaimed_usable;
    tls.temporaries[k - 1] = tls.top_temporaries;
    tls.top_reclaimed_usable = tls.top_temporaries = 0;
    tls.counted_temporaries = tls.counted_reclaimed_usable = 0;
    tls.general_reclaimed_requested[k] = 0;
    tls.general_reclaimed_usable[k] = 0;
    spin_lock(&t->lock);
    t->open_ids[k] = id;
    t->foreign_reclaimed_requested[k] = 0;
    t->foreign_reclaimed_usable[k] = 0;
    t->depth = k;
    spin_unlock(&t->lock);
    tls.depth = k;
    tls.scope_id = id;
    tls.life = life;
    update_tracking();
    open_room(t);
    r->start = region_counters();
    tls.state = STATE_READY;
    return 0;
}

void profctl_region_end(profctl_region *r, profctl_region_result *out) {
    memset(out, 0, sizeof *out);
    out->scope_id = r->scope_id;
    /* Only the region on top of this thread's stack can close. */
    if (tls.state != STATE_READY || tls.table == &no_table || r->slot != (uint32_t)(tls.table - tables) ||
        r->depth != tls.depth || tls.depth == 0 || tls.stack[r->depth] != r->scope_id) return;
    tls.state = STATE_BUSY;
    table *t = tls.table;
    settle_live(t);
    purge(t);
    uint32_t k = r->depth;
    uint64_t sums[3];
    fold_counted(sums);
    /* Its own blocks freed on this thread (fast and general), and the general path's share.
     * Their requested bytes: what it allocated (its classes, its closed inner regions'
     * included) less what of it is live (peaks.c keeps top_live to the byte, in step with
     * the classes: both count every tracked allocation, and it falls by each of its own
     * blocks freed on this thread, as the region's figures credit them). */
    uint64_t own_requested = sums[1] - tls.top_live, own_usable = tls.top_reclaimed_usable;
    out->peak_requested_bytes = peaks_region_closing();
    uint64_t own_temporaries = tls.top_temporaries;
    tls.top_temporaries = k > 1 ? tls.temporaries[k - 1] + own_temporaries : 0;
    uint64_t general_requested = tls.general_reclaimed_requested[k], general_usable = tls.general_reclaimed_usable[k];
    tls.top_reclaimed_usable = k > 1 ? tls.reclaimed_usable[k - 1] + own_usable : 0;
    /* All of it in n now: the parent's share folded when this region opened, or counted by
     * the general path (outer regions' blocks), this region's folded above. */
    tls.counted_temporaries = tls.top_temporaries;
    tls.counted_reclaimed_usable = tls.top_reclaimed_usable;
    tls.general_reclaimed_requested[k - 1] = k > 1 ? tls.general_reclaimed_requested[k - 1] + general_requested : 0;
    tls.general_reclaimed_usable[k - 1] = k > 1 ? tls.general_reclaimed_usable[k - 1] + general_usable : 0;
    spin_lock(&t->lock);
    uint64_t foreign_requested = t->foreign_reclaimed_requested[k], foreign_usable = t->foreign_reclaimed_usable[k];
    t->foreign_reclaimed_requested[k - 1] += foreign_requested;
    t->foreign_reclaimed_usable[k - 1] += foreign_usable;
    t->depth = k - 1;
    if (t->live == 0 && k == 1) unpublish_locked(t);
    spin_unlock(&t->lock);
    tls.depth = k - 1;
    tls.scope_id = r->parent_scope_id;
    /* A region's temporaries are its own blocks freed on its thread while it was open,
     * its closed inner regions' included: what it reclaimed, counted beside those bytes. */
    tls.life = lifetimes_close(r->slot, k, own_temporaries, own_requested);
    /* Its classes are now in the parent's, and in n already. */
    for (int i = 0; i < 3; i++) tls.counted[i] = k > 1 ? tls.counted_below[k - 1][i] + sums[i] : 0;
    update_tracking();
    open_room(t);

    const profctl_snapshot now = region_counters(), *then = &r->start;
    out->allocations = minus(now.attributed_allocations, then->attributed_allocations);
    out->requested_bytes = minus(now.attributed_requested, then->attributed_requested);
    out->usable_bytes = minus(now.attributed_usable, then->attributed_usable);
    out->frees = minus(now.frees, then->frees);
    out->retains = minus(now.retains, then->retains);
    out->releases = minus(now.releases, then->releases);
    out->retained_requested_bytes = minus(out->requested_bytes, own_requested + foreign_requested);
    out->retained_usable_bytes = minus(out->usable_bytes, own_usable + foreign_usable);
    /* Tracked frees on this thread that no allocating region still holds, less this
     * region's own blocks: what it released of earlier work. The fast free credits neither
     * (its blocks are always the innermost region's own), so the general path's alone. */
    out->released_requested_bytes = minus(minus(now.releasable_requested, then->releasable_requested), general_requested);
    out->released_usable_bytes = minus(minus(now.releasable_usable, then->releasable_usable), general_usable);
    /* Tracked frees: the general path's, counted, and the fast free's, all this region's own. */
    uint64_t tracked_freed = (now.tracked_freed_usable - then->tracked_freed_usable) + minus(own_usable, general_usable);
    out->untracked_freed_usable_bytes = minus(minus(now.freed_usable, then->freed_usable), tracked_freed);
    tls.state = STATE_READY;
}

uint64_t profctl_current_scope(void) { return tls.scope_id; }

/* The lifetimes of this thread's most recently closed region at the depth above its open
 * ones: lifetimes.c keeps them by table slot and depth. */
int profctl_region_lifetimes_add(uint64_t scope_id, profctl_lifetimes *into) {
    if (tls.table == &no_table || tls.state == STATE_NEW) return -1;
    return lifetimes_add((uint32_t)(tls.table - tables), tls.depth + 1, scope_id, into);
}

void profctl_exclusion_begin(void) {
    if (tls.excluded_depth++ == 0) {
        tls.excluded_since_allocations = tls.n.allocations;
        tls.excluded_since_requested = tls.n.requested;
        tls.excluded_since_usable = tls.n.usable;
    }
    update_tracking();
}

void profctl_exclusion_end(void) {
    if (tls.excluded_depth > 0 && --tls.excluded_depth == 0) {
        tls.excluded_allocations += tls.n.allocations - tls.excluded_since_allocations;
        tls.excluded_requested += tls.n.requested - tls.excluded_since_requested;
        tls.excluded_usable += tls.n.usable - tls.excluded_since_usable;
    }
    update_tracking();
}
