/*
 * The fork handler (registered by platform_glibc.c at load).
 *
 * fork copies the calling thread alone: a lock another thread held at that moment would
 * stay held in the child for good, and the child's next thread to join (the registry's
 * lock), free a block another thread tracked (a table's) or capture a site (sites.c's)
 * would spin on it for ever. So the forking thread takes them all first, which also waits
 * out whatever they guard being half changed, and releases them on both sides. No path
 * holds one of these locks while taking another (join and thread_exiting take a table's
 * and the registry's one after the other), so taking them all in this order cannot
 * deadlock. Tables claimed from tables_high_water up were being joined when it was read:
 * join only sets plain fields under their lock, so the child simply releases theirs.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "sites.h"

static uint32_t fork_locked_tables;

void fork_prepare(void) {
    spin_lock(&registry_lock);
    uint32_t high = atomic_load(&tables_high_water);
    for (uint32_t i = 0; i < high; i++) spin_lock(&tables[i].lock);
    fork_locked_tables = high;
    profctl_sites_fork_prepare();
    meters_fork_prepare();
}

void fork_parent(void) {
    meters_fork_done();
    profctl_sites_fork_done();
    for (uint32_t i = fork_locked_tables; i > 0; i--) spin_unlock(&tables[i - 1].lock);
    spin_unlock(&registry_lock);
}

/* The child, the forking thread its only one. The others' TLS blocks lie in their stacks,
 * which glibc hands to its stack cache in the child and unmaps when it trims the cache (at
 * the child's next new threads): they leave the registry now, as exiting threads do, their
 * counters folded into the retired totals and their tables left to others, so that no sum
 * reads a block that is gone. */
void fork_child(void) {
    fork_parent();
    for (uint32_t i = fork_locked_tables; i < PROFCTL_MAX_THREADS && atomic_load(&tables[i].claimed); i++) {
        spin_unlock(&tables[i].lock);
    }
    for (uint32_t i = 0; i < registry_high; i++) {
        thread_state *s = registry[i];
        if (!s || s == &tls) continue;
        table *t = s->table;
        if (t && t != &no_table) {
            settle_live_of(s, t);
            t->owned = false;
            t->depth = 0;
            atomic_store(&t->claimed, 0);
        }
        const uint64_t *from = &s->n.allocations;
        uint64_t *to = &retired.allocations;
        for (size_t k = 0; k < COUNTERS; k++) to[k] += from[k];
        add_unfolded(&retired, unfolded_counts(s)); /* what its open region counted */
        registry[i] = NULL;
        atomic_fetch_add(&threads_exited, 1);
    }
}
