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
 * instruction, no lock). Another thread freeing one of its blocks finds the entry under
 * the table's lock, validated by a sequence count, and marks it dead with one
 * compare-and-swap (see "foreign frees"); the owner takes its lock only when a region
 * opens or closes and when its table grows or sheds dead entries.
 */
#define _GNU_SOURCE
#include "allocation_hooks.h"
#include "lifetimes.h" /* temporaries and size classes: lifetimes.c */
#include "allocation_sites.h" /* record --sites: two guarded calls, see sites.c */

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

/* Where the hooks forward: glibc, or (PROFCTL_HOOKS_CHAIN=1 in the environment) whatever
 * the dynamic linker finds next, such as heaptrack's preloaded malloc, so that heaptrack can
 * witness the very same allocations the hooks count (Tests/ProfilerTests/WindowWitnessTests).
 * Called through pointers: one instruction, where a call to __libc_malloc costs a call and
 * the PLT's jump. */
static void *(*next_malloc)(size_t) = __libc_malloc;
static void (*next_free)(void *) = __libc_free;
static void *(*next_calloc)(size_t, size_t) = __libc_calloc;
static void *(*next_realloc)(void *, size_t) = __libc_realloc;
static void *(*next_aligned)(size_t, size_t) = __libc_memalign;
static void *(*next_valloc)(size_t) = __libc_valloc;

#define PROFCTL_MAX_THREADS 4096
#define MAX_DEPTH PROFCTL_MAX_REGION_DEPTH
#define TLS __attribute__((tls_model("initial-exec"))) _Thread_local
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define ALWAYS_INLINE __attribute__((always_inline)) inline
#define SLOW __attribute__((noinline, cold))
/* Between adds to neighbouring counters: keeps the compiler from pairing them into vector
 * instructions, which take more instructions than the two adds. */
#define SEPARATE() __asm__ volatile("" ::: "memory")
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Counters written by one thread with plain stores and read by others with relaxed
 * atomic loads (a torn read cannot happen on 64-bit words; the figures are read once
 * the work is done). */
static inline uint64_t peek(const uint64_t *c) { return __atomic_load_n(c, __ATOMIC_RELAXED); }

/* ---- per-thread counters ---- */

/* What one thread counts: the first three on every allocation, the rest what regions and
 * windows read. They live in the thread's own TLS block, so counting is one add to a
 * fixed offset from the thread pointer; other threads read them through the registry. */
typedef struct counters {
    uint64_t allocations, requested, usable;
    profctl_snapshot c;
} counters;

#define COUNTERS (sizeof(counters) / sizeof(uint64_t))

static counters retired; /* folded in from exited threads, and counted after a thread's exit; locked adds */
static atomic_flag registry_lock = ATOMIC_FLAG_INIT;
static _Atomic uint64_t threads_seen, threads_exited;
static _Atomic uint64_t next_scope_id = 1;

/* ---- the table of tracked blocks, one per thread slot ---- */

typedef struct entry {
    uintptr_t address; /* 0: empty; low bit set: dead (freed on another thread), awaiting purge */
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
    _Atomic int claimed;   /* a thread owns or owned this table's index */
    entry *entries;        /* changed only under lock (growth); empty_entries until the first insert */
    uint64_t mask;         /* capacity - 1 */
    uint64_t byte_mask;    /* mask * sizeof(entry): the fast paths index by bytes */
    uint64_t live;         /* entries in the table, less what the owner's fast paths did since it
                            * last settled (tls.room_synced - tls.room, see settle_live) */
    _Atomic uint64_t seq;  /* odd while entries move */
    _Atomic uint64_t dead; /* entries other threads marked dead, not yet purged */
    char pad0[12];
    /* Shared, under lock. */
    atomic_flag lock;
    bool owned;            /* a live thread owns this slot */
    bool published;        /* in published_tables: other threads look here */
    uint32_t depth;        /* the owner's open regions */
    uint64_t open_ids[MAX_DEPTH + 1];
    uint64_t foreign_reclaimed_requested[MAX_DEPTH + 1];
    uint64_t foreign_reclaimed_usable[MAX_DEPTH + 1];
} table;

_Static_assert(sizeof(entry) == 32, "the fast paths index entries by (address << 1) & byte_mask");

/* Past the last slot of every array lies one more entry, never probed, whose address is
 * SENTINEL: free's fast path reads the slot after the block's without wrapping its index,
 * and for the last slot finds it taken (and takes the general way, which wraps). */
#define SENTINEL ((uintptr_t)1)

/* A table with no entries yet points here: one empty slot, mask 0, so the fast paths look
 * without testing for a missing array and always miss (and the sentinel). */
static entry empty_entries[2] = { { 0, 0, 0, 0 }, { SENTINEL, 0, 0, 0 } };

static table tables[PROFCTL_MAX_THREADS];
static table no_table = { .entries = empty_entries }; /* for threads beyond PROFCTL_MAX_THREADS: always empty */

static inline bool has_entries(const table *t) { return t->entries && t->entries != empty_entries; }
static _Atomic uint32_t tables_high_water; /* highest index claimed, + 1 */

