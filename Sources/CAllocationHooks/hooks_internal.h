/*
 * The hooks' private header: the state their files share (each thread's counters and
 * table of tracked blocks, the registry of threads, the flags every call reads) and the
 * small functions several of them inline. Never included by a public header.
 *
 * The files, and the one direction their calls go (docs/hooks.md, "The files"):
 *
 *   platform_glibc.c   the platform seam: the malloc family itself, the allocator under it
 *        |             (glibc, or the next interposer), usable sizes. A port replaces it.
 *        |  fast_paths.h  what malloc and free do inline on their fast paths
 *        v
 *   accounting.c       the general path: counting, tracking, crediting frees (any thread's)
 *   regions.c          regions and exclusion          windows.c   the process-wide window
 *   meter_scopes.c     opening and closing task meters (meters.c keeps and credits them)
 *        |
 *        v
 *   registry.c         threads joining and leaving, process-wide sums
 *   peaks.c            the peaks of regions and the window
 *   tracked_table.c    the tables of tracked blocks (the inline half is below)
 *   modes.c            the flags every call reads (`hot`), the benchmark's modes
 *   fork.c             the fork handler
 *        |
 *        v
 *   lifetimes.c, runtime_caches.c, sites.c (and a new concern, such as swift_runtime.c):
 *   leaves that call nothing of the hooks; the hooks call them and hand them what they need.
 *
 * The shape, for speed: everything a thread does to its own blocks touches only its own
 * counters and its own table of tracked blocks, with plain loads and stores (no locked
 * instruction, no lock). Another thread freeing one of its blocks finds the entry under
 * the table's lock, validated by a sequence count, and marks it dead with one
 * compare-and-swap (accounting.c, "foreign frees"); the owner takes its lock only when a
 * region opens or closes and when its table grows or sheds dead entries.
 */
#ifndef PROFCTL_HOOKS_INTERNAL_H
#define PROFCTL_HOOKS_INTERNAL_H

#include "hooks_base.h"
#include "lifetimes.h" /* the lifetimes block a thread points at */
#include "allocation_meters.h" /* what meters.c hands meter_scopes.c */

/* a - b, or 0 when b is larger: a region's or window's figure from two snapshots. */
static inline uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* ---- per-thread counters ---- */

/* What one thread counts: the first three on every allocation (but those its open region
 * tracks: see `counted` below), the rest what regions and windows read. They live in the
 * thread's own TLS block, so counting is one add to a fixed offset from the thread pointer;
 * other threads read them through the registry. */
typedef struct counters {
    uint64_t allocations, requested, usable;
    profctl_snapshot c;
} counters;

#define COUNTERS (sizeof(counters) / sizeof(uint64_t))

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

/* tracked_table.c's. A table with no entries yet points at empty_entries: one empty slot,
 * mask 0, so the fast paths look without testing for a missing array and always miss. */
extern HIDDEN entry empty_entries[2];
extern HIDDEN table tables[PROFCTL_MAX_THREADS];
extern HIDDEN table no_table; /* for threads beyond PROFCTL_MAX_THREADS: always empty */
extern HIDDEN _Atomic uint32_t tables_high_water; /* highest index claimed, + 1 */
/* Tables other threads must search when a free misses their own. */
extern HIDDEN _Atomic uint64_t published_tables[PROFCTL_MAX_THREADS / 64];
extern HIDDEN _Atomic uint32_t published_count;

static inline bool has_entries(const table *t) { return t->entries && t->entries != empty_entries; }

/* Whether any table is published, for free's fast path: a volatile read (the count only
 * changes by locked adds, and a 32-bit load is never torn), which the compiler folds into
 * the compare (cmpl $0, published_count) where an atomic load took a load and a test. */
static ALWAYS_INLINE bool any_published(void) { return *(volatile uint32_t *)&published_count != 0; }

/* ---- per-thread state ---- */

