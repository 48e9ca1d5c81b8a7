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
 *
 * The shape, for speed: everything a thread does to its own blocks touches only its own
 * counters and its own table of tracked blocks, with plain loads and stores (no locked
 * instruction, no lock). Other threads only read a thread's table (under its lock,
 * validated by a sequence count) and hand the blocks they free back to their owner
 * (see "foreign frees"); the owner takes its lock only when a region opens or closes
 * and when its table grows.
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
#define MAX_DEPTH PROFCTL_MAX_REGION_DEPTH
#define TLS __attribute__((tls_model("initial-exec"))) _Thread_local
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Counters written by one thread with plain stores and read by others with relaxed
 * atomic loads (a torn read cannot happen on 64-bit words; the figures are read once
 * the work is done). */
static inline uint64_t peek(const uint64_t *c) { return __atomic_load_n(c, __ATOMIC_RELAXED); }

/* ---- per-thread counters ---- */

/* One thread's counters. Only the owner thread writes them, except the shared slot 0
 * (threads with no slot of their own), written with locked adds. */
typedef struct slot {
    _Atomic int in_use;
    uint64_t allocations, requested, usable; /* every allocation */
    profctl_snapshot c;                      /* what regions and windows read */
} slot;

#define SLOT_COUNTERS (3 + sizeof(profctl_snapshot) / sizeof(uint64_t))

static slot slots[PROFCTL_MAX_THREADS];
static slot retired; /* totals folded in from exited threads, under registry_lock */
static atomic_flag registry_lock = ATOMIC_FLAG_INIT;
static _Atomic uint32_t slots_high_water; /* highest slot index ever claimed, + 1 */
static _Atomic uint64_t threads_seen, threads_exited;
static _Atomic uint64_t next_scope_id = 1;

/* ---- the table of tracked blocks, one per thread slot ---- */

typedef struct entry {
    uintptr_t address; /* 0: empty */
    uint64_t requested;
    uint64_t usable;
    uint64_t tag; /* low 40 bits: innermost region id at allocation (0: none); high 24: window epoch */
} entry;

#define SCOPE_BITS 40
#define SCOPE_MASK ((1ull << SCOPE_BITS) - 1)
#define WINDOW_MASK ((1ull << (64 - SCOPE_BITS)) - 1)

/* Open addressing, linear probing, backward-shift deletion (no tombstones, so the table
 * never fills with dead slots and never rebuilds except to grow). Only the owner thread
 * inserts and removes; it bumps `seq` around each backward shift so that a reader on
 * another thread can tell it may have missed a moving entry and look again. */
typedef struct table {
    /* The owner's line. */
    entry *entries;        /* changed only under lock (growth) */
    uint64_t mask;         /* capacity - 1 */
    uint32_t shift;        /* 64 - log2(capacity) */
    uint64_t live;         /* entries in the table */
    _Atomic uint64_t seq;  /* odd while entries move */
    void *_Atomic inbox;   /* blocks other threads freed, for the owner to release (see below) */
    char pad0[16];
    /* Shared, under lock. */
    atomic_flag lock;
    bool owned;            /* a live thread owns this slot */
    bool published;        /* in published_tables: other threads look here */
    uint32_t depth;        /* the owner's open regions */
    uint64_t open_ids[MAX_DEPTH + 1];
    uint64_t foreign_reclaimed_requested[MAX_DEPTH + 1];
    uint64_t foreign_reclaimed_usable[MAX_DEPTH + 1];
} table;

static table tables[PROFCTL_MAX_THREADS];

/* Tables other threads must search when a free misses their own. */
static _Atomic uint64_t published_tables[PROFCTL_MAX_THREADS / 64];
static _Atomic uint32_t published_count;

/* ---- per-thread state ---- */

typedef struct thread_state {
    /* Read on every call. */
    bool in_hook;
    bool exited;
    uint32_t slot_index;
    slot *slot;
    table *table; /* NULL in the shared slot */
    uint32_t depth; /* open regions */
    uint32_t excluded_depth;
    uint64_t scope_id; /* innermost open region, 0 when none */
    /* Regions, by depth (1-based): their ids, and the bytes of their own blocks this
     * thread freed while they were open, credited to the deepest region that holds the
     * block and folded into its parent when it closes (an inner region's figures are
     * its own; the outer's include them). */
    uint64_t stack[MAX_DEPTH + 1];
    uint64_t reclaimed_requested[MAX_DEPTH + 1];
    uint64_t reclaimed_usable[MAX_DEPTH + 1];
} thread_state;

