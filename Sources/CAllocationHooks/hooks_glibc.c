/*
 * Allocation hooks for glibc/Linux: the malloc family defined in the executable, so the
 * dynamic linker binds every library's malloc (the Swift runtime's, Foundation's,
 * SQLite's) to these, and each forwards to glibc's exported __libc_* entry points.
 *
 * Rules this file keeps, because breaking them deadlocks or recurses inside malloc:
 *   - never call malloc; storage is static or comes from mmap;
 *   - no dlsym on the hot path (malloc_usable_size has no __libc_ alias: resolved once);
 *   - a thread-local reentrancy guard: a nested call (dlsym, pthread_setspecific) just
 *     forwards, uncounted.
 */
#define _GNU_SOURCE
#include "allocation_hooks.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

#define PROFCTL_MAX_THREADS 4096
#define TLS __attribute__((tls_model("initial-exec"))) _Thread_local

typedef _Atomic uint64_t counter;

/* One thread's counters. Only the owner thread writes them (plain loads and stores,
 * no locked instructions), except foreign_reclaimed_*, written by other threads that
 * free this thread's blocks, and everything in the shared slot 0. */
typedef struct slot {
    _Atomic int in_use;
    counter allocations, requested, usable;
    counter frees, freed_usable;
    counter attributed_allocations, attributed_requested, attributed_usable;
    counter reclaimed_requested, reclaimed_usable;             /* freed by the owner thread */
    counter foreign_reclaimed_requested, foreign_reclaimed_usable; /* freed by other threads */
    counter prior_freed_requested, prior_freed_usable, tracked_freed_usable;
    /* Epoch of the outermost open region, 0 when none: blocks freed while their region
     * is still open are "reclaimed" from it; later frees are not the region's business. */
    counter open_epoch;
} slot;

/* Slot 0 is shared by threads that have no slot of their own (exiting, or too many). */
static slot slots[PROFCTL_MAX_THREADS];
static slot retired; /* totals folded in from exited threads */
static counter threads_seen, threads_exited;
static counter next_scope_id = 1;

typedef struct thread_state {
    slot *slot;
    uint32_t slot_index;
    bool in_hook;
    bool exited;
    uint32_t excluded_depth;
    uint32_t region_depth;
    uint64_t scope_id;
    uint64_t epoch;
} thread_state;

static TLS thread_state tls;

static pthread_key_t exit_key;
static _Atomic int exit_key_state; /* 0 none, 1 creating, 2 ready */

/* ---- malloc_usable_size, resolved once ---- */

typedef size_t (*usable_size_fn)(void *);
static _Atomic(usable_size_fn) real_usable_size;
static _Atomic int usable_size_resolving;

static usable_size_fn resolve_usable_size(void) {
    usable_size_fn fn = atomic_load_explicit(&real_usable_size, memory_order_acquire);
    if (fn) return fn;
    int expected = 0;
    if (!atomic_compare_exchange_strong(&usable_size_resolving, &expected, 1)) return NULL;
    /* dlsym may allocate on its error path; the caller holds the reentrancy guard. */
    fn = (usable_size_fn)dlsym(RTLD_NEXT, "malloc_usable_size");
    atomic_store_explicit(&real_usable_size, fn, memory_order_release);
    return fn;
}

/* glibc's malloc_usable_size, read straight from the chunk header: the size word just
 * before the block, whose low bits are flags (2: mmapped). An in-use chunk gives its
 * size less one header word, an mmapped one less two. About a nanosecond, against a
 * call through a function pointer; checked against glibc at load (see below), and the
 * call is used instead if they ever disagree. */
static _Atomic int header_usable_size_ok;

static inline size_t usable_from_header(void *p) {
    size_t word = ((size_t *)p)[-1];
    return (word & ~(size_t)7) - ((word & 2) ? 2 * sizeof(size_t) : sizeof(size_t));
}

static inline size_t usable_size_of(void *p) {
    if (!p) return 0;
    if (atomic_load_explicit(&header_usable_size_ok, memory_order_relaxed)) return usable_from_header(p);
    usable_size_fn fn = atomic_load_explicit(&real_usable_size, memory_order_acquire);
    if (!fn) fn = resolve_usable_size();
    return fn ? fn(p) : 0;
}