enum { STATE_NEW = 0, STATE_READY = 1, STATE_BUSY = 2, STATE_EXITED = 3, NOT_FAST = 0xff };

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
     * reclaimed_usable): their usable bytes, at a fixed place, so the fast free adds without
     * an index. Their requested bytes are not kept: they are the region's requested bytes
     * (its size classes) less its live bytes (top_live), which regions.c reads at its close
     * (own_reclaimed_requested): one add fewer per free. */
    uint64_t top_reclaimed_usable;
    /* How many of those blocks (the region's temporaries): one add at a fixed place;
     * lifetimes.c gets it at close. */
    uint64_t top_temporaries;
    /* The innermost open region's live requested bytes as its thread sees them (its own
     * allocations less its own blocks freed on this thread: other threads' frees of them
     * count at its close), and the highest of them just before one of those frees since the
     * last fold (peaks.c). Live bytes only fall at a free, so the highest point is the value
     * before some free or at the close: the allocation adds one figure and compares nothing. */
    uint64_t top_live, top_peak;
    /* Allocations counted while excluded (regions derive what they attributed from these:
     * everything counted while they were open, less the excluded stretches): the totals
     * of closed stretches, and the counts when the open one began. */
    uint64_t excluded_allocations, excluded_requested, excluded_usable;
    uint64_t excluded_since_allocations, excluded_since_requested, excluded_since_usable;
    uint32_t registry_slot; /* its index in registry, while it is there */
    /* Regions, by depth (1-based): their ids, and the usable bytes of their own blocks this
     * thread freed while they were open, credited to the deepest region that holds the
     * block and folded into its parent when it closes (an inner region's figures are
     * its own; the outer's include them). The innermost region's are top_reclaimed_usable. */
    uint64_t stack[MAX_DEPTH + 1];
    uint64_t reclaimed_usable[MAX_DEPTH + 1];
    uint64_t temporaries[MAX_DEPTH + 1]; /* and how many blocks, as top_temporaries */
    /* Of those, the general path's share: the fast free credits reclaimed bytes only, the
     * general path also credits releasable and tracked frees, so a region subtracts these. */
    uint64_t general_reclaimed_requested[MAX_DEPTH + 1];
    uint64_t general_reclaimed_usable[MAX_DEPTH + 1];
    /* Regions below the innermost, by depth: their peak so far, and how many live bytes
     * they hold beyond the innermost's (top_live), which only their own frees change while
     * a region above them is open (peaks.c). */
    uint64_t peak[MAX_DEPTH + 1];
    uint64_t live_beyond_top[MAX_DEPTH + 1];
    /* An allocation the innermost region tracks (tls.tracking) is counted once, in the
     * region's size classes (tls.life), and not in n's first three: three adds fewer per
     * allocation in a region. `counted` is what of those classes' sums n holds already
     * (allocations, requested, usable); regions.c folds the rest in whenever a region opens
     * or closes, and whoever else reads n adds it (unfolded_counts). `counted_below` keeps,
     * by depth, the regions below the innermost's `counted` while it is open. */
    uint64_t counted[3];
    uint64_t counted_below[MAX_DEPTH + 1][3];
    /* The same for frees: a free the innermost region credits as its own temporary
     * (top_temporaries, top_reclaimed_usable) is counted there only, not in n.c.frees and
     * n.c.freed_usable (two adds fewer per free in a region); these are what of those two
     * n holds already (regions.c folds the rest in when a region opens or closes). */
    uint64_t counted_temporaries, counted_reclaimed_usable;
} thread_state;

/* What thread s counted in its innermost region's size classes and own temporaries and not
 * yet in s->n (see thread_state.counted): allocations, requested and usable bytes, frees and
 * freed usable bytes. 0 outside regions. The owner's call, or another thread's under the
 * registry lock (relaxed loads, racing the owner as any read of its counters does). */
typedef struct unfolded {
    uint64_t allocations, requested, usable, frees, freed_usable;
} unfolded;

