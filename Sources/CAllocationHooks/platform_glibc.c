/*
 * The platform seam, for glibc/Linux: the malloc family defined in the executable, so the
 * dynamic linker binds every library's malloc (the Swift runtime's, Foundation's,
 * SQLite's) to these, and each forwards to the allocator underneath (glibc's exported
 * __libc_* entry points). Everything that knows it is glibc underneath is in this file:
 * the entry points, where they forward, usable sizes read from glibc's chunk headers and
 * glibc's rule for splitting a chunk. A port (Darwin's malloc zones) replaces this file and
 * keeps the rest: the zone's functions call the same fast paths (fast_paths.h) and general
 * path (accounting.c), and define what usable_fast() reads here.
 *
 * Calls go down only: to fast_paths.h (inline), accounting.c, modes.c and fork.c.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "fast_paths.h"
#include "sites.h" /* record --sites: the fast paths' copies that capture sites */

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

/* ---- where the hooks forward ----
 * glibc, or another interposer's malloc: a profiler's preloaded library (heaptrack's, an
 * LD_PRELOAD malloc replacement) defines the malloc family too, but the executable's
 * definitions come first, so without this the dynamic linker would never call its malloc:
 * heaptrack, whose data pipe is opened on its library's first call, waited for ever on an
 * empty pipe. So on the hooks' first call (find_next) they look for the next definition
 * of malloc and, when it is not glibc's, forward to it (the chain) and say so on stderr:
 * the other tool sees every allocation and the hooks still count them, on their general
 * path (the fast path is off while chained). PROFCTL_HOOKS_CHAIN=1 chains whatever the
 * dynamic linker finds next, silently (the witness test, Tests/ProfilerTests/
 * WindowWitnessTests, chains heaptrack this way). Called through pointers: one instruction,
 * where a call to __libc_malloc costs a call and the PLT's jump. */
static void *(*next_malloc)(size_t) = __libc_malloc;
static void (*next_free)(void *) = __libc_free;
static void *(*next_calloc)(size_t, size_t) = __libc_calloc;
static void *(*next_realloc)(void *, size_t) = __libc_realloc;
static void *(*next_aligned)(size_t, size_t) = __libc_memalign;
static void *(*next_valloc)(size_t) = __libc_valloc;
static void *(*next_pvalloc)(size_t) = __libc_pvalloc;

static _Atomic int next_state; /* 0: not looked for yet, 1: looking, 2: found */

/* The version of the malloc family's first definitions in glibc, on x86-64 (aarch64's is
 * GLIBC_2.17; elsewhere the unversioned lookup stands in). */
#define GLIBC_BASE "GLIBC_2.2.5"

/* Whether two addresses lie in the same loaded object (dladdr takes the loader's lock and
 * allocates nothing). */
static bool same_object(const void *a, const void *b) {
    Dl_info x, y;
    return dladdr(a, &x) && dladdr(b, &y) && x.dli_fbase == y.dli_fbase;
}

/* The next definition of a function of the malloc family after the executable's that is
 * not glibc's, if any: unversioned (heaptrack's, which a versioned lookup passes over), else
 * by its glibc version (glibc's own libc_malloc_debug.so defines only malloc@GLIBC_2.2.5,
 * which every program's calls bind to and an unversioned dlsym passes over). Else glibc's. */
static void *next_symbol(const char *name, const char *version) {
    void *f = dlsym(RTLD_NEXT, name);
    if (f && !same_object(f, (void *)__libc_malloc)) return f;
    void *v = dlvsym(RTLD_NEXT, name, version);
    return v ? v : f;
}

/* One line on stderr, built without malloc. */
static void say_chained(const char *library) {
    static char line[640];
    const char *parts[] = {
        "profctl hooks: another malloc interposer is loaded (", library,
        "), such as a profiler's LD_PRELOAD: forwarding every allocation to it; the hooks still "
        "count them, on their slower general path (docs/hooks.md, \"Another profiler in the process\")\n",
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        for (const char *c = parts[i]; *c && n < sizeof line - 2; c++) line[n++] = *c;
    }
    if (n == sizeof line - 2) line[n++] = '\n';
    ssize_t written = write(2, line, n);
    (void)written;
}

/* Finds where to forward, once per process, on the hooks' first call (before any block is
 * allocated, so that every block is freed by the allocator that made it). The fast path
 * never runs first: it is off until resolve_at_load. */