static TLS thread_state tls;

static pthread_key_t exit_key;
static _Atomic int exit_key_state; /* 0 none, 1 creating, 2 ready, 3 failed */

/* What every call reads, on one line. */
static struct {
    _Atomic int mode;         /* profctl_hooks_set_mode */
    _Atomic int header_ok;    /* usable sizes from chunk headers */
    _Atomic uint64_t window;  /* epoch of the open window (24 bits, never 0), 0 when none */
} hot __attribute__((aligned(64))) = { PROFCTL_HOOKS_FULL, 0, 0 };

static _Atomic int hooks_seen_call;

static inline void spin_lock(atomic_flag *f) {
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire)) { }
}
static inline void spin_unlock(atomic_flag *f) { atomic_flag_clear_explicit(f, memory_order_release); }

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
static inline size_t usable_from_header(void *p) {
    size_t word = ((size_t *)p)[-1];
    return (word & ~(size_t)7) - ((word & 2) ? 2 * sizeof(size_t) : sizeof(size_t));
}

static size_t usable_size_slow(void *p) {
    usable_size_fn fn = atomic_load_explicit(&real_usable_size, memory_order_acquire);
    if (!fn) fn = resolve_usable_size();
    return fn ? fn(p) : 0;
}

static inline size_t usable_size_of(void *p) {
    if (!p) return 0;
    if (LIKELY(atomic_load_explicit(&hot.header_ok, memory_order_relaxed))) return usable_from_header(p);
    return usable_size_slow(p);
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
    atomic_store(&hot.header_ok, ok);
}

__attribute__((constructor(101))) static void resolve_at_load(void) {
    tls.in_hook = true;
    resolve_usable_size();
    check_header_usable_size();
    tls.in_hook = false;
}

/* ---- counter helpers ---- */

/* The calling thread's counter: a plain add in its own slot, a locked one in the shared slot. */
#define BUMP(field, n) do { \
    if (LIKELY(tls.slot_index != 0)) tls.slot->field += (n); \
    else __atomic_fetch_add(&tls.slot->field, (n), __ATOMIC_RELAXED); \
} while (0)

/* ---- thread registry ---- */

static void fold_into_retired(slot *s) {
    uint64_t *from = &s->allocations, *to = &retired.allocations;
    spin_lock(&registry_lock);
    for (size_t i = 0; i < SLOT_COUNTERS; i++) {
        __atomic_store_n(&to[i], peek(&to[i]) + peek(&from[i]), __ATOMIC_RELAXED);
        __atomic_store_n(&from[i], 0, __ATOMIC_RELAXED);
    }
    spin_unlock(&registry_lock);
}

static void release_inbox(table *t);