static inline unfolded unfolded_counts(const thread_state *s) {
    unfolded u = { 0, 0, 0, 0, 0 };
    const lifetimes_block *life = __atomic_load_n(&s->life, __ATOMIC_RELAXED);
    if (!__atomic_load_n(&s->depth, __ATOMIC_RELAXED) || !life) return u;
    uint64_t sums[3];
    lifetimes_sums(life, sums);
    u.allocations = minus(sums[0], peek(&s->counted[0]));
    u.requested = minus(sums[1], peek(&s->counted[1]));
    u.usable = minus(sums[2], peek(&s->counted[2]));
    u.frees = minus(peek(&s->top_temporaries), peek(&s->counted_temporaries));
    u.freed_usable = minus(peek(&s->top_reclaimed_usable), peek(&s->counted_reclaimed_usable));
    return u;
}

/* Adds u to a thread's counters (or the retired totals). */
static inline void add_unfolded(counters *n, unfolded u) {
    n->allocations += u.allocations;
    n->requested += u.requested;
    n->usable += u.usable;
    n->c.frees += u.frees;
    n->c.freed_usable += u.freed_usable;
}

/* registry.c's. */
extern HIDDEN TLS thread_state tls;
extern HIDDEN counters retired; /* folded in from exited threads, and counted after a thread's exit; locked adds */
extern HIDDEN atomic_flag registry_lock;
extern HIDDEN _Atomic uint64_t threads_exited;
extern HIDDEN thread_state *registry[PROFCTL_MAX_THREADS];
extern HIDDEN uint32_t registry_high; /* slots in use lie below this */

/* A new thread joins the registry and claims a table (registry.c). Called with state BUSY.
 * False when the registry is full: the thread then counts as an exited one does. */
HIDDEN bool join(void);

/* Sums every live and exited thread's counters (registry.c). */
HIDDEN void sum_counters(counters *out);

/* ---- what every call reads, on one line (modes.c's) ---- */

typedef struct hot_flags {
    /* The state a thread must be in for the fast paths: STATE_READY while they apply (mode
     * FULL, usable sizes from headers, no window, no sites, not chained), else NOT_FAST,
     * which no thread is in: so fast() is one compare of the thread's state with it. */
    _Atomic uint8_t fast;
    _Atomic int sites_fast;   /* the same, with sites captured: the fast paths' copies that call sites.c */
    _Atomic int mode;         /* profctl_hooks_set_mode */
    _Atomic int header_ok;    /* usable sizes from chunk headers (platform_glibc.c) */
    _Atomic int chained;      /* forwarding to another interposer (platform_glibc.c) */
    _Atomic uint64_t window;  /* epoch of the open window (24 bits, never 0), 0 when none */
} hot_flags;

extern HIDDEN hot_flags hot;

/* Derives `fast` and `sites_fast` from the rest; called whenever one of them changes. */
HIDDEN void update_fast(void);

/* ---- entering the general path ---- */

/* Enters the general path: false when the call must just forward (a nested call, or
 * the hooks forwarding only). A thread's first call joins; `first_call`, when given, runs
 * before that (the platform's entry points: platform_glibc.c finds the allocator to forward
 * to on the process's first call), at no cost to later calls. */
static ALWAYS_INLINE bool enter_first(void (*first_call)(void)) {
    if (tls.state == STATE_BUSY) return false;
    if (atomic_load_explicit(&hot.mode, memory_order_relaxed) == PROFCTL_HOOKS_FORWARD) return false;
    if (tls.state == STATE_NEW) {
        if (first_call) first_call();
        tls.state = STATE_BUSY;
        tls.state = join() ? STATE_READY : STATE_EXITED;
    }
    return true;
}

static inline bool enter(void) { return enter_first(NULL); }

/* For regions and windows: joined whatever the mode. */
static inline bool enter_always(void) {
    if (tls.state == STATE_BUSY) return false;
    if (tls.state == STATE_NEW) {
        tls.state = STATE_BUSY;
        tls.state = join() ? STATE_READY : STATE_EXITED;
    }
    return true;
}

/* ---- the owner's live count ----
 * The fast paths count inserts in tls.room and frees in tls.top_temporaries (one add each
 * at a fixed offset) instead of table->live; every owner path that reads or changes
 * table->live, or changes top_temporaries, settles first and opens the room again after.
 * Nothing else on the thread runs in between. */