static SLOW void find_next(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&next_state, &expected, 1)) {
        /* This thread's own nested call (dlsym's), or another thread: that one waits. */
        if (tls.state != STATE_BUSY) {
            while (atomic_load(&next_state) == 1) { }
        }
        return;
    }
    uint8_t state = tls.state;
    tls.state = STATE_BUSY; /* dlsym may allocate: that forwards to glibc, uncounted */
    const char *chain = getenv("PROFCTL_HOOKS_CHAIN");
    bool asked = chain && chain[0] == '1';
    void *next = next_symbol("malloc", GLIBC_BASE);
    bool other = next && !same_object(next, (void *)__libc_malloc);
    if (asked || other) {
        void *f;
        if ((f = next_symbol("malloc", GLIBC_BASE))) next_malloc = (void *(*)(size_t))f;
        if ((f = next_symbol("free", GLIBC_BASE))) next_free = (void (*)(void *))f;
        if ((f = next_symbol("calloc", GLIBC_BASE))) next_calloc = (void *(*)(size_t, size_t))f;
        if ((f = next_symbol("realloc", GLIBC_BASE))) next_realloc = (void *(*)(void *, size_t))f;
        if ((f = next_symbol("aligned_alloc", "GLIBC_2.16"))) next_aligned = (void *(*)(size_t, size_t))f;
        if ((f = next_symbol("valloc", GLIBC_BASE))) next_valloc = (void *(*)(size_t))f;
        if ((f = next_symbol("pvalloc", GLIBC_BASE))) next_pvalloc = (void *(*)(size_t))f;
        /* Its own bookkeeping calls malloc, which lands here: the general path, which runs
         * it with the thread BUSY so it forwards uncounted. */
        atomic_store(&hot.chained, 1);
        update_fast();
        if (other && !asked) {
            Dl_info info;
            say_chained(dladdr(next, &info) && info.dli_fname ? info.dli_fname : "unknown library");
        }
    }
    tls.state = state;
    atomic_store(&next_state, 2);
}

static void ensure_next(void) {
    if (atomic_load_explicit(&next_state, memory_order_acquire) != 2) find_next();
}

/* enter() for the entry points' general path: a thread's first call (the process's first
 * is one) makes sure the allocator to forward to is known, before anything is allocated. */
static ALWAYS_INLINE bool enter_allocator(void) { return enter_first(ensure_next); }

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
    fn = (usable_size_fn)next_symbol("malloc_usable_size", GLIBC_BASE);
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

/* What the general path counts as a block's usable size: none in mode COUNT. Called BUSY
 * (resolving glibc's function may allocate). */
static inline size_t usable_if_counted(void *p) {
    if (atomic_load_explicit(&hot.mode, memory_order_relaxed) == PROFCTL_HOOKS_COUNT) return 0;
    return usable_size_of(p);
}

/* Compares the header reading with glibc's own answer on small, large and aligned blocks.
 * Chained to an interposer that answers malloc_usable_size itself, its blocks are its own,
 * not glibc's chunks: then the headers are never read. */
static void check_header_usable_size(void) {
    usable_size_fn fn = resolve_usable_size();
    if (!fn) return;
    if (atomic_load(&hot.chained) && !same_object((void *)fn, (void *)__libc_malloc)) return;
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

__attribute__((constructor(101))) static void resolve_at_load(void) {
    ensure_next(); /* (done already if anything allocated before) */
    uint8_t state = tls.state;
    tls.state = STATE_BUSY;
    /* (It may allocate: this thread is BUSY, so that just forwards.) */
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    resolve_usable_size();
    check_header_usable_size();
    tls.state = state;
}

/* ---- the general path's calls to the allocator ----
 * The allocator underneath runs with the thread BUSY, so whatever it allocates for itself
 * (heaptrack's bookkeeping, when chained) forwards uncounted. */

enum { ALLOC_MALLOC, ALLOC_CALLOC, ALLOC_ALIGNED, ALLOC_VALLOC, ALLOC_PVALLOC };

static SLOW void *allocate_general(int kind, size_t a, size_t b) {
    bool entered = enter_allocator();
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
    default: p = next_pvalloc(a); break;
    }
    if (entered) {
        size_t usable = p ? usable_if_counted(p) : 0;
        tls.state = state;
        account_allocation_general(p, requested, usable);
    }
    return p;
}

static SLOW void free_general(void *p) {
    if (!enter_allocator()) { next_free(p); return; }
    uint8_t state = tls.state;
    tls.state = STATE_BUSY;
    account_free(p, usable_if_counted(p), state);
    next_free(p); /* still BUSY: what the allocator underneath frees for itself is not counted */
    tls.state = state;
}

/* A free the fast path could not finish: counted, the general search, then the allocator. */
static SLOW void free_tracked_slow(void *p, size_t usable) {
    count_free_fast(usable);
    account_tracked_free(p, usable);
    next_free(p);
}

/* The free of a block that may be tracked (some thread's table is published): the fast
 * path's untracking inline (the free counted as the region's temporary only), anything else
 * out of line; then the allocator. */