static void thread_exiting(void *value) {
    (void)value;
    bool was_in_hook = tls.in_hook;
    tls.in_hook = true;
    if (tls.slot && tls.slot_index != 0) {
        table *t = tls.table;
        release_inbox(t);
        spin_lock(&t->lock);
        t->owned = false; /* from now on other threads remove its entries themselves */
        t->depth = 0;
        spin_unlock(&t->lock);
        fold_into_retired(tls.slot);
        atomic_store(&tls.slot->in_use, 0);
        atomic_fetch_add(&threads_exited, 1);
    }
    /* Allocations after this point (other TLS destructors) go to the shared slot. */
    tls.slot = &slots[0];
    tls.slot_index = 0;
    tls.table = NULL;
    tls.depth = 0;
    tls.scope_id = 0;
    tls.exited = true;
    tls.in_hook = was_in_hook;
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
    tls.table = NULL;
    if (tls.exited) return;
    atomic_fetch_add(&threads_seen, 1);
    for (uint32_t i = 1; i < PROFCTL_MAX_THREADS; i++) {
        int expected = 0;
        if (atomic_load_explicit(&slots[i].in_use, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong(&slots[i].in_use, &expected, 1)) {
            tls.slot = &slots[i];
            tls.slot_index = i;
            tls.table = &tables[i];
            /* A table left by an exited thread is inherited with its entries: their
             * regions are closed, so they only ever count as released. */
            spin_lock(&tables[i].lock);
            tables[i].owned = true;
            tables[i].depth = 0;
            spin_unlock(&tables[i].lock);
            uint32_t high = atomic_load(&slots_high_water);
            while (high < i + 1 && !atomic_compare_exchange_weak(&slots_high_water, &high, i + 1)) { }
            break;
        }
    }
    ensure_exit_key();
    /* The key's value only has to be non-NULL for the destructor to run. */
    if (atomic_load(&exit_key_state) == 2) pthread_setspecific(exit_key, (void *)1);
}

/* ---- table operations ---- */

static inline uint64_t home_of(const table *t, uintptr_t a) {
    return ((uint64_t)(a >> 4) * 0x9E3779B97F4A7C15ull) >> t->shift;
}

/* Index of a in the table, or -1. Safe for the owner at any time; for another thread
 * only under the lock and inside a seq-validated read. */
static inline int64_t find(const table *t, uintptr_t a) {
    const entry *es = t->entries;
    uint64_t mask = t->mask, i = home_of(t, a);
    for (;;) {
        uintptr_t x = __atomic_load_n(&es[i].address, __ATOMIC_RELAXED);
        if (x == a) return (int64_t)i;
        if (x == 0) return -1;
        i = (i + 1) & mask;
    }
}

static inline void publish(table *t) {
    uint32_t index = (uint32_t)(t - tables);
    spin_lock(&t->lock);
    if (!t->published) {
        t->published = true;
        atomic_fetch_or(&published_tables[index / 64], 1ull << (index % 64));
        atomic_fetch_add(&published_count, 1);
    }
    spin_unlock(&t->lock);
}

/* Under the lock, when the table is empty: other threads need not look here. */
static void unpublish_locked(table *t) {
    uint32_t index = (uint32_t)(t - tables);
    if (!t->published) return;
    t->published = false;
    atomic_fetch_and(&published_tables[index / 64], ~(1ull << (index % 64)));
    atomic_fetch_sub(&published_count, 1);
}

static void insert_into(entry *es, uint64_t mask, uint32_t shift, const entry *e) {
    uint64_t i = ((uint64_t)(e->address >> 4) * 0x9E3779B97F4A7C15ull) >> shift;
    while (es[i].address != 0) i = (i + 1) & mask;
    es[i] = *e;
}

/* Doubles the table (or makes the first one), under the lock: readers on other
 * threads hold it while they look. */
static bool grow(table *t) {
    uint64_t capacity = t->entries ? (t->mask + 1) * 2 : 1024;
    uint32_t shift = (uint32_t)(64 - __builtin_ctzll(capacity));
    entry *fresh = mmap(NULL, capacity * sizeof(entry), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fresh == MAP_FAILED) return false;
    spin_lock(&t->lock);
    entry *old = t->entries;
    uint64_t old_capacity = old ? t->mask + 1 : 0;
    for (uint64_t i = 0; i < old_capacity; i++) {
        if (old[i].address) insert_into(fresh, capacity - 1, shift, &old[i]);
    }
    t->entries = fresh;
    t->mask = capacity - 1;
    t->shift = shift;
    spin_unlock(&t->lock);
    if (old) munmap(old, old_capacity * sizeof(entry));
    return true;
}

/* The owner inserts a block; an entry already there for the address is stale (its block
 * was freed on a path the hooks did not see) and is overwritten. */
static inline void own_insert(table *t, uintptr_t a, uint64_t requested, uint64_t usable, uint64_t tag) {
    if (UNLIKELY((t->live + 1) * 2 > t->mask + 1 || !t->entries)) {
        if (!t->published) publish(t);
        if (!grow(t)) return;
    }
    if (UNLIKELY(!t->published)) publish(t);
    entry *es = t->entries;
    uint64_t mask = t->mask, i = home_of(t, a);
    uintptr_t x;
    while ((x = es[i].address) != 0 && x != a) i = (i + 1) & mask;
    es[i].requested = requested;
    es[i].usable = usable;
    es[i].tag = tag;
    /* The address last: a reader on another thread sees a whole entry or none. */
    __atomic_store_n(&es[i].address, a, __ATOMIC_RELEASE);
    if (x == 0) t->live++;
}

/* The owner empties slot i, moving later entries of the same probe run back so that
 * every entry stays reachable from its home without tombstones. */
static inline void own_remove_at(table *t, uint64_t i) {
    entry *es = t->entries;
    uint64_t mask = t->mask, j = (i + 1) & mask;
    t->live--;
    if (LIKELY(es[j].address == 0)) {
        /* Nothing after it in the run: no entry moves, no reader can miss one. */
        __atomic_store_n(&es[i].address, 0, __ATOMIC_RELAXED);
        return;
    }
    atomic_store_explicit(&t->seq, atomic_load_explicit(&t->seq, memory_order_relaxed) + 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);
    for (;; j = (j + 1) & mask) {
        uintptr_t a = es[j].address;
        if (a == 0) break;
        uint64_t home = home_of(t, a);
        /* The entry at j may move to i unless its home lies cyclically in (i, j]. */
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            es[i] = es[j];
            i = j;
        }
    }
    __atomic_store_n(&es[i].address, 0, __ATOMIC_RELAXED);
    atomic_signal_fence(memory_order_seq_cst);
    atomic_store_explicit(&t->seq, atomic_load_explicit(&t->seq, memory_order_relaxed) + 1, memory_order_relaxed);
}