/* Folds what thread s's fast paths did since its last settle into its table's live count;
 * closes its room. The thread's own call, but for a fork's child (fork.c). */
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

/* ---- table operations: the inline half (the rest is tracked_table.c) ---- */

/* A block's home slot: its address in units of 16 bytes (glibc's alignment), modulo the
 * capacity. No multiply: the fast paths compute it as a byte offset, (a << 1) & byte_mask,
 * in three instructions. Heap blocks sit side by side, so consecutive addresses take
 * distinct slots; what collides is addresses a multiple of 16 x capacity apart (large
 * mmapped blocks, page-aligned, share capacity/256 homes), which linear probing absorbs. */
static inline uint64_t home_of(const table *t, uintptr_t a) {
    return (uint64_t)(a >> 4) & t->mask;
}

/* The block's home slot as a byte offset in its table, (a << 1) & byte_mask. The doubling
 * is one `lea` written out: for malloc, where the address is still needed afterwards,
 * the compiler emitted `mov` and `add` (one instruction more per tracked allocation). */
static ALWAYS_INLINE uint64_t home_offset(uintptr_t a, uint64_t byte_mask) {
    uint64_t twice;
    __asm__("lea (%1,%1), %0" : "=r"(twice) : "r"((uint64_t)a));
    return twice & byte_mask;
}

/* The home slot in the calling thread's own table, from its TLS copies (see use_table). */
static ALWAYS_INLINE entry *own_home_entry(uintptr_t a) {
    return (entry *)((char *)tls.entries + home_offset(a, tls.byte_mask));
}

/* The table's sequence count once no entries are moving (an odd count: its owner is moving
 * some): what another thread's seq-validated read of it starts from (see find). */
