/*
 * Lifetimes and size classes (include/allocation_lifetimes.h): the figures of each open
 * region, by depth, in storage kept per table slot (so a thread reusing an exited thread's
 * slot reuses its storage, and no thread's exit loses or leaks any). Mapped with mmap on a
 * slot's first region, never with malloc. Only the slot's owner thread touches it.
 */
#define _GNU_SOURCE
#include "lifetimes.h"

#include <string.h>
#include <sys/mman.h>

#define SLOTS PROFCTL_MAX_THREADS /* one per table slot */
#define DEPTHS (PROFCTL_MAX_REGION_DEPTH + 1)

static _Atomic(lifetimes_block *) storage[SLOTS];
/* Where figures go when a slot's storage cannot be mapped: written, never read (racy, and
 * nothing depends on it). profctl_region_lifetimes_add refuses it by its scope id 0. */
static lifetimes_block discarded;

lifetimes_block *lifetimes_at(uint32_t slot, uint32_t depth) {
    if (slot >= SLOTS || depth >= DEPTHS) return &discarded;
    lifetimes_block *s = atomic_load_explicit(&storage[slot], memory_order_relaxed);
    if (!s) {
        void *m = mmap(NULL, DEPTHS * sizeof(lifetimes_block), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return &discarded;
        s = m;
        atomic_store_explicit(&storage[slot], s, memory_order_relaxed);
    }
    return &s[depth];
}

/* The column class c is counted in (lifetimes_column_of_size): 63 - c where the CPU counts
 * leading zeros, c where it runs the same instruction as BSR. Asked of the CPU itself, with
 * size 1 (class 0): 63 ^ c is 63 - c for every class. */
static unsigned lifetimes_column(unsigned c) { return c ^ (unsigned)lifetimes_column_of_size(1); }

/* Zeroes the classes in use, not all 64. */
static void clear(lifetimes_block *b) {
    uint64_t used = b->used_classes;
    while (used) {
        unsigned c = lifetimes_column((unsigned)__builtin_ctzll(used));
        used &= used - 1;
        b->allocations[c] = b->requested_bytes[c] = b->usable_bytes[c] = 0;
    }
    b->used_classes = 0;
    b->temporaries = 0;
    b->temporary_requested_bytes = 0;
}

/* Adds b's size classes to into's. */
static void add_classes(const lifetimes_block *b, lifetimes_block *into) {
    uint64_t used = b->used_classes;
    into->used_classes |= used;
    while (used) {
        unsigned c = lifetimes_column((unsigned)__builtin_ctzll(used));
        used &= used - 1;
        into->allocations[c] += b->allocations[c];
        into->requested_bytes[c] += b->requested_bytes[c];
        into->usable_bytes[c] += b->usable_bytes[c];
    }
}

/* Adds b's figures to a caller's accumulator. */
static void add(const lifetimes_block *b, profctl_lifetimes *into) {
    uint64_t used = b->used_classes;
    into->used_classes |= used;
    while (used) {
        unsigned c = (unsigned)__builtin_ctzll(used);
        used &= used - 1;
        unsigned k = lifetimes_column(c);
        into->classes[c].allocations += b->allocations[k];
        into->classes[c].requested_bytes += b->requested_bytes[k];
        into->classes[c].usable_bytes += b->usable_bytes[k];
    }
    into->temporaries += b->temporaries;
    into->temporary_requested_bytes += b->temporary_requested_bytes;
}

void lifetimes_sums(const lifetimes_block *b, uint64_t sums[3]) {
    uint64_t used = peek(&b->used_classes);
    sums[0] = sums[1] = sums[2] = 0;
    while (used) {
        unsigned c = lifetimes_column((unsigned)__builtin_ctzll(used));
        used &= used - 1;
        sums[0] += peek(&b->allocations[c]);
        sums[1] += peek(&b->requested_bytes[c]);
        sums[2] += peek(&b->usable_bytes[c]);
    }
}

bool lifetimes_kept(const lifetimes_block *b) { return b != &discarded; }

lifetimes_block *lifetimes_open(uint32_t slot, uint32_t depth, uint64_t scope_id) {
    lifetimes_block *b = lifetimes_at(slot, depth);
    if (b == &discarded) return b;
    clear(b);
    b->scope_id = scope_id;
    return b;
}

lifetimes_block *lifetimes_close(uint32_t slot, uint32_t depth, uint64_t temporaries, uint64_t temporary_requested_bytes) {
    lifetimes_block *b = lifetimes_at(slot, depth), *parent = lifetimes_at(slot, depth - 1);
    if (b != &discarded) {
        b->temporaries = temporaries;
        b->temporary_requested_bytes = temporary_requested_bytes;
    }
    /* Depth 0 is outside any region: nobody reads it, so nothing is added there. */
    if (depth > 1 && b != &discarded && parent != &discarded) add_classes(b, parent);
    return parent;
}

int lifetimes_add(uint32_t slot, uint32_t depth, uint64_t scope_id, profctl_lifetimes *into) {
    if (!scope_id || slot >= SLOTS || depth >= DEPTHS) return -1;
    lifetimes_block *s = atomic_load_explicit(&storage[slot], memory_order_relaxed);
    if (!s || s[depth].scope_id != scope_id) return -1;
    add(&s[depth], into);
    return 0;
}