/* ---- foreign frees ----
 * A thread freeing a block another thread tracked reads the entry (under that table's
 * lock, validated by its seq), credits it, and does not touch the table: it pushes the
 * block on the owner's inbox, a list threaded through the freed blocks themselves. The
 * owner removes the entries and really frees the blocks at its next call into the hooks.
 * Until then the address cannot be reused, so no stale entry can be taken for a new
 * block. A table whose thread has exited is changed directly, under its lock. */

static void release_inbox(table *t) {
    void *list = atomic_exchange_explicit(&t->inbox, NULL, memory_order_acquire);
    while (list) {
        void *next = *(void **)list;
        int64_t i = find(t, (uintptr_t)list);
        if (i >= 0) own_remove_at(t, (uint64_t)i);
        __libc_free(list);
        list = next;
    }
}

/* ---- windows ---- */

static _Atomic uint64_t next_window_epoch = 1;
static _Atomic int window_open;

/* ---- accounting ---- */

static inline bool enter(void) {
    if (UNLIKELY(tls.in_hook)) return false;
    if (UNLIKELY(atomic_load_explicit(&hot.mode, memory_order_relaxed) == PROFCTL_HOOKS_FORWARD)) return false;
    tls.in_hook = true;
    if (UNLIKELY(!tls.slot)) claim_slot();
    return true;
}
static inline void leave(void) { tls.in_hook = false; }

/* For regions and windows: a slot whatever the mode. */
static bool enter_always(void) {
    if (tls.in_hook) return false;
    tls.in_hook = true;
    if (!tls.slot) claim_slot();
    return true;
}

static inline size_t usable_if_counted(void *p) {
    if (UNLIKELY(atomic_load_explicit(&hot.mode, memory_order_relaxed) == PROFCTL_HOOKS_COUNT)) return 0;
    return usable_size_of(p);
}

static inline void account_allocation(void *p, size_t requested) {
    if (UNLIKELY(!p)) return;
    size_t usable = usable_if_counted(p);
    BUMP(allocations, 1);
    BUMP(requested, requested);
    BUMP(usable, usable);
    uint64_t window = atomic_load_explicit(&hot.window, memory_order_relaxed);
    if ((tls.depth | window) && !tls.excluded_depth && LIKELY(tls.table != NULL)) {
        table *t = tls.table;
        if (UNLIKELY(atomic_load_explicit(&t->inbox, memory_order_relaxed) != NULL)) release_inbox(t);
        tls.slot->c.attributed_allocations += 1;
        tls.slot->c.attributed_requested += requested;
        tls.slot->c.attributed_usable += usable;
        own_insert(t, (uintptr_t)p, requested, usable, (tls.scope_id & SCOPE_MASK) | (window << SCOPE_BITS));
    }
}

/* The freeing thread's own share of a tracked free: whether its regions may count it as
 * released (only if no region of the allocating thread still holds it), and the window. */
static inline void credit_freer(const entry *e, bool releasable, size_t usable) {
    if (releasable) {
        BUMP(c.releasable_requested, e->requested);
        BUMP(c.releasable_usable, e->usable);
    }
    uint64_t window = atomic_load_explicit(&hot.window, memory_order_relaxed);
    if (UNLIKELY(window != 0)) {
        if ((e->tag >> SCOPE_BITS) == window) {
            BUMP(c.window_reclaimed_requested, e->requested);
            BUMP(c.window_reclaimed_usable, e->usable);
        } else {
            BUMP(c.window_released_requested, e->requested);
            BUMP(c.window_released_usable, e->usable);
        }
    }
    BUMP(c.tracked_freed_usable, usable);
}