static inline uint64_t even_seq(table *t) {
    uint64_t seq;
    while ((seq = atomic_load_explicit(&t->seq, memory_order_acquire)) & 1) { }
    return seq;
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

/* What glibc hands back for `requested` bytes when it splits a chunk to fit: the request
 * plus the size word, rounded up to 16, at least 32, less the size word. malloc_usable_size
 * answers it (never more than the block has) for a region's blocks and a meter's, so that
 * their figures do not depend on which free chunk the heap's history handed back
 * (docs/hooks.md, "Usable sizes in a region"). */
static ALWAYS_INLINE size_t split_usable(uint64_t requested) {
    uint64_t chunk = (requested + sizeof(size_t) + 15) & ~(uint64_t)15;
    return (size_t)(chunk < 32 ? 32 : chunk) - sizeof(size_t);
}

/* An entry whose usable size differs from the block's is stale: the block it named was
 * freed on a path the hooks did not see, and the address reused. Dropped, not credited. */
static ALWAYS_INLINE bool fresh_entry(const entry *e, size_t usable) { return !usable || !e->usable || e->usable == usable; }

HIDDEN void publish(table *t);
/* Under the lock, when the table is empty: other threads need not look here. */
HIDDEN void unpublish_locked(table *t);
/* Rebuilds the table at the given capacity without its dead entries, under the lock. */
HIDDEN bool rebuild(table *t, uint64_t capacity);
/* Room for one more entry at under half load: the dead ones go first, then it doubles. */
HIDDEN bool make_room(table *t);
/* Sheds dead entries, when there are any. The owner's call, outside the hot paths. */
HIDDEN void purge(table *t);

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


/* ---- peaks.c: the highest live bytes of regions and the window ---- */

/* A free of the innermost region's own block on its thread (the fast free, and the general
 * path's): the live bytes before it may be the highest point. A compare, a conditional
 * store and a subtraction, in registers the fast free already uses. */
static ALWAYS_INLINE void own_freed_peak(uint64_t requested) {
    uint64_t live = tls.top_live;
    if (live > tls.top_peak) tls.top_peak = live;
    tls.top_live = live - requested;
}
/* Called with the thread BUSY, before tls.depth changes: a region opens above the current
 * innermost (or the first one); the innermost closes, returning its peak. */
HIDDEN void peaks_region_opening(void);
HIDDEN uint64_t peaks_region_closing(void);
/* The general path freed a block that open regions 1..depth hold, not the innermost. */
HIDDEN void peaks_outer_freed(uint32_t depth, uint64_t requested);
/* The window's live requested bytes, on every thread (the general path, while it is open). */
extern HIDDEN _Atomic int64_t window_live;
static inline void window_allocated_peak(uint64_t requested) {
    atomic_fetch_add_explicit(&window_live, (int64_t)requested, memory_order_relaxed);
}
HIDDEN void window_freed_peak(uint64_t requested);
HIDDEN void peaks_window_opening(void);
HIDDEN uint64_t peaks_window_closing(void);

/* ---- accounting.c: the general path ---- */

/* An allocation the fast path did not count (any thread state but BUSY, any mode but
 * FORWARD), with its usable size (0 in mode COUNT). */
HIDDEN SLOW void account_allocation_general(void *p, size_t requested, size_t usable);
/* A free of p (any path), before the allocator frees it; `state` is the thread's state
 * before the caller set it BUSY. */
HIDDEN void account_free(void *p, size_t usable, uint8_t state);
/* The tracked free the fast path could not finish: the general search of this thread's
 * table, then the other threads'. */
HIDDEN SLOW void account_tracked_free(void *p, size_t usable);

/* The fast insert's way out (fast_paths.h): the room it took given back, the general
 * insert. In its own file on purpose: malloc, not seeing that it returns p, keeps nothing
 * for it and saves two registers fewer (6 instructions per malloc/free pair). */
HIDDEN SLOW void *track_slow(void *p, size_t requested, size_t usable);

/* ---- meters.c ---- */
/* Non-zero while a meter is open (allocation_meters.h): the fast paths are off, and the
 * general path calls the two below. */
extern HIDDEN volatile int meters_on;
/* An allocation on this thread (BUSY): credited to the calling task's meter, if any. */
HIDDEN void meter_allocated(void *p, size_t requested, size_t usable);
/* Any free: credited to the meter that allocated the block, if it is still open. */
HIDDEN void meter_freed(void *p);
/* malloc_usable_size of a block an open meter holds: the exact split's answer (split_usable),
 * never more than `usable`, the block's own; `usable` for any other block. */
HIDDEN size_t meter_usable_size(void *p, size_t usable);
/* A Swift object swift_allocObject just made (types.c), and retains or releases (swift_runtime.c):
 * credited to the calling task's meter when it captures them. */
HIDDEN void meter_object(void *object, const void *metadata, size_t requested);
HIDDEN void meter_arc(uint64_t retains, uint64_t releases);
/* Non-zero while a meter capturing types (or ARC) is open: the runtime hooks call in. */
extern HIDDEN volatile int profctl_meter_types_on;
extern HIDDEN volatile int meters_arc_on;
HIDDEN void meters_fork_prepare(void);
/* ---- runtime_caches.c ---- */
/* The runtimes' cache entry points' code ranges, once (the first meter's open). */
HIDDEN void runtime_caches_resolve(void);
/* Whether the allocation whose hook frame is `frame` comes from one of them. BUSY. */
HIDDEN bool runtime_cache_allocation(void *frame);
HIDDEN void meters_fork_done(void);
/* For meter_scopes.c: the key, a slot claimed (0: none free) and its id published, the
 * figures, a meter retired (no longer credited) and its slot freed, all blocks dropped. */
HIDDEN bool meters_set_key(const void *key);
HIDDEN bool meters_have_key(void);
HIDDEN uint64_t meters_claim(uint64_t parent, uint32_t capture);
HIDDEN uint32_t meters_capture(uint64_t id);
HIDDEN void meters_publish(uint64_t id);
HIDDEN int meters_read(uint64_t id, profctl_meter_result *result);
HIDDEN int meters_retire(uint64_t id, profctl_meter_result *result);
HIDDEN void meters_free_slot(uint64_t id);
HIDDEN void meters_forget_blocks(void);

/* ---- fork.c ---- */
HIDDEN void fork_prepare(void);
HIDDEN void fork_parent(void);
HIDDEN void fork_child(void);

#endif
