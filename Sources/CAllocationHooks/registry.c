/*
 * The registry of threads: each thread's state (its TLS block), joining on its first call
 * and claiming a table, leaving when it exits (its counters folded into the retired
 * totals), and the process-wide sums over every thread.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"

#include <pthread.h>
#include <string.h>

TLS thread_state tls;
counters retired;
atomic_flag registry_lock = ATOMIC_FLAG_INIT;
static _Atomic uint64_t threads_seen;
_Atomic uint64_t threads_exited;

/* Live threads, under registry_lock: an array of pointers, not a list linked through the
 * threads' TLS. A thread that first calls the hooks after its TLS destructors ran (from the
 * last round of pthread key destructors, or libc's own thread cleanup) is never unregistered,
 * since its exit key's destructor cannot run any more; a new thread reusing its TLS block (the
 * stack cache) sits at the same address. Links stored in that block would be overwritten by
 * the new thread's zeroed TLS and the list would loop or lose live threads; an array entry is
 * just found again and reused (see join). PROFCTL_MAX_THREADS live threads at most: beyond
 * that a thread counts straight into the retired totals, as an exited one does. */
thread_state *registry[PROFCTL_MAX_THREADS];
uint32_t registry_high;

static pthread_key_t exit_key;
static _Atomic int exit_key_state; /* 0 none, 1 creating, 2 ready, 3 failed */

static _Atomic int hooks_seen_call;

static void thread_exiting(void *value) {
    (void)value;
    uint8_t state = tls.state;
    tls.state = STATE_BUSY;
    if (state != STATE_NEW && state != STATE_EXITED) {
        table *t = tls.table;
        if (t != &no_table) {
            settle_live(t);
            spin_lock(&t->lock);
            t->owned = false; /* from now on other threads remove its entries themselves */
            t->depth = 0;
            spin_unlock(&t->lock);
            atomic_store(&t->claimed, 0);
        }
        /* A region left open: what its classes and temporaries counted. */
        unfolded u = unfolded_counts(&tls);
        add_unfolded(&tls.n, u);
        tls.depth = 0; /* (so that a sum meanwhile does not add them twice) */
        uint64_t *from = &tls.n.allocations, *to = &retired.allocations;
        spin_lock(&registry_lock);
        for (size_t i = 0; i < COUNTERS; i++) __atomic_fetch_add(&to[i], from[i], __ATOMIC_RELAXED);
        if (tls.registry_slot < registry_high && registry[tls.registry_slot] == &tls) registry[tls.registry_slot] = NULL;
        spin_unlock(&registry_lock);
        atomic_fetch_add(&threads_exited, 1);
    }
    use_table(&no_table);
    tls.room = tls.room_synced = 0;
    tls.tracking = 0;
    tls.depth = 0;
    tls.scope_id = 0;
    /* Allocations after this point (other TLS destructors) count in the retired totals. */
    tls.state = STATE_EXITED;
}

static void ensure_exit_key(void) {
    if (atomic_load(&exit_key_state) == 2) return;
    int expected = 0;
    if (atomic_compare_exchange_strong(&exit_key_state, &expected, 1)) {
        if (pthread_key_create(&exit_key, thread_exiting) == 0) atomic_store(&exit_key_state, 2);
        else atomic_store(&exit_key_state, 3);
        return;
    }
    while (atomic_load(&exit_key_state) == 1) { }
}