/* Tables other threads must search when a free misses their own. */
static _Atomic uint64_t published_tables[PROFCTL_MAX_THREADS / 64];
static _Atomic uint32_t published_count;

/* Whether any table is published, for free's fast path: a volatile read (the count only
 * changes by locked adds, and a 32-bit load is never torn), which the compiler folds into
 * the compare (cmpl $0, published_count) where an atomic load took a load and a test. */
static ALWAYS_INLINE bool any_published(void) { return *(volatile uint32_t *)&published_count != 0; }

/* ---- per-thread state ---- */

enum { STATE_NEW = 0, STATE_READY = 1, STATE_BUSY = 2, STATE_EXITED = 3 };

typedef struct thread_state {
    /* Read on every call. */
    uint8_t state;    /* READY: counted on the fast path; BUSY: inside the hooks' slow path, nested calls forward */
    uint8_t tracking; /* a region is open and the thread is not excluded */
    uint32_t published; /* 1 while its table is in published_tables */
    /* Inserts the fast path may still make before the table is half full: it takes one,
     * 0 sends the insert the slow way (unpublished, no entries, or full; the slow way
     * settles and opens the room again, counting what was freed meanwhile). A fast free
     * gives nothing back: it counts a temporary (top_temporaries), which it does anyway.
     * The table's true live count is table->live + (room_synced - room) -
     * (top_temporaries - temporaries_synced). */
    uint64_t room;
    uint64_t room_synced;
    uint64_t temporaries_synced;
    table *table;     /* &no_table when it has none */
    /* Copies of its table's entries and byte_mask, which only the owner changes (see
     * use_table): the fast paths index the table without loading its address first. */
    entry *entries;
    uint64_t byte_mask;
    counters n;
    uint32_t depth;   /* open regions */
    uint32_t excluded_depth;
    uint64_t scope_id; /* innermost open region, 0 when none */
    lifetimes_block *life; /* the innermost open region's temporaries and size classes (lifetimes.c) */
    /* The innermost open region's own blocks this thread freed while it was open (see
     * reclaimed_requested): at a fixed place, so the fast free adds without an index. */
    uint64_t top_reclaimed_requested, top_reclaimed_usable;
    /* How many of those blocks (the region's temporaries; their requested bytes are
     * top_reclaimed_requested): one add at a fixed place; lifetimes.c gets it at close. */
    uint64_t top_temporaries;
    /* Allocations counted while excluded (regions derive what they attributed from these:
     * everything counted while they were open, less the excluded stretches): the totals
     * of closed stretches, and the counts when the open one began. */
    uint64_t excluded_allocations, excluded_requested, excluded_usable;
    uint64_t excluded_since_allocations, excluded_since_requested, excluded_since_usable;
    uint32_t registry_slot; /* its index in registry, while it is there */
    /* Regions, by depth (1-based): their ids, and the bytes of their own blocks this
     * thread freed while they were open, credited to the deepest region that holds the
     * block and folded into its parent when it closes (an inner region's figures are
     * its own; the outer's include them). The innermost region's are top_reclaimed_*. */
    uint64_t stack[MAX_DEPTH + 1];
    uint64_t reclaimed_requested[MAX_DEPTH + 1];
    uint64_t reclaimed_usable[MAX_DEPTH + 1];
    uint64_t temporaries[MAX_DEPTH + 1]; /* and how many blocks, as top_temporaries */
    /* Of those, the general path's share: the fast free credits reclaimed bytes only, the
     * general path also credits releasable and tracked frees, so a region subtracts these. */
    uint64_t general_reclaimed_requested[MAX_DEPTH + 1];
    uint64_t general_reclaimed_usable[MAX_DEPTH + 1];
} thread_state;

static TLS thread_state tls;
/* Live threads, under registry_lock: an array of pointers, not a list linked through the
 * threads' TLS. A thread that first calls the hooks after its TLS destructors ran (from the
 * last round of pthread key destructors, or libc's own thread cleanup) is never unregistered,
 * since its exit key's destructor cannot run any more; a new thread reusing its TLS block (the
 * stack cache) sits at the same address. Links stored in that block would be overwritten by
 * the new thread's zeroed TLS and the list would loop or lose live threads; an array entry is
 * just found again and reused (see join). PROFCTL_MAX_THREADS live threads at most: beyond
 * that a thread counts straight into the retired totals, as an exited one does. */
static thread_state *registry[PROFCTL_MAX_THREADS];
static uint32_t registry_high; /* slots in use lie below this */

static pthread_key_t exit_key;
static _Atomic int exit_key_state; /* 0 none, 1 creating, 2 ready, 3 failed */

/* What every call reads, on one line. */
static struct {
    _Atomic int fast;         /* mode FULL, usable sizes from headers, no window, no sites: the fast paths apply */
    _Atomic int sites_fast;   /* the same, with sites captured: the fast paths' copies that call sites.c */
    _Atomic int mode;         /* profctl_hooks_set_mode */
    _Atomic int header_ok;    /* usable sizes from chunk headers */
    _Atomic uint64_t window;  /* epoch of the open window (24 bits, never 0), 0 when none */
} hot __attribute__((aligned(64))) = { 0, 0, PROFCTL_HOOKS_FULL, 0, 0 };