/* Compares the header reading with glibc's own answer on small, large and aligned blocks. */
static void check_header_usable_size(void) {
    usable_size_fn fn = resolve_usable_size();
    if (!fn) return;
    size_t sizes[] = { 1, 24, 25, 100, 1000, 4096, 70000, 300000, 5000000 };
    int ok = 1;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        void *a = __libc_malloc(sizes[i]);
        void *b = __libc_memalign(64, sizes[i]);
        if (!a || !b || usable_from_header(a) != fn(a) || usable_from_header(b) != fn(b)) ok = 0;
        __libc_free(a);
        __libc_free(b);
    }
    atomic_store(&header_usable_size_ok, ok);
}

/* What the hooks do, for measuring their cost (profctl_hooks_set_mode). */
static _Atomic int hooks_mode = PROFCTL_HOOKS_FULL;

__attribute__((constructor(101))) static void resolve_at_load(void) {
    tls.in_hook = true;
    resolve_usable_size();
    check_header_usable_size();
    tls.in_hook = false;
}

/* ---- counter helpers ---- */

static inline uint64_t load(counter *c) { return atomic_load_explicit(c, memory_order_relaxed); }
/* Owner-only counters: a plain load and store, no locked instruction on the hot path. */
static inline void bump(counter *c, uint64_t n) {
    atomic_store_explicit(c, load(c) + n, memory_order_relaxed);
}
static inline void shared_bump(counter *c, uint64_t n) {
    atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

/* ---- thread registry ---- */

static void fold_into_retired(slot *s) {
    counter *from = &s->allocations, *to = &retired.allocations;
    size_t n = (size_t)(&s->open_epoch - &s->allocations);
    for (size_t i = 0; i < n; i++) shared_bump(&to[i], atomic_exchange(&from[i], 0));
}

static void thread_exiting(void *value) {
    (void)value;
    if (tls.slot && tls.slot_index != 0) {
        fold_into_retired(tls.slot);
        atomic_store(&tls.slot->in_use, 0);
        shared_bump(&threads_exited, 1);
    }
    /* Allocations after this point (other TLS destructors) go to the shared slot. */
    tls.slot = &slots[0];
    tls.slot_index = 0;
    tls.exited = true;
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

/* Called with tls.in_hook set. */
static void claim_slot(void) {
    tls.slot = &slots[0];
    tls.slot_index = 0;
    if (tls.exited) return;
    shared_bump(&threads_seen, 1);
    for (uint32_t i = 1; i < PROFCTL_MAX_THREADS; i++) {
        int expected = 0;
        if (atomic_load_explicit(&slots[i].in_use, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong(&slots[i].in_use, &expected, 1)) {
            tls.slot = &slots[i];
            tls.slot_index = i;
            break;
        }
    }
    ensure_exit_key();
    /* The key's value only has to be non-NULL for the destructor to run. */
    if (atomic_load(&exit_key_state) == 2) pthread_setspecific(exit_key, (void *)1);
}

/* ---- the table of tracked blocks ----
 * Blocks allocated inside a region, keyed by address, split into stripes with a spin
 * lock each so threads rarely contend. Open addressing with linear probing and
 * backward-shift deletion: no tombstones, so a table that sees as many frees as
 * allocations never needs rebuilding. Storage from mmap. A stripe is consulted on free
 * only while it holds anything. */

typedef struct entry {
    uintptr_t address; /* 0: empty */
    uint64_t requested;
    uint64_t usable;
    uint64_t epoch;
    uint32_t slot;
} entry;

#define STRIPES 64

typedef struct stripe {
    atomic_flag lock;
    entry *entries;
    size_t capacity;       /* power of two */
    _Atomic size_t used;   /* live entries; read without the lock as a hint */
    char pad[32];
} stripe;

static stripe stripes[STRIPES];

static inline uint64_t hash_address(uintptr_t a) {
    return (uint64_t)(a >> 4) * 0x9E3779B97F4A7C15ull;
}

static inline stripe *stripe_for(uintptr_t a) { return &stripes[hash_address(a) >> 58]; }

static void lock_stripe(stripe *s) {
    while (atomic_flag_test_and_set_explicit(&s->lock, memory_order_acquire)) { }
}
static void unlock_stripe(stripe *s) { atomic_flag_clear_explicit(&s->lock, memory_order_release); }

/* The slot holding a, or the empty slot where it would go. */
static size_t find(entry *entries, size_t capacity, uintptr_t a) {
    size_t mask = capacity - 1;
    size_t i = (size_t)hash_address(a) & mask;
    while (entries[i].address != a && entries[i].address != 0) i = (i + 1) & mask;
    return i;
}

/* Grows so one more insert keeps the load under 50 %. */
static bool make_room(stripe *s) {
    size_t used = atomic_load_explicit(&s->used, memory_order_relaxed);
    if (s->entries && (used + 1) * 2 <= s->capacity) return true;
    size_t capacity = s->capacity ? s->capacity * 2 : 1024;
    entry *fresh = mmap(NULL, capacity * sizeof(entry), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fresh == MAP_FAILED) return false;
    for (size_t i = 0; i < s->capacity; i++) {
        if (s->entries[i].address) fresh[find(fresh, capacity, s->entries[i].address)] = s->entries[i];
    }
    if (s->entries) munmap(s->entries, s->capacity * sizeof(entry));
    s->entries = fresh;
    s->capacity = capacity;
    return true;
}

static void track(void *p, size_t requested, size_t usable) {
    uintptr_t a = (uintptr_t)p;
    stripe *s = stripe_for(a);
    lock_stripe(s);
    if (make_room(s)) {
        size_t i = find(s->entries, s->capacity, a);
        /* Written only under the lock: a plain store, no locked instruction. */
        if (s->entries[i].address == 0) atomic_store_explicit(&s->used, atomic_load_explicit(&s->used, memory_order_relaxed) + 1, memory_order_relaxed);
        s->entries[i] = (entry){ a, requested, usable, tls.epoch, tls.slot_index };
    }
    unlock_stripe(s);
}

/* Empties slot i, moving later entries of the same probe run back so that every entry
 * stays reachable from its home slot without tombstones. */
static void remove_at(stripe *s, size_t i) {
    size_t mask = s->capacity - 1, j = i;
    for (;;) {
        j = (j + 1) & mask;
        uintptr_t a = s->entries[j].address;
        if (a == 0) break;
        size_t home = (size_t)hash_address(a) & mask;
        /* The entry at j may move to i unless its home lies cyclically in (i, j]. */
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            s->entries[i] = s->entries[j];
            i = j;
        }
    }
    s->entries[i].address = 0;
}

/* Removes p from the table if present; returns whether it was, with its entry. */
static bool untrack(void *p, entry *out) {
    uintptr_t a = (uintptr_t)p;
    stripe *s = stripe_for(a);
    /* A block being freed was tracked, if at all, before its address reached this
     * thread, so an empty stripe here means it is not in the table. */
    if (atomic_load_explicit(&s->used, memory_order_relaxed) == 0) return false;
    bool found = false;
    lock_stripe(s);
    if (s->entries) {
        size_t i = find(s->entries, s->capacity, a);
        if (s->entries[i].address == a) {
            *out = s->entries[i];
            remove_at(s, i);
            atomic_store_explicit(&s->used, atomic_load_explicit(&s->used, memory_order_relaxed) - 1, memory_order_relaxed);
            found = true;
        }
    }
    unlock_stripe(s);
    return found;
}

static uint64_t tracked_blocks(void) {
    uint64_t total = 0;
    for (int i = 0; i < STRIPES; i++) total += atomic_load_explicit(&stripes[i].used, memory_order_relaxed);
    return total;
}

/* ---- accounting ---- */

static inline bool enter(void) {
    if (tls.in_hook) return false;
    if (__builtin_expect(atomic_load_explicit(&hooks_mode, memory_order_relaxed) == PROFCTL_HOOKS_FORWARD, 0)) return false;
    tls.in_hook = true;
    if (!tls.slot) claim_slot();
    return true;
}
static inline void leave(void) { tls.in_hook = false; }

static inline bool usable_accounting(void) {
    return atomic_load_explicit(&hooks_mode, memory_order_relaxed) != PROFCTL_HOOKS_COUNT;
}

static void account_allocation(void *p, size_t requested) {
    if (!p) return;
    size_t usable = usable_accounting() ? usable_size_of(p) : 0;
    slot *s = tls.slot;
    if (tls.slot_index == 0) {
        shared_bump(&s->allocations, 1);
        shared_bump(&s->requested, requested);
        shared_bump(&s->usable, usable);
        return;
    }
    bump(&s->allocations, 1);
    bump(&s->requested, requested);
    bump(&s->usable, usable);
    if (tls.region_depth > 0 && tls.excluded_depth == 0) {
        bump(&s->attributed_allocations, 1);
        bump(&s->attributed_requested, requested);
        bump(&s->attributed_usable, usable);
        track(p, requested, usable);
    }
}

/* A tracked block was freed by the thread owning `freer`: while the region that
 * allocated it is still open it is reclaimed from that region (on whatever thread);
 * otherwise it is earlier measured work released by the freeing thread. */
static void credit_tracked_free(slot *freer, const entry *e, size_t usable) {
    slot *owner = &slots[e->slot];
    /* Counters only their own thread writes take a plain add; the rest a locked one. */
    bool own = freer == owner && tls.slot_index != 0;
    if (e->epoch != 0 && load(&owner->open_epoch) == e->epoch) {
        if (own) {
            bump(&owner->reclaimed_requested, e->requested);
            bump(&owner->reclaimed_usable, e->usable);
        } else {
            shared_bump(&owner->foreign_reclaimed_requested, e->requested);
            shared_bump(&owner->foreign_reclaimed_usable, e->usable);
        }
    } else if (tls.slot_index != 0) {
        bump(&freer->prior_freed_requested, e->requested);
        bump(&freer->prior_freed_usable, e->usable);
    } else {
        shared_bump(&freer->prior_freed_requested, e->requested);
        shared_bump(&freer->prior_freed_usable, e->usable);
    }
    if (tls.slot_index != 0) bump(&freer->tracked_freed_usable, usable);
    else shared_bump(&freer->tracked_freed_usable, usable);
}

static void account_free(void *p) {
    if (!p) return;
    size_t usable = usable_accounting() ? usable_size_of(p) : 0;
    slot *s = tls.slot;
    entry e;
    /* An entry whose usable size differs from the block's is stale: the block it named
     * was freed on a path the hooks did not see, and the address reused. Dropped, not credited. */
    if (untrack(p, &e) && (!usable || !e.usable || e.usable == usable)) credit_tracked_free(s, &e, usable);
    if (tls.slot_index == 0) {
        shared_bump(&s->frees, 1);
        shared_bump(&s->freed_usable, usable);
    } else {
        bump(&s->frees, 1);
        bump(&s->freed_usable, usable);
    }
}

/* ---- the replaced malloc family ---- */

void *malloc(size_t size) {
    if (!enter()) return __libc_malloc(size);
    void *p = __libc_malloc(size);
    account_allocation(p, size);
    leave();
    return p;
}

void free(void *p) {
    if (!p) return;
    if (!enter()) { __libc_free(p); return; }
    account_free(p);
    __libc_free(p);
    leave();
}

void *calloc(size_t count, size_t size) {
    if (!enter()) return __libc_calloc(count, size);
    void *p = __libc_calloc(count, size);
    size_t total;
    if (p && !__builtin_mul_overflow(count, size, &total)) account_allocation(p, total);
    leave();
    return p;
}

void *realloc(void *old, size_t size) {
    if (!old) return malloc(size);
    if (size == 0) { free(old); return NULL; }
    if (!enter()) return __libc_realloc(old, size);
    /* Untrack before the call: once old is released another thread may be handed the
     * same address and track it, and that entry must not be removed in our name. */
    size_t old_usable = usable_size_of(old);
    entry e;
    bool was_tracked = untrack(old, &e);
    void *p = __libc_realloc(old, size);
    if (!p) {
        if (was_tracked) track(old, e.requested, e.usable); /* old is still valid */
        leave();
        return NULL;
    }
    /* Count as a free of the old block and an allocation of the new one. */
    slot *s = tls.slot;
    if (was_tracked && (!old_usable || !e.usable || e.usable == old_usable)) credit_tracked_free(s, &e, old_usable);
    shared_bump(&s->frees, 1);
    shared_bump(&s->freed_usable, old_usable);
    account_allocation(p, size);
    leave();
    return p;
}

/* glibc's reallocarray calls its realloc internally, past these hooks: route it here. */
void *reallocarray(void *old, size_t count, size_t size) {
    size_t total;
    if (__builtin_mul_overflow(count, size, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(old, total);
}

static void *aligned(size_t alignment, size_t size) {
    if (!enter()) return __libc_memalign(alignment, size);
    void *p = __libc_memalign(alignment, size);
    account_allocation(p, size);
    leave();
    return p;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = aligned(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) { return aligned(alignment, size); }
void *memalign(size_t alignment, size_t size) { return aligned(alignment, size); }

void *valloc(size_t size) {
    if (!enter()) return __libc_valloc(size);
    void *p = __libc_valloc(size);
    account_allocation(p, size);
    leave();
    return p;
}

void *pvalloc(size_t size) {
    if (!enter()) return __libc_pvalloc(size);
    void *p = __libc_pvalloc(size);
    account_allocation(p, size);
    leave();
    return p;
}

size_t malloc_usable_size(void *p) {
    bool entered = enter();
    size_t n = usable_size_of(p);
    if (entered) leave();
    return n;
}

/* ---- regions ---- */

int profctl_region_begin(profctl_region *r) {
    bool entered = enter();
    if (entered) leave();
    if (tls.slot_index == 0) return -1;
    slot *s = tls.slot;
    uint64_t id = atomic_fetch_add(&next_scope_id, 1);
    r->parent_scope_id = tls.scope_id;
    r->scope_id = id;
    r->slot = tls.slot_index;
    r->outermost = tls.region_depth == 0;
    if (r->outermost) {
        tls.epoch = id;
        atomic_store(&s->open_epoch, id);
    }
    r->epoch = tls.epoch;
    tls.scope_id = id;
    tls.region_depth++;
    r->attributed_allocations = load(&s->attributed_allocations);
    r->attributed_requested = load(&s->attributed_requested);
    r->attributed_usable = load(&s->attributed_usable);
    r->frees = load(&s->frees);
    r->freed_usable = load(&s->freed_usable);
    r->reclaimed_requested = load(&s->reclaimed_requested) + load(&s->foreign_reclaimed_requested);
    r->reclaimed_usable = load(&s->reclaimed_usable) + load(&s->foreign_reclaimed_usable);
    r->prior_freed_requested = load(&s->prior_freed_requested);
    r->prior_freed_usable = load(&s->prior_freed_usable);
    r->tracked_freed_usable = load(&s->tracked_freed_usable);
    return 0;
}

void profctl_region_end(profctl_region *r, profctl_region_result *out) {
    slot *s = &slots[r->slot];
    memset(out, 0, sizeof *out);
    out->scope_id = r->scope_id;
    out->allocations = load(&s->attributed_allocations) - r->attributed_allocations;
    out->requested_bytes = load(&s->attributed_requested) - r->attributed_requested;
    out->usable_bytes = load(&s->attributed_usable) - r->attributed_usable;
    out->frees = load(&s->frees) - r->frees;
    uint64_t reclaimed_requested = load(&s->reclaimed_requested) + load(&s->foreign_reclaimed_requested) - r->reclaimed_requested;
    uint64_t reclaimed_usable = load(&s->reclaimed_usable) + load(&s->foreign_reclaimed_usable) - r->reclaimed_usable;
    out->retained_requested_bytes = out->requested_bytes - reclaimed_requested;
    out->retained_usable_bytes = out->usable_bytes - reclaimed_usable;
    out->released_requested_bytes = load(&s->prior_freed_requested) - r->prior_freed_requested;
    out->released_usable_bytes = load(&s->prior_freed_usable) - r->prior_freed_usable;
    uint64_t freed_usable = load(&s->freed_usable) - r->freed_usable;
    uint64_t tracked_freed_usable = load(&s->tracked_freed_usable) - r->tracked_freed_usable;
    out->untracked_freed_usable_bytes = freed_usable - tracked_freed_usable;

    if (tls.region_depth > 0) tls.region_depth--;
    tls.scope_id = r->parent_scope_id;
    if (r->outermost) {
        atomic_store(&s->open_epoch, 0);
        tls.epoch = 0;
    }
}

uint64_t profctl_current_scope(void) { return tls.scope_id; }

void profctl_exclusion_begin(void) { tls.excluded_depth++; }
void profctl_exclusion_end(void) {
    if (tls.excluded_depth > 0) tls.excluded_depth--;
}

void profctl_hooks_totals(profctl_totals *t) {
    memset(t, 0, sizeof *t);
    for (int i = -1; i < PROFCTL_MAX_THREADS; i++) {
        slot *s = i < 0 ? &retired : &slots[i];
        t->allocations += load(&s->allocations);
        t->frees += load(&s->frees);
        t->requested_bytes += load(&s->requested);
        t->usable_bytes += load(&s->usable);
        t->freed_usable_bytes += load(&s->freed_usable);
    }
    t->tracked_live_blocks = tracked_blocks();
    t->threads_seen = load(&threads_seen);
    t->threads_exited = load(&threads_exited);
}

int profctl_hooks_active(void) {
    profctl_totals t;
    profctl_hooks_totals(&t);
    return t.allocations > 0;
}

void profctl_hooks_set_mode(int mode) { atomic_store(&hooks_mode, mode); }

int profctl_hooks_header_usable_size(void) { return atomic_load(&header_usable_size_ok); }

void *profctl_underlying_malloc(size_t size) { return __libc_malloc(size); }
void profctl_underlying_free(void *pointer) { __libc_free(pointer); }