/* The deepest of the given open regions (ids by depth) that holds a block allocated
 * with the given innermost scope: regions opened before it and still open. 0: none. */
static inline uint32_t holding_depth(const uint64_t *ids, uint32_t depth, uint64_t scope) {
    while (depth > 0 && (ids[depth] & SCOPE_MASK) > scope) depth--;
    return scope ? depth : 0;
}

/* A block this thread tracked, freed by this thread. */
static inline void credit_own(const entry *e, size_t usable) {
    uint32_t j = holding_depth(tls.stack, tls.depth, e->tag & SCOPE_MASK);
    if (j) {
        tls.reclaimed_requested[j] += e->requested;
        tls.reclaimed_usable[j] += e->usable;
    }
    credit_freer(e, true, usable);
}

/* An entry whose usable size differs from the block's is stale: the block it named was
 * freed on a path the hooks did not see, and the address reused. Dropped, not credited. */
static inline bool fresh_entry(const entry *e, size_t usable) { return !usable || !e->usable || e->usable == usable; }

/* Looks for p in other threads' tables. Returns true when p was handed to its owner to
 * free (the caller must not free it). */
static bool foreign_free(void *p, size_t usable, bool hand_over) {
    uintptr_t a = (uintptr_t)p;
    for (uint32_t w = 0; w < PROFCTL_MAX_THREADS / 64; w++) {
        uint64_t bits = atomic_load_explicit(&published_tables[w], memory_order_acquire);
        while (bits) {
            uint32_t index = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            table *t = &tables[index];
            if (t == tls.table) continue;
            spin_lock(&t->lock);
            if (!t->entries) { spin_unlock(&t->lock); continue; }
            entry e = { 0, 0, 0, 0 };
            int64_t i;
            uint64_t seq;
            do {
                while ((seq = atomic_load_explicit(&t->seq, memory_order_acquire)) & 1) { }
                i = find(t, a);
                if (i >= 0) e = t->entries[i];
                atomic_thread_fence(memory_order_acquire);
            } while (atomic_load_explicit(&t->seq, memory_order_relaxed) != seq);
            if (i < 0 || e.address != a) { spin_unlock(&t->lock); continue; }
            bool fresh = fresh_entry(&e, usable);
            uint32_t j = fresh ? holding_depth(t->open_ids, t->depth, e.tag & SCOPE_MASK) : 0;
            if (j) {
                t->foreign_reclaimed_requested[j] += e.requested;
                t->foreign_reclaimed_usable[j] += e.usable;
            }
            bool handed = false;
            if (!t->owned) {
                own_remove_at(t, (uint64_t)i); /* nobody else changes it: we hold the lock */
            } else if (hand_over && fresh) {
                void *head = atomic_load_explicit(&t->inbox, memory_order_relaxed);
                do { *(void **)p = head; }
                while (!atomic_compare_exchange_weak_explicit(&t->inbox, &head, p, memory_order_release, memory_order_relaxed));
                handed = true;
            }
            spin_unlock(&t->lock);
            /* A stale entry is left alone and the search goes on. */
            if (fresh) {
                credit_freer(&e, j == 0, usable);
                return handed;
            }
        }
    }
    return false;
}