static _Atomic int chained; /* forwarding to another interposer (PROFCTL_HOOKS_CHAIN=1) */

/* Sites captured or not is part of `fast`, so that the fast paths test nothing for them:
 * with sites on, malloc and free take copies of themselves that call sites.c, from the
 * branch that already leads away from the fast path. */
static void update_fast(void) {
    int base = atomic_load(&hot.mode) == PROFCTL_HOOKS_FULL && atomic_load(&hot.header_ok) &&
               atomic_load(&hot.window) == 0 && !atomic_load(&chained);
    int sites = profctl_sites_on != 0;
    atomic_store(&hot.fast, base && !sites);
    atomic_store(&hot.sites_fast, base && sites);
}

void profctl_hooks_sites_changed(void) { update_fast(); }

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
    /* (word & 2) << 2 is 8 for an mmapped chunk: a second header word. No branch. */
    return (word & ~(size_t)7) - sizeof(size_t) - ((word & 2) << 2);
}

/* The same on malloc's and free's fast paths: a heap chunk (almost every block) in two
 * instructions after the load, an mmapped one (large blocks) on a predicted branch. */
static ALWAYS_INLINE size_t usable_fast(void *p) {
    size_t word = ((size_t *)p)[-1];
    if (UNLIKELY(word & 2)) {
        /* (An empty asm keeps the compiler from turning the branch into a select, which
         * costs the heap chunk three instructions more.) The flag bits stay as they are. */
        __asm__ volatile("" : "+r"(word));
        word -= sizeof(size_t);
    }
    /* (word | 7) - 15 is (word & ~7) - 8. */
    return (word | 7) - 15;
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
        if (!a || !b || usable_from_header(a) != fn(a) || usable_from_header(b) != fn(b) ||
            usable_fast(a) != fn(a) || usable_fast(b) != fn(b)) ok = 0;
        __libc_free(a);
        __libc_free(b);
    }
    atomic_store(&hot.header_ok, ok);
    update_fast();
}

static void fork_prepare(void), fork_parent(void), fork_child(void); /* see "fork" below */

__attribute__((constructor(101))) static void resolve_at_load(void) {
    uint8_t state = tls.state;
    tls.state = STATE_BUSY;
    /* (It may allocate: this thread is BUSY, so that just forwards.) */
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    resolve_usable_size();
    check_header_usable_size();
    const char *chain = getenv("PROFCTL_HOOKS_CHAIN");
    if (chain && chain[0] == '1') {
        void *f;
        if ((f = dlsym(RTLD_NEXT, "malloc"))) next_malloc = (void *(*)(size_t))f;
        if ((f = dlsym(RTLD_NEXT, "free"))) next_free = (void (*)(void *))f;
        if ((f = dlsym(RTLD_NEXT, "calloc"))) next_calloc = (void *(*)(size_t, size_t))f;
        if ((f = dlsym(RTLD_NEXT, "realloc"))) next_realloc = (void *(*)(void *, size_t))f;
        if ((f = dlsym(RTLD_NEXT, "aligned_alloc"))) next_aligned = (void *(*)(size_t, size_t))f;
        if ((f = dlsym(RTLD_NEXT, "valloc"))) next_valloc = (void *(*)(size_t))f;
        /* Its own bookkeeping calls malloc, which lands here: the general path, which runs
         * it with the thread BUSY so it forwards uncounted. */
        atomic_store(&chained, 1);
        update_fast();
    }
    tls.state = state;
}

/* ---- the owner's live count ----
 * The fast paths count inserts in tls.room and frees in tls.top_temporaries (one add each
 * at a fixed offset) instead of table->live; every owner path that reads or changes
 * table->live, or changes top_temporaries, settles first and opens the room again after.
 * Nothing else on the thread runs in between. */

/* Folds what thread s's fast paths did since its last settle into its table's live count;
 * closes its room. The thread's own call, but for a fork's child (see "fork"). */
static inline void settle_live_of(thread_state *s, table *t) {
    t->live = t->live + (s->room_synced - s->room) - (s->top_temporaries - s->temporaries_synced);
    s->room = s->room_synced = 0;
    s->temporaries_synced = s->top_temporaries;
}

/* The same for the calling thread. */
static inline void settle_live(table *t) { settle_live_of(&tls, t); }

/* Opens the room for the fast insert: up to half the capacity, once the table is published
 * and has entries; else 0, which sends the insert the slow way (publishing, growing). */
static inline void open_room(const table *t) {
    uint64_t limit = tls.published && has_entries(t) ? (t->mask + 1) / 2 : 0;
    tls.room = tls.room_synced = limit > t->live ? limit - t->live : 0;
    tls.temporaries_synced = tls.top_temporaries;
}

/* The thread's table, and the copies of its array the fast paths read. */
static inline void use_table(table *t) {
    tls.table = t;
    tls.entries = t->entries;
    tls.byte_mask = t->byte_mask;
}

/* ---- thread registry ---- */

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

/* A new thread joins the registry and claims a table. Called with state BUSY. False when the
 * registry is full: the thread then counts as an exited one does. */
