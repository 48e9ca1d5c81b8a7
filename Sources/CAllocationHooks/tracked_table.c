/*
 * The tables of tracked blocks, one per thread slot: their storage and the owner's
 * out-of-line operations (publishing, growing, shedding dead entries). The inline half
 * (finding, inserting, removing) is in hooks_internal.h, for the paths that need it inline.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"

#include <sys/mman.h>

entry empty_entries[2] = { { 0, 0, 0, 0 }, { SENTINEL, 0, 0, 0 } };
table tables[PROFCTL_MAX_THREADS];
table no_table = { .entries = empty_entries };
_Atomic uint32_t tables_high_water;
_Atomic uint64_t published_tables[PROFCTL_MAX_THREADS / 64];
_Atomic uint32_t published_count;

void publish(table *t) {
    uint32_t index = (uint32_t)(t - tables);
    spin_lock(&t->lock);
    if (!t->published) {
        t->published = true;
        atomic_fetch_or(&published_tables[index / 64], 1ull << (index % 64));
        atomic_fetch_add(&published_count, 1);
    }
    spin_unlock(&t->lock);
    tls.published = 1;
}

void unpublish_locked(table *t) {
    uint32_t index = (uint32_t)(t - tables);
    if (!t->published) return;
    t->published = false;
    atomic_fetch_and(&published_tables[index / 64], ~(1ull << (index % 64)));
    atomic_fetch_sub(&published_count, 1);
    tls.published = 0;
}

static void insert_into(entry *es, uint64_t mask, const entry *e) {
    uint64_t i = (uint64_t)(e->address >> 4) & mask;
    while (es[i].address != 0) i = (i + 1) & mask;
    es[i] = *e;
}

/* Under the lock: readers on other threads hold it while they look. The owner's call. */
bool rebuild(table *t, uint64_t capacity) {
    /* Populated up front: the copy below reads a slot before it writes it, so an unpopulated
     * page would be mapped to the zero page on the read and faulted again on the write, and
     * that second fault flushes the TLB on every CPU running this process (an IPI to the
     * recorder's writer thread per page: 5 % of a recording's samples under perf). */
    entry *fresh = mmap(NULL, (capacity + 1) * sizeof(entry), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (fresh == MAP_FAILED) return false;
    fresh[capacity].address = SENTINEL;
    spin_lock(&t->lock);
    entry *old = has_entries(t) ? t->entries : NULL;
    uint64_t old_capacity = old ? t->mask + 1 : 0, live = 0;
    for (uint64_t i = 0; i < old_capacity; i++) {
        if (old[i].address && !(old[i].address & 1)) {
            insert_into(fresh, capacity - 1, &old[i]);
            live++;
        }
    }
    t->entries = fresh;
    t->mask = capacity - 1;
    t->byte_mask = (capacity - 1) * sizeof(entry);
    t->live = live;
    atomic_store_explicit(&t->dead, 0, memory_order_relaxed);
    spin_unlock(&t->lock);
    if (t == tls.table) use_table(t); /* the owner's table (always, in fact): its copies follow */
    if (old) munmap(old, (old_capacity + 1) * sizeof(entry));
    return true;
}

bool make_room(table *t) {
    uint64_t dead = atomic_load_explicit(&t->dead, memory_order_relaxed);
    uint64_t capacity = has_entries(t) ? t->mask + 1 : 512;
    while ((t->live - dead + 1) * 2 > capacity) capacity *= 2;
    if (capacity < 1024) capacity = 1024;
    return rebuild(t, capacity);
}

void purge(table *t) {
    if (atomic_load_explicit(&t->dead, memory_order_relaxed) && has_entries(t)) rebuild(t, t->mask + 1);
}