/* Accounts for freeing p. Returns true when p was handed to another thread to free. */
static inline bool account_free(void *p, size_t usable, bool hand_over) {
    table *t = tls.table;
    BUMP(c.frees, 1);
    BUMP(c.freed_usable, usable);
    if (LIKELY(t != NULL)) {
        if (UNLIKELY(atomic_load_explicit(&t->inbox, memory_order_relaxed) != NULL)) release_inbox(t);
        if (t->live) {
            int64_t i = find(t, (uintptr_t)p);
            if (i >= 0) {
                entry e = t->entries[i];
                own_remove_at(t, (uint64_t)i);
                if (LIKELY(fresh_entry(&e, usable))) {
                    credit_own(&e, usable);
                    return false;
                }
            }
        }
    }
    if (UNLIKELY(atomic_load_explicit(&published_count, memory_order_relaxed) > (t && t->published ? 1u : 0u))) {
        return foreign_free(p, usable, hand_over);
    }
    return false;
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
    bool handed = account_free(p, usable_if_counted(p), true);
    if (LIKELY(!handed)) __libc_free(p);
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
    size_t old_usable = usable_if_counted(old);
    size_t usable_now = usable_size_of(old);
    void *p;
    bool own = tls.table && tls.table->live && find(tls.table, (uintptr_t)old) >= 0;
    if (own || atomic_load_explicit(&published_count, memory_order_relaxed) <= (tls.table && tls.table->published ? 1u : 0u)) {
        /* Its entry (if any) is this thread's: account the free, then let glibc resize. */
        p = __libc_realloc(old, size);
        if (!p) { leave(); return NULL; } /* old is untouched, still tracked */
        account_free(old, old_usable, false);
    } else {
        /* Maybe another thread's block: glibc must not release it under that thread's
         * entry, so move it by hand and let the free path hand the old block over. */
        p = __libc_malloc(size);
        if (!p) { leave(); return NULL; }
        memcpy(p, old, usable_now < size ? usable_now : size);
        if (!account_free(old, old_usable, true)) __libc_free(old);
    }
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

static void read_own(profctl_snapshot *out) {
    *out = tls.slot->c;
}

static inline uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

int profctl_region_begin(profctl_region *r) {
    bool entered = enter_always();
    if (tls.slot_index == 0 || !tls.table) { if (entered) leave(); return -1; }
    if (tls.depth >= MAX_DEPTH) { if (entered) leave(); return -2; }
    table *t = tls.table;
    if (atomic_load_explicit(&t->inbox, memory_order_relaxed) != NULL) release_inbox(t);
    uint64_t id = atomic_fetch_add(&next_scope_id, 1);
    uint32_t k = tls.depth + 1;
    r->parent_scope_id = tls.scope_id;
    r->scope_id = id;
    r->slot = tls.slot_index;
    r->depth = k;
    tls.stack[k] = id;
    tls.reclaimed_requested[k] = 0;
    tls.reclaimed_usable[k] = 0;
    spin_lock(&t->lock);
    t->open_ids[k] = id;
    t->foreign_reclaimed_requested[k] = 0;
    t->foreign_reclaimed_usable[k] = 0;
    t->depth = k;
    spin_unlock(&t->lock);
    tls.depth = k;
    tls.scope_id = id;
    read_own(&r->start);
    if (entered) leave();
    return 0;
}

void profctl_region_end(profctl_region *r, profctl_region_result *out) {
    memset(out, 0, sizeof *out);
    out->scope_id = r->scope_id;
    /* Only the region on top of this thread's stack can close. */
    if (r->slot != tls.slot_index || r->depth != tls.depth || tls.depth == 0 || tls.stack[r->depth] != r->scope_id) return;
    bool entered = enter_always();
    table *t = tls.table;
    if (atomic_load_explicit(&t->inbox, memory_order_relaxed) != NULL) release_inbox(t);
    uint32_t k = r->depth;
    uint64_t own_requested = tls.reclaimed_requested[k], own_usable = tls.reclaimed_usable[k];
    tls.reclaimed_requested[k - 1] += own_requested;
    tls.reclaimed_usable[k - 1] += own_usable;
    spin_lock(&t->lock);
    uint64_t foreign_requested = t->foreign_reclaimed_requested[k], foreign_usable = t->foreign_reclaimed_usable[k];
    t->foreign_reclaimed_requested[k - 1] += foreign_requested;
    t->foreign_reclaimed_usable[k - 1] += foreign_usable;
    t->depth = k - 1;
    if (t->live == 0 && k == 1) unpublish_locked(t);
    spin_unlock(&t->lock);
    tls.depth = k - 1;
    tls.scope_id = r->parent_scope_id;
    if (k == 1) {
        tls.reclaimed_requested[0] = tls.reclaimed_usable[0] = 0;
    }

    profctl_snapshot now;
    read_own(&now);
    const profctl_snapshot *then = &r->start;
    out->allocations = minus(now.attributed_allocations, then->attributed_allocations);
    out->requested_bytes = minus(now.attributed_requested, then->attributed_requested);
    out->usable_bytes = minus(now.attributed_usable, then->attributed_usable);
    out->frees = minus(now.frees, then->frees);
    out->retained_requested_bytes = minus(out->requested_bytes, own_requested + foreign_requested);
    out->retained_usable_bytes = minus(out->usable_bytes, own_usable + foreign_usable);
    /* Tracked frees on this thread that no allocating region still holds, less this
     * region's own blocks: what it released of earlier work. */
    out->released_requested_bytes = minus(minus(now.releasable_requested, then->releasable_requested), own_requested);
    out->released_usable_bytes = minus(minus(now.releasable_usable, then->releasable_usable), own_usable);
    out->untracked_freed_usable_bytes = minus(minus(now.freed_usable, then->freed_usable),
                                              minus(now.tracked_freed_usable, then->tracked_freed_usable));
    if (entered) leave();
}

uint64_t profctl_current_scope(void) { return tls.scope_id; }

void profctl_exclusion_begin(void) { tls.excluded_depth++; }
void profctl_exclusion_end(void) {
    if (tls.excluded_depth > 0) tls.excluded_depth--;
}

/* ---- process-wide sums ---- */

static void sum_counters(uint64_t *out /* SLOT_COUNTERS */) {
    memset(out, 0, SLOT_COUNTERS * sizeof(uint64_t));
    uint32_t high = atomic_load(&slots_high_water);
    spin_lock(&registry_lock);
    for (int64_t i = -1; i < (int64_t)high; i++) {
        const uint64_t *from = i < 0 ? &retired.allocations : &slots[i].allocations;
        for (size_t k = 0; k < SLOT_COUNTERS; k++) out[k] += peek(&from[k]);
    }
    spin_unlock(&registry_lock);
}

static void sum_snapshot(profctl_snapshot *out) {
    uint64_t all[SLOT_COUNTERS];
    sum_counters(all);
    memcpy(out, &all[3], sizeof *out);
}

int profctl_window_begin(profctl_window *w) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&window_open, &expected, 1)) return -1;
    bool entered = enter_always();
    uint64_t epoch;
    do { epoch = atomic_fetch_add(&next_window_epoch, 1) & WINDOW_MASK; } while (epoch == 0);
    w->epoch = epoch;
    sum_snapshot(&w->start);
    atomic_store(&hot.window, epoch);
    if (entered) leave();
    return 0;
}

