/*
 * The window: a measured stretch of the whole process's work. While it is open every
 * thread takes the general path (update_fast turns `fast` off), which tracks and counts
 * every allocation with the window's epoch; its figures are the sums over every thread
 * (registry.c) at its close less those at its opening. One window at a time.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"

#include <string.h>

static _Atomic uint64_t next_window_epoch = 1;
static _Atomic int window_open;

int profctl_window_begin(profctl_window *w) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&window_open, &expected, 1)) return -1;
    enter_always();
    uint64_t epoch;
    do { epoch = atomic_fetch_add(&next_window_epoch, 1) & WINDOW_MASK; } while (epoch == 0);
    w->epoch = epoch;
    counters now;
    sum_counters(&now);
    w->start = now.c;
    peaks_window_opening();
    atomic_store(&hot.window, epoch);
    update_fast();
    return 0;
}

void profctl_window_end(profctl_window *w, profctl_region_result *out) {
    memset(out, 0, sizeof *out);
    out->scope_id = w->epoch;
    if (atomic_load(&hot.window) != w->epoch) return;
    atomic_store(&hot.window, 0);
    update_fast();
    out->peak_requested_bytes = peaks_window_closing();
    counters sum;
    sum_counters(&sum);
    const profctl_snapshot now = sum.c, *then = &w->start;
    out->allocations = minus(now.attributed_allocations, then->attributed_allocations);
    out->requested_bytes = minus(now.attributed_requested, then->attributed_requested);
    out->usable_bytes = minus(now.attributed_usable, then->attributed_usable);
    out->frees = minus(now.frees, then->frees);
    out->retains = minus(now.retains, then->retains);
    out->releases = minus(now.releases, then->releases);
    out->retained_requested_bytes = minus(out->requested_bytes, minus(now.window_reclaimed_requested, then->window_reclaimed_requested));
    out->retained_usable_bytes = minus(out->usable_bytes, minus(now.window_reclaimed_usable, then->window_reclaimed_usable));
    out->released_requested_bytes = minus(now.window_released_requested, then->window_released_requested);
    out->released_usable_bytes = minus(now.window_released_usable, then->window_released_usable);
    out->untracked_freed_usable_bytes = minus(minus(now.freed_usable, then->freed_usable),
                                              minus(now.tracked_freed_usable, then->tracked_freed_usable));
    atomic_store(&window_open, 0);
}

int profctl_window_is_open(void) { return atomic_load(&window_open); }