static ALWAYS_INLINE void free_maybe_tracked(void *p, size_t usable) {
    if (untrack_fast(p, usable)) {
        next_free(p);
        return;
    }
    free_tracked_slow(p, usable);
}

/* free's way when some table is published, its own fast untracking first. It reads the
 * usable size as a heap chunk's, without usable_fast's test for an mmapped one (two
 * instructions fewer per tracked free): an mmapped block reads 8 bytes more than it has,
 * never matches its entry (which holds the right size), and takes the general way, which
 * reads it right. */
static ALWAYS_INLINE void free_published(void *p) {
    size_t word;
    /* (Loaded in an asm, which the compiler keeps on this branch: a plain load it shares
     * with the untracked branch's, and then shuffles registers on both, one instruction
     * more outside a region.) */
    __asm__("mov -8(%1), %0" : "=r"(word) : "r"(p));
    if (untrack_fast(p, (word | 7) - 15)) {
        next_free(p);
        return;
    }
    free_tracked_slow(p, usable_fast(p));
}

/* ---- with sites captured ---- */

/* account_fast with sites captured, called by the allocating function itself (malloc,
 * calloc, an aligned allocation) with its return address: the walk starts from this
 * function's frame, whose saved frame pointer is the allocating function's, so the stack
 * is the one a call straight from that function would see. */
static SLOW void *account_sites(void *p, size_t requested, uintptr_t caller) {
    size_t usable = usable_fast(p);
    if (!tls.tracking) { /* (in a region, its size classes count it: track_fast) */
        tls.n.allocations += 1;
        tls.n.requested += requested;
        tls.n.usable += usable;
    }
    if (UNLIKELY(meters_on) && !tls.excluded_depth) {
        /* The sites copies stay on while a meter is open (modes.c): the meter's share,
         * under the reentrancy guard, since the runtime's task-local lookup is a call out. */
        tls.state = STATE_BUSY;
        meter_allocated(p, requested, usable);
        tls.state = STATE_READY;
    }
    if (tls.tracking) {
        profctl_sites_alloc(p, requested, usable, caller, __builtin_frame_address(0), tls.scope_id);
        return track_fast(p, requested, usable);
    }
    return p;
}

/* free's fast path with sites captured: sites.c first, then the same as free's. */
static SLOW void free_sites(void *p) {
    size_t usable = usable_fast(p);
    if (UNLIKELY(meters_on)) {
        tls.state = STATE_BUSY;
        meter_freed(p);
        tls.state = STATE_READY;
    }
    profctl_sites_free(p, usable, tls.scope_id);
    if (atomic_load_explicit(&published_count, memory_order_relaxed) != 0) {
        free_maybe_tracked(p, usable); /* (which counts it) */
        return;
    }
    count_free_fast(usable);
    next_free(p);
}

/* ---- the replaced malloc family ---- */

void *malloc(size_t size) {
    if (fast()) {
        void *p = next_malloc(size);
        if (LIKELY(p != NULL)) return account_fast(p, size, usable_fast(p));
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

void free(void *p) {
    if (!p) return;
    if (fast()) {
        /* published_count counts this thread's own table too, when it may have entries. */
        /* (No hint: with one the compiler splits the tracked case out of free, whose frame
         * then costs every call two instructions.) */
        if (any_published()) {
            free_published(p); /* (which counts it) */
            return;
        }
        count_free_fast(usable_fast(p));
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
        if (p && !__builtin_mul_overflow(count, size, &total)) account_fast(p, total, usable_fast(p));
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
    if (!enter_allocator()) return next_realloc(old, size);
    uint8_t state = tls.state;
    tls.state = STATE_BUSY;
    /* Counted as a free of the old block and an allocation of the new one. The entry goes
     * before glibc releases the old address, which another thread may be handed at once
     * (a failed realloc, out of memory, leaves the old block counted as freed). */
    account_free(old, usable_if_counted(old), state);
    void *p = next_realloc(old, size);
    size_t usable = p ? usable_if_counted(p) : 0;
    tls.state = state;
    if (p) account_allocation_general(p, size, usable);
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
        if (p) account_fast(p, size, usable_fast(p));
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

/* ---- malloc_usable_size ---- */

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
        if (UNLIKELY(meters_on)) return meter_usable_size(p, usable);
        return usable;
    }
    uint8_t state = tls.state;
    tls.state = STATE_BUSY; /* dlsym may allocate */
    size_t n = usable_size_slow(p);
    tls.state = state;
    return n;
}

size_t profctl_malloc_usable_size(void *pointer) { return malloc_usable_size(pointer); }

int profctl_hooks_header_usable_size(void) { return atomic_load(&hot.header_ok); }

void *profctl_underlying_malloc(size_t size) { return __libc_malloc(size); }
void profctl_underlying_free(void *pointer) { __libc_free(pointer); }