void profctl_window_end(profctl_window *w, profctl_region_result *out) {
    memset(out, 0, sizeof *out);
    out->scope_id = w->epoch;
    if (atomic_load(&hot.window) != w->epoch) return;
    bool entered = enter_always();
    atomic_store(&hot.window, 0);
    profctl_snapshot now;
    sum_snapshot(&now);
    const profctl_snapshot *then = &w->start;
    out->allocations = minus(now.attributed_allocations, then->attributed_allocations);
    out->requested_bytes = minus(now.attributed_requested, then->attributed_requested);
    out->usable_bytes = minus(now.attributed_usable, then->attributed_usable);
    out->frees = minus(now.frees, then->frees);
    out->retained_requested_bytes = minus(out->requested_bytes, minus(now.window_reclaimed_requested, then->window_reclaimed_requested));
    out->retained_usable_bytes = minus(out->usable_bytes, minus(now.window_reclaimed_usable, then->window_reclaimed_usable));
    out->released_requested_bytes = minus(now.window_released_requested, then->window_released_requested);
    out->released_usable_bytes = minus(now.window_released_usable, then->window_released_usable);
    out->untracked_freed_usable_bytes = minus(minus(now.freed_usable, then->freed_usable),
                                              minus(now.tracked_freed_usable, then->tracked_freed_usable));
    atomic_store(&window_open, 0);
    if (entered) leave();
}

int profctl_window_is_open(void) { return atomic_load(&window_open); }

void profctl_hooks_totals(profctl_totals *t) {
    uint64_t all[SLOT_COUNTERS];
    sum_counters(all);
    profctl_snapshot c;
    memcpy(&c, &all[3], sizeof c);
    memset(t, 0, sizeof *t);
    t->allocations = all[0];
    t->requested_bytes = all[1];
    t->usable_bytes = all[2];
    t->frees = c.frees;
    t->freed_usable_bytes = c.freed_usable;
    uint32_t high = atomic_load(&slots_high_water);
    for (uint32_t i = 0; i < high; i++) t->tracked_live_blocks += peek(&tables[i].live);
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

void profctl_hooks_set_mode(int mode) { atomic_store(&hot.mode, mode); }

int profctl_hooks_header_usable_size(void) { return atomic_load(&hot.header_ok); }

void *profctl_underlying_malloc(size_t size) { return __libc_malloc(size); }
void profctl_underlying_free(void *pointer) { __libc_free(pointer); }