static bool join(void) {
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

/* ---- fork ----
 * fork copies the calling thread alone: a lock another thread held at that moment would
 * stay held in the child for good, and the child's next thread to join (the registry's
 * lock), free a block another thread tracked (a table's) or capture a site (sites.c's)
 * would spin on it for ever. So the forking thread takes them all first, which also waits
 * out whatever they guard being half changed, and releases them on both sides. No path
 * holds one of these locks while taking another (join and thread_exiting take a table's
 * and the registry's one after the other), so taking them all in this order cannot
 * deadlock. Tables claimed from tables_high_water up were being joined when it was read:
 * join only sets plain fields under their lock, so the child simply releases theirs. */
static uint32_t fork_locked_tables;

static void fork_prepare(void) {
    spin_lock(&registry_lock);
    uint32_t high = atomic_load(&tables_high_water);
    for (uint32_t i = 0; i < high; i++) spin_lock(&tables[i].lock);
    fork_locked_tables = high;
    profctl_sites_fork_prepare();
}

static void fork_parent(void) {
    profctl_sites_fork_done();
    for (uint32_t i = fork_locked_tables; i > 0; i--) spin_unlock(&tables[i - 1].lock);
    spin_unlock(&registry_lock);
}

/* The child, the forking thread its only one. The others' TLS blocks lie in their stacks,
 * which glibc hands to its stack cache in the child and unmaps when it trims the cache (at
 * the child's next new threads): they leave the registry now, as exiting threads do, their
 * counters folded into the retired totals and their tables left to others, so that no sum
 * reads a block that is gone. */
static void fork_child(void) {
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
        registry[i] = NULL;
        atomic_fetch_add(&threads_exited, 1);
    }
}

/* ---- table operations ---- */

/* A block's home slot: its address in units of 16 bytes (glibc's alignment), modulo the
 * capacity. No multiply: the fast paths compute it as a byte offset, (a << 1) & byte_mask,
 * in three instructions. Heap blocks sit side by side, so consecutive addresses take
 * distinct slots; what collides is addresses a multiple of 16 x capacity apart (large
 * mmapped blocks, page-aligned, share capacity/256 homes), which linear probing absorbs. */
static inline uint64_t home_of(const table *t, uintptr_t a) {
    return (uint64_t)(a >> 4) & t->mask;
}

/* The home slot in the calling thread's own table, from its TLS copies (see use_table). */
static ALWAYS_INLINE entry *own_home_entry(uintptr_t a) {
    return (entry *)((char *)tls.entries + (((uint64_t)a << 1) & tls.byte_mask));
}

/* Index of a in the table, or -1. Safe for the owner at any time; for another thread
 * only under the lock and inside a seq-validated read. */
static ALWAYS_INLINE int64_t find(const table *t, uintptr_t a) {
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
    tls.published = 1;
}