bool join(void) {
    atomic_fetch_add(&threads_seen, 1);
    use_table(&no_table);
    tls.room = tls.room_synced = 0;
    /* Our own address already listed is a thread that exited unregistered whose TLS block
     * this thread reuses (see registry): its counts went with the block; take its slot. */
    uint32_t slot = PROFCTL_MAX_THREADS, free_slot = PROFCTL_MAX_THREADS;
    spin_lock(&registry_lock);
    for (uint32_t i = 0; i < registry_high && slot == PROFCTL_MAX_THREADS; i++) {
        if (registry[i] == &tls) slot = i;
        else if (!registry[i] && free_slot == PROFCTL_MAX_THREADS) free_slot = i;
    }
    if (slot == PROFCTL_MAX_THREADS) slot = free_slot;
    if (slot == PROFCTL_MAX_THREADS && registry_high < PROFCTL_MAX_THREADS) slot = registry_high++;
    if (slot < PROFCTL_MAX_THREADS) registry[slot] = &tls;
    tls.registry_slot = slot;
    spin_unlock(&registry_lock);
    if (slot == PROFCTL_MAX_THREADS) return false;
    for (uint32_t i = 1; i < PROFCTL_MAX_THREADS; i++) {
        int expected = 0;
        if (atomic_load_explicit(&tables[i].claimed, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong(&tables[i].claimed, &expected, 1)) {
            /* A table left by an exited thread is inherited with its entries: their
             * regions are closed, so they only ever count as released. */
            spin_lock(&tables[i].lock);
            tables[i].owned = true;
            tables[i].depth = 0;
            if (!tables[i].entries) tables[i].entries = empty_entries;
            tls.published = tables[i].published;
            spin_unlock(&tables[i].lock);
            use_table(&tables[i]);
            uint32_t high = atomic_load(&tables_high_water);
            while (high < i + 1 && !atomic_compare_exchange_weak(&tables_high_water, &high, i + 1)) { }
            break;
        }
    }
    ensure_exit_key();
    /* The key's value only has to be non-NULL for the destructor to run. */
    if (atomic_load(&exit_key_state) == 2) pthread_setspecific(exit_key, (void *)1);
    return true;
}

/* ---- process-wide sums ---- */

void sum_counters(counters *out) {
    uint64_t *sum = &out->allocations;
    memset(out, 0, sizeof *out);
    spin_lock(&registry_lock);
    for (size_t k = 0; k < COUNTERS; k++) sum[k] = __atomic_load_n(&(&retired.allocations)[k], __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < registry_high; i++) {
        if (!registry[i]) continue;
        const uint64_t *from = &registry[i]->n.allocations;
        for (size_t k = 0; k < COUNTERS; k++) sum[k] += peek(&from[k]);
        add_unfolded(out, unfolded_counts(registry[i])); /* what its open region counted */
    }
    spin_unlock(&registry_lock);
}

void profctl_hooks_totals(profctl_totals *t) {
    counters sum;
    sum_counters(&sum);
    memset(t, 0, sizeof *t);
    t->allocations = sum.allocations;
    t->requested_bytes = sum.requested;
    t->usable_bytes = sum.usable;
    t->frees = sum.c.frees;
    t->freed_usable_bytes = sum.c.freed_usable;
    uint32_t high = atomic_load(&tables_high_water);
    int64_t live = 0;
    for (uint32_t i = 0; i < high; i++) {
        live += (int64_t)(peek(&tables[i].live) - atomic_load_explicit(&tables[i].dead, memory_order_relaxed));
    }
    /* What live threads' fast paths did since they last settled (inserts, less frees). */
    spin_lock(&registry_lock);
    for (uint32_t i = 0; i < registry_high; i++) {
        if (!registry[i]) continue;
        live += (int64_t)(peek(&registry[i]->room_synced) - peek(&registry[i]->room));
        live -= (int64_t)(peek(&registry[i]->top_temporaries) - peek(&registry[i]->temporaries_synced));
    }
    spin_unlock(&registry_lock);
    t->tracked_live_blocks = live > 0 ? (uint64_t)live : 0;
    t->threads_seen = atomic_load(&threads_seen);
    t->threads_exited = atomic_load(&threads_exited);
}

int profctl_hooks_active(void) {
    if (atomic_load_explicit(&hooks_seen_call, memory_order_relaxed)) return 1;
    profctl_totals t;
    profctl_hooks_totals(&t);
    if (t.allocations == 0) return 0;
    atomic_store(&hooks_seen_call, 1);
    return 1;
}
