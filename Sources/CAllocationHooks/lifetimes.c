/*
 * Lifetimes and size classes (include/allocation_lifetimes.h): the figures of each open
 * region, by depth, in storage kept per table slot (so a thread reusing an exited thread's
 * slot reuses its storage, and no thread's exit loses or leaks any). Mapped with mmap on a
 * slot's first region, never with malloc. Only the slot's owner thread touches it.
 */
#define _GNU_SOURCE
#include "lifetimes.h"
#include "allocation_hooks.h"

#include <malloc.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>

#define SLOTS 4096 /* hooks_glibc.c's PROFCTL_MAX_THREADS */
#define DEPTHS (PROFCTL_MAX_REGION_DEPTH + 1)

static _Atomic(profctl_lifetimes *) storage[SLOTS];
/* Where figures go when a slot's storage cannot be mapped: written, never read (racy, and
 * nothing depends on it). profctl_region_lifetimes_add refuses it by its scope id 0. */
static profctl_lifetimes discarded;

profctl_lifetimes *lifetimes_at(uint32_t slot, uint32_t depth) {
    if (slot >= SLOTS || depth >= DEPTHS) return &discarded;
    profctl_lifetimes *s = atomic_load_explicit(&storage[slot], memory_order_relaxed);
    if (!s) {
        void *m = mmap(NULL, DEPTHS * sizeof(profctl_lifetimes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return &discarded;
        s = m;
        atomic_store_explicit(&storage[slot], s, memory_order_relaxed);
    }
    return &s[depth];
}

/* Zeroes the classes in use, not all 64. */
static void clear(profctl_lifetimes *b) {
    uint64_t used = b->used_classes;
    while (used) {
        unsigned c = (unsigned)__builtin_ctzll(used);
        used &= used - 1;
        memset(&b->classes[c], 0, sizeof b->classes[c]);
    }
    b->used_classes = 0;
    b->temporaries = 0;
    b->temporary_requested_bytes = 0;
}

/* Adds b's figures to into's. */
static void add(const profctl_lifetimes *b, profctl_lifetimes *into) {
    uint64_t used = b->used_classes;
    into->used_classes |= used;
    while (used) {
        unsigned c = (unsigned)__builtin_ctzll(used);
        used &= used - 1;
        into->classes[c].allocations += b->classes[c].allocations;
        into->classes[c].requested_bytes += b->classes[c].requested_bytes;
        into->classes[c].usable_bytes += b->classes[c].usable_bytes;
    }
    into->temporaries += b->temporaries;
    into->temporary_requested_bytes += b->temporary_requested_bytes;
}

profctl_lifetimes *lifetimes_open(uint32_t slot, uint32_t depth, uint64_t scope_id) {
    profctl_lifetimes *b = lifetimes_at(slot, depth);
    if (b == &discarded) return b;
    clear(b);
    b->scope_id = scope_id;
    return b;
}

profctl_lifetimes *lifetimes_close(uint32_t slot, uint32_t depth) {
    profctl_lifetimes *b = lifetimes_at(slot, depth), *parent = lifetimes_at(slot, depth - 1);
    /* Depth 0 is outside any region: nobody reads it, so nothing is added there. */
    if (depth > 1 && b != &discarded && parent != &discarded) add(b, parent);
    return parent;
}

int profctl_region_lifetimes_add(uint64_t scope_id, profctl_lifetimes *into) {
    uint32_t slot, depth;
    if (!scope_id || !lifetimes_thread_position(&slot, &depth) || depth + 1 >= DEPTHS) return -1;
    profctl_lifetimes *s = atomic_load_explicit(&storage[slot], memory_order_relaxed);
    if (!s || s[depth + 1].scope_id != scope_id) return -1;
    add(&s[depth + 1], into);
    return 0;
}

size_t profctl_malloc_usable_size(void *pointer) { return malloc_usable_size(pointer); }