/* Under the lock, when the table is empty: other threads need not look here. */
static void unpublish_locked(table *t) {
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

/* Rebuilds the table at the given capacity without its dead entries, under the lock:
 * readers on other threads hold it while they look. The owner's call. */
static bool rebuild(table *t, uint64_t capacity) {
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

/* Room for one more entry at under half load: the dead ones go first, then it doubles. */
static bool make_room(table *t) {
    uint64_t dead = atomic_load_explicit(&t->dead, memory_order_relaxed);
    uint64_t capacity = has_entries(t) ? t->mask + 1 : 512;
    while ((t->live - dead + 1) * 2 > capacity) capacity *= 2;
    if (capacity < 1024) capacity = 1024;
    return rebuild(t, capacity);
}

/* Sheds dead entries, when there are any. The owner's call, outside the hot paths. */
static void purge(table *t) {
    if (atomic_load_explicit(&t->dead, memory_order_relaxed) && has_entries(t)) rebuild(t, t->mask + 1);
}

/* The owner inserts a block; an entry already there for the address is stale (its block
 * was freed on a path the hooks did not see) and is overwritten. Called settled. */
static inline void own_insert(table *t, uintptr_t a, uint64_t requested, uint64_t usable, uint64_t tag) {
    if (UNLIKELY(!tls.published)) publish(t);
    if (UNLIKELY((t->live + 1) * 2 > t->mask + 1)) {
        if (!make_room(t)) return;
    }
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
static ALWAYS_INLINE void own_remove_at(table *t, uint64_t i) {
    entry *es = t->entries;
    uint64_t mask = t->mask, j = (i + 1) & mask;
    t->live--;
    if (LIKELY(es[j].address == 0)) {
        /* Nothing after it in the run: no entry moves, no reader can miss one. */
        __atomic_store_n(&es[i].address, 0, __ATOMIC_RELAXED);
        return;
    }
    /* A locked add, a full barrier: a thread marking an entry dead (a compare-and-swap)
     * either lands before the entries are read for moving, or sees the count change. */
    atomic_fetch_add_explicit(&t->seq, 1, memory_order_seq_cst);
    for (;; j = (j + 1) & mask) {
        uintptr_t a = __atomic_load_n(&es[j].address, __ATOMIC_RELAXED);
        if (a == 0) break;
        uint64_t home = home_of(t, a); /* a dead entry's low bit does not change its home */
        /* The entry at j may move to i unless its home lies cyclically in (i, j]. */
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            es[i] = es[j];
            i = j;
        }
    }
    __atomic_store_n(&es[i].address, 0, __ATOMIC_RELAXED);
    atomic_store_explicit(&t->seq, atomic_load_explicit(&t->seq, memory_order_relaxed) + 1, memory_order_release);
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

static inline uint64_t even_seq(table *t) {
    uint64_t seq;
    while ((seq = atomic_load_explicit(&t->seq, memory_order_acquire)) & 1) { }
    return seq;
}

/* ---- accounting ----
 * Two paths. The fast one (state READY, hot.fast: mode FULL, usable sizes from headers,
 * no window) is what runs almost always: no reentrancy guard is needed there because it
 * calls nothing that can allocate. Everything else (a new or exiting thread, a nested call,
 * the benchmark modes, an open window) takes the general path, under the guard. */


/* A counter of `n`: a plain add in the calling thread's own block, a locked one in the
 * shared retired totals (a thread past its exit). `shared` is a constant on the fast paths. */
#define ADD(n, shared, field, amount) do { \
    if (shared) __atomic_fetch_add(&(n)->field, (amount), __ATOMIC_RELAXED); \
    else (n)->field += (amount); \
} while (0)

/* The general path's insert. The attributed counters are the window's (summed over threads);
 * a region derives its own from everything counted while it was open (see attributed_now),
 * which is why the fast insert keeps none. */
static ALWAYS_INLINE void track_own(void *p, size_t requested, size_t usable, uint64_t window) {
    table *t = tls.table;
    tls.n.c.attributed_allocations += 1;
    SEPARATE();
    tls.n.c.attributed_requested += requested;
    SEPARATE();
    tls.n.c.attributed_usable += usable;
    if (tls.depth) lifetimes_allocated(tls.life, requested, usable);
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

/* An entry whose usable size differs from the block's is stale: the block it named was
 * freed on a path the hooks did not see, and the address reused. Dropped, not credited. */
static ALWAYS_INLINE bool fresh_entry(const entry *e, size_t usable) { return !usable || !e->usable || e->usable == usable; }

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
                tls.top_reclaimed_requested += e.requested;
                tls.top_reclaimed_usable += e.usable;
                tls.top_temporaries += 1;
            } else {
                tls.reclaimed_requested[j] += e.requested;
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

/* ---- the owner's fast paths, in a region with no window ----
 * What a thread does to its own blocks almost always: an insert into a published table
 * with room, and the free of the block it allocated last in a probe run of one. These are
 * leaves that save no registers; everything else goes to the general functions above. */

/* The fast insert's way out, with the room it took given back. */
static SLOW void *track_slow(void *p, size_t requested, size_t usable) {
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

/* Tracks a block allocated on the fast path, inline in malloc (one frame, no call): the
 * table has room (published, not growing) and the block's home slot is empty. It keeps
 * no attributed counters (a region derives them) and no live count (the room is it).
 * Anything else is own_insert's, out of line. */
static ALWAYS_INLINE void *track_fast(void *p, size_t requested, size_t usable) {
    lifetimes_allocated(tls.life, requested, usable); /* tracking: a region is open */
    /* Takes one from the room; at 0 it wraps, and track_slow gives it back. */
    if (UNLIKELY(__builtin_sub_overflow(tls.room, (uint64_t)1, &tls.room))) return track_slow(p, requested, usable);
    uintptr_t a = (uintptr_t)p;
    entry *e = own_home_entry(a);
    if (UNLIKELY(e->address != 0)) return track_slow(p, requested, usable);
    e->requested = requested;
    e->usable = usable;
    e->tag = tls.scope_id; /* no window on the fast path: the scope alone, already within SCOPE_MASK */
    /* The address last: a reader on another thread sees a whole entry or none. */
    __atomic_store_n(&e->address, a, __ATOMIC_RELEASE);
    return p;
}

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

/* Accounts for freeing p (any path), before it is freed. */
static void account_free(void *p, size_t usable, uint8_t state) {
    bool shared = state == STATE_EXITED;
    counters *n = shared ? &retired : &tls.n;
    ADD(n, shared, c.frees, 1);
    ADD(n, shared, c.freed_usable, usable);
    if (UNLIKELY(profctl_sites_on) && !shared) profctl_sites_free(p, usable);
    if (untrack_own(p, usable)) return;
    if (atomic_load_explicit(&published_count, memory_order_relaxed) > tls.published) foreign_free(p, usable, n, shared);
}

/* ---- the general path ---- */

static _Atomic uint64_t next_window_epoch = 1;
static _Atomic int window_open;

/* Enters the general path: false when the call must just forward (a nested call, or
 * the hooks forwarding only). */
static inline bool enter(void) {
    if (tls.state == STATE_BUSY) return false;
    if (atomic_load_explicit(&hot.mode, memory_order_relaxed) == PROFCTL_HOOKS_FORWARD) return false;
    if (tls.state == STATE_NEW) {
        tls.state = STATE_BUSY;
        tls.state = join() ? STATE_READY : STATE_EXITED;
    }
    return true;
}

/* For regions and windows: joined whatever the mode. */
static bool enter_always(void) {
    if (tls.state == STATE_BUSY) return false;
    if (tls.state == STATE_NEW) {
        tls.state = STATE_BUSY;
        tls.state = join() ? STATE_READY : STATE_EXITED;
    }
    return true;
}

static inline size_t usable_if_counted(void *p) {
    if (atomic_load_explicit(&hot.mode, memory_order_relaxed) == PROFCTL_HOOKS_COUNT) return 0;
    return usable_size_of(p);
}

static SLOW void account_allocation_general(void *p, size_t requested) {
    if (!p || !enter()) return;
    uint8_t state = tls.state;
    tls.state = STATE_BUSY;
    size_t usable = usable_if_counted(p);
    if (state == STATE_EXITED) {
        __atomic_fetch_add(&retired.allocations, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&retired.requested, requested, __ATOMIC_RELAXED);
        __atomic_fetch_add(&retired.usable, usable, __ATOMIC_RELAXED);
    } else {
        tls.n.allocations += 1;
        tls.n.requested += requested;
        tls.n.usable += usable;
        uint64_t window = atomic_load_explicit(&hot.window, memory_order_relaxed);
        if ((tls.depth | window) && !tls.excluded_depth && tls.table != &no_table) {
            if (UNLIKELY(profctl_sites_on) && tls.depth) profctl_sites_alloc(p, requested, usable, 0, NULL);
            track_own(p, requested, usable, window);
        }
    }
    tls.state = state;
}

static SLOW void free_general(void *p) {
    if (!enter()) { next_free(p); return; }
    uint8_t state = tls.state;
    tls.state = STATE_BUSY;
    account_free(p, usable_if_counted(p), state);
    next_free(p); /* still BUSY: what the allocator underneath frees for itself is not counted */
    tls.state = state;
}

/* ---- the replaced malloc family ---- */

static ALWAYS_INLINE bool fast(void) {
    return LIKELY(tls.state == STATE_READY) && LIKELY(atomic_load_explicit(&hot.fast, memory_order_relaxed));
}

/* The fast path with sites captured: tested only where fast() failed. */
static inline bool sites_fast(void) {
    return tls.state == STATE_READY && atomic_load_explicit(&hot.sites_fast, memory_order_relaxed);
}

/* An allocation on the fast path; returns p (a tail call when it is tracked). */
static ALWAYS_INLINE void *account_fast(void *p, size_t requested) {
    size_t usable = usable_fast(p);
    tls.n.allocations += 1;
    SEPARATE();
    tls.n.requested += requested;
    SEPARATE();
    tls.n.usable += usable;
    if (UNLIKELY(tls.tracking)) return track_fast(p, requested, usable);
    return p;
}

/* account_fast with sites captured, called by the allocating function itself (malloc,
 * calloc, an aligned allocation) with its return address: the walk starts from this
 * function's frame, whose saved frame pointer is the allocating function's, so the stack
 * is the one a call straight from that function would see. */
static SLOW void *account_sites(void *p, size_t requested, uintptr_t caller) {
    size_t usable = usable_fast(p);
    tls.n.allocations += 1;
    tls.n.requested += requested;
    tls.n.usable += usable;
    if (tls.tracking) {
        profctl_sites_alloc(p, requested, usable, caller, __builtin_frame_address(0));
        return track_fast(p, requested, usable);
    }
    return p;
}

enum { ALLOC_MALLOC, ALLOC_CALLOC, ALLOC_ALIGNED, ALLOC_VALLOC, ALLOC_PVALLOC };

/* The general path of an allocation. The allocator underneath runs with the thread BUSY,
 * so whatever it allocates for itself (heaptrack's bookkeeping, when chained) forwards
 * uncounted. */
static SLOW void *allocate_general(int kind, size_t a, size_t b) {
    bool entered = enter();
    uint8_t state = tls.state;
    if (entered) tls.state = STATE_BUSY;
    void *p = NULL;
    size_t requested = a;
    switch (kind) {
    case ALLOC_MALLOC: p = next_malloc(a); break;
    case ALLOC_CALLOC:
        p = next_calloc(a, b);
        if (__builtin_mul_overflow(a, b, &requested)) p = NULL;
        break;
    case ALLOC_ALIGNED: p = next_aligned(a, b); requested = b; break;
    case ALLOC_VALLOC: p = next_valloc(a); break;
    default: p = __libc_pvalloc(a); break;
    }
    if (entered) {
        tls.state = state;
        account_allocation_general(p, requested);
    }
    return p;
}

void *malloc(size_t size) {
    if (fast()) {
        void *p = next_malloc(size);
        if (LIKELY(p != NULL)) return account_fast(p, size);
        return p;
    }
    /* Forwarding only (the benchmark's baseline): as little as the checks above. */
    if (atomic_load_explicit(&hot.mode, memory_order_relaxed) == PROFCTL_HOOKS_FORWARD) return next_malloc(size);
    if (sites_fast()) {
        void *p = next_malloc(size);
        return p ? account_sites(p, size, (uintptr_t)__builtin_return_address(0)) : p;
    }
    return allocate_general(ALLOC_MALLOC, size, 0);
}

/* A free the fast path could not finish: the general search, then the allocator. */
static SLOW void free_tracked_slow(void *p, size_t usable) {
    if (!untrack_own(p, usable) && atomic_load_explicit(&published_count, memory_order_relaxed) != tls.published) {
        tls.state = STATE_BUSY;
        foreign_free(p, usable, &tls.n, false);
        tls.state = STATE_READY;
    }
    next_free(p);
}

/* The fast path's free of a block that may be tracked (some thread's table is published):
 * inline in free, in scratch registers only, so free still saves none. It finishes the
 * common case itself, untrack_own's work cut down to it: the owner freeing a fresh entry in
 * its home slot that nothing follows (no entry moves), allocated in the innermost open
 * region, with no window open (hot.fast). It credits that region's own bytes only (a region
 * derives its releasable and tracked frees from them at its close) and counts a temporary,
 * which the next settle takes off the live count.
 * Everything else, this thread's empty table included, is free_tracked_slow's. */
static ALWAYS_INLINE void free_maybe_tracked(void *p, size_t usable) {
    uintptr_t a = (uintptr_t)p;
    uint64_t byte_mask = tls.byte_mask;
    uint64_t at = ((uint64_t)a << 1) & byte_mask;
    char *es = (char *)tls.entries;
    entry *e = (entry *)(es + at);
    if (LIKELY(e->address == a) && LIKELY(e->usable == usable) &&
        LIKELY(((entry *)(es + at + sizeof(entry)))->address == 0) && /* the last slot: SENTINEL */
        LIKELY(e->tag == tls.scope_id)) { /* (a block tracked in a window has epoch bits too: the general way) */
        uint64_t requested = e->requested;
        __atomic_store_n(&e->address, 0, __ATOMIC_RELAXED);
        tls.top_reclaimed_requested += requested;
        SEPARATE();
        tls.top_reclaimed_usable += usable;
        SEPARATE();
        tls.top_temporaries += 1;
        next_free(p);
        return;
    }
    free_tracked_slow(p, usable);
}

/* free's fast path with sites captured: sites.c first, then the same as free's. */
static SLOW void free_sites(void *p) {
    size_t usable = usable_fast(p);
    profctl_sites_free(p, usable);
    tls.n.c.frees += 1;
    tls.n.c.freed_usable += usable;
    if (atomic_load_explicit(&published_count, memory_order_relaxed) != 0) {
        free_maybe_tracked(p, usable);
        return;
    }
    next_free(p);
}

void free(void *p) {
    if (!p) return;
    if (fast()) {
        size_t usable = usable_fast(p);
        tls.n.c.frees += 1;
        SEPARATE();
        tls.n.c.freed_usable += usable;
        /* published_count counts this thread's own table too, when it may have entries. */
        /* (No hint: with one the compiler splits the tracked case out of free, whose frame
         * then costs every call two instructions.) */
        if (any_published()) {
            free_maybe_tracked(p, usable);
            return;
        }
        next_free(p);
        return;
    }
    if (atomic_load_explicit(&hot.mode, memory_order_relaxed) == PROFCTL_HOOKS_FORWARD) { next_free(p); return; }
    if (sites_fast()) { free_sites(p); return; }
    free_general(p);
}

void *calloc(size_t count, size_t size) {
    if (fast()) {
        void *p = next_calloc(count, size);
        size_t total;
        if (p && !__builtin_mul_overflow(count, size, &total)) account_fast(p, total);
        return p;
    }
    if (sites_fast()) {
        void *p = next_calloc(count, size);
        size_t total;
        if (p && !__builtin_mul_overflow(count, size, &total)) account_sites(p, total, (uintptr_t)__builtin_return_address(0));
        return p;
    }
    return allocate_general(ALLOC_CALLOC, count, size);
}

void *realloc(void *old, size_t size) {
    if (!old) return malloc(size);
    if (size == 0) { free(old); return NULL; }
    if (!enter()) return next_realloc(old, size);
    uint8_t state = tls.state;
    tls.state = STATE_BUSY;
    /* Counted as a free of the old block and an allocation of the new one. The entry goes
     * before glibc releases the old address, which another thread may be handed at once
     * (a failed realloc, out of memory, leaves the old block counted as freed). */
    account_free(old, usable_if_counted(old), state);
    void *p = next_realloc(old, size);
    tls.state = state;
    if (p) account_allocation_general(p, size);
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
    if (fast()) {
        void *p = next_aligned(alignment, size);
        if (p) account_fast(p, size);
        return p;
    }
    if (sites_fast()) {
        void *p = next_aligned(alignment, size);
        if (p) account_sites(p, size, (uintptr_t)__builtin_return_address(0));
        return p;
    }
    return allocate_general(ALLOC_ALIGNED, alignment, size);
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

void *valloc(size_t size) { return allocate_general(ALLOC_VALLOC, size, 0); }
void *pvalloc(size_t size) { return allocate_general(ALLOC_PVALLOC, size, 0); }

/* What glibc hands back for `requested` bytes when it splits a chunk to fit: the request
 * plus the size word, rounded up to 16, at least 32, less the size word. */
static inline size_t split_usable(uint64_t requested) {
    uint64_t chunk = (requested + sizeof(size_t) + 15) & ~(uint64_t)15;
    return (size_t)(chunk < 32 ? 32 : chunk) - sizeof(size_t);
}

/* A block allocated in the open region (its own table holds it): the usable size an exact
 * split gives its request, never more than the block has. glibc hands a free chunk back
 * whole when splitting it would leave under 32 bytes, so a request gets 16 or 32 bytes more
 * or not depending on which chunks happen to be free: on the heap's history, which other
 * threads (the writer, Foundation's), the hash seed and timing change from run to run.
 * Swift's Array and String take their capacity from this answer, so with the chunk's own
 * size a region grew a buffer or not, and counted one allocation and 32 bytes more or not,
 * from one identical run to the next (docs/hooks.md, "Usable sizes in a region"). */
static SLOW size_t region_usable_size(void *p, size_t usable) {
    table *t = tls.table;
    int64_t i = find(t, (uintptr_t)p);
    if (i < 0 || !fresh_entry(&t->entries[i], usable)) return usable;
    size_t split = split_usable(t->entries[i].requested);
    return split < usable ? split : usable;
}

size_t malloc_usable_size(void *p) {
    if (!p) return 0;
    if (atomic_load_explicit(&hot.header_ok, memory_order_relaxed)) {
        size_t usable = usable_from_header(p);
        if (UNLIKELY(tls.tracking)) return region_usable_size(p, usable);
        return usable;
    }
    uint8_t state = tls.state;
    tls.state = STATE_BUSY; /* dlsym may allocate */
    size_t n = usable_size_slow(p);
    tls.state = state;
    return n;
}

/* ---- regions ---- */

static inline uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

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
    r->parent_scope_id = tls.scope_id;
    r->scope_id = id;
    r->slot = (uint32_t)(t - tables);
    r->depth = k;
    tls.stack[k] = id;
    /* The region below keeps its own bytes in the stack while this one is on top. */
    tls.reclaimed_requested[k - 1] = tls.top_reclaimed_requested;
    tls.reclaimed_usable[k - 1] = tls.top_reclaimed_usable;
    tls.temporaries[k - 1] = tls.top_temporaries;
    tls.top_reclaimed_requested = tls.top_reclaimed_usable = tls.top_temporaries = 0;
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
    tls.life = lifetimes_open(r->slot, k, id);
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
    /* Its own blocks freed on this thread (fast and general), and the general path's share. */
    uint64_t own_requested = tls.top_reclaimed_requested, own_usable = tls.top_reclaimed_usable;
    uint64_t own_temporaries = tls.top_temporaries;
    tls.top_temporaries = k > 1 ? tls.temporaries[k - 1] + own_temporaries : 0;
    uint64_t general_requested = tls.general_reclaimed_requested[k], general_usable = tls.general_reclaimed_usable[k];
    tls.top_reclaimed_requested = k > 1 ? tls.reclaimed_requested[k - 1] + own_requested : 0;
    tls.top_reclaimed_usable = k > 1 ? tls.reclaimed_usable[k - 1] + own_usable : 0;
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
    update_tracking();
    open_room(t);

    const profctl_snapshot now = region_counters(), *then = &r->start;
    out->allocations = minus(now.attributed_allocations, then->attributed_allocations);
    out->requested_bytes = minus(now.attributed_requested, then->attributed_requested);
    out->usable_bytes = minus(now.attributed_usable, then->attributed_usable);
    out->frees = minus(now.frees, then->frees);
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

int lifetimes_thread_position(uint32_t *slot, uint32_t *depth) {
    if (tls.table == &no_table || tls.state == STATE_NEW) return 0;
    *slot = (uint32_t)(tls.table - tables);
    *depth = tls.depth;
    return 1;
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

/* ---- process-wide sums ---- */

static void sum_counters(counters *out) {
    uint64_t *sum = &out->allocations;
    memset(out, 0, sizeof *out);
    spin_lock(&registry_lock);
    for (size_t k = 0; k < COUNTERS; k++) sum[k] = __atomic_load_n(&(&retired.allocations)[k], __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < registry_high; i++) {
        if (!registry[i]) continue;
        const uint64_t *from = &registry[i]->n.allocations;
        for (size_t k = 0; k < COUNTERS; k++) sum[k] += peek(&from[k]);
    }
    spin_unlock(&registry_lock);
}

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
    counters sum;
    sum_counters(&sum);
    const profctl_snapshot now = sum.c, *then = &w->start;
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
}

int profctl_window_is_open(void) { return atomic_load(&window_open); }

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

void profctl_hooks_set_mode(int mode) {
    atomic_store(&hot.mode, mode);
    update_fast();
}

int profctl_hooks_header_usable_size(void) { return atomic_load(&hot.header_ok); }

void *profctl_underlying_malloc(size_t size) { return __libc_malloc(size); }
void profctl_underlying_free(void *pointer) { __libc_free(pointer); }
