/*
 * Meters (include/allocation_meters.h): a task tree's allocations, on any thread. The
 * hooks call in from their general path (accounting.c) while a meter is open, with the
 * thread BUSY, so that what the concurrency runtime does here is never counted; the fast
 * paths are off meanwhile (modes.c, update_fast), and untouched when no meter is open.
 *
 * Why a task-local value and not the regions' thread: Swift Testing runs tests in
 * parallel on a pool of threads and an async test resumes on any of them after a
 * suspension, so a thread's region sees other tests' work and misses its own. The
 * runtime already carries task-local values from a task to its structured children, and
 * reading one is a walk of a short list (no lock, no allocation).
 *
 * This file keeps the meters and their blocks, and credits them (a leaf under accounting.c);
 * meter_scopes.c opens and closes them and turns the fast paths off and on.
 *
 * The blocks of open meters are kept here, in one table under one spin lock (not in the
 * threads' tables, whose tags name regions): a free anywhere finds its meter.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "allocation_meters.h"
#include "sites.h" /* a capturing meter's stacks, interned where record --sites keeps its own */

#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* The concurrency runtime's reader of task-local values: swiftcc, weak so that a process
 * without libswift_Concurrency links (profctl_meters_set_key then refuses). */
extern void *swift_task_localValueGet(const void *key) __attribute__((swiftcall, weak));
/* The running task (null on a plain thread): the body task a meter waits for. */
extern void *swift_task_getCurrent(void) __attribute__((swiftcall, weak));

typedef struct meter {
    _Atomic uint64_t id; /* 0: free */
    uint64_t parent;
    _Atomic uint64_t allocations, requested, usable;
    _Atomic uint64_t frees, freed_requested, freed_usable, live_blocks;
    _Atomic int64_t live;
    _Atomic uint64_t peak;
    _Atomic uint64_t retains, releases, objects;
    _Atomic uint64_t runtime_blocks, runtime_bytes; /* left out: runtime_caches.c */
    /* The task whose release the meter waits for before it closes (profctl_meter_watch_task):
     * 0 none, 1 watched, 2 its object has been freed. */
    _Atomic int watch;
    /* Task objects among its live blocks: child tasks it made (task groups, Task {}) not yet
     * freed, which its close waits for too (see "the body task's release" below). */
    _Atomic int64_t tasks_live;
    uint32_t capture; /* PROFCTL_METER_*, set before the id is published */
    /* What a capturing meter names, under table_lock: a slot's storage is mapped the first
     * time a meter in it captures, and kept for the next (never freed: bounded by the slots).
     * The last entry of each is the overflow (stack or metadata 0). */
    profctl_meter_site *sites;
    profctl_meter_type *types;
    uint32_t site_count, type_count;
} meter;

/* Set while a meter capturing types or ARC is open (meter_scopes.c): the runtime's hooks
 * (types.c's adapter, swift_runtime.c's) call in only then. */
volatile int profctl_meter_types_on;
volatile int meters_arc_on;

#define SLOT_BITS 10
_Static_assert((1u << SLOT_BITS) == PROFCTL_MAX_METERS, "a meter's id names its slot in its low bits");
/* Parents deeper than this are not followed (a chain of meters opened inside each other). */
#define MAX_CHAIN 64

static meter meters[PROFCTL_MAX_METERS];
static _Atomic uint64_t next_generation = 1;
static const void *_Atomic task_local_key;

/* ---- the table of metered blocks: open addressing, linear probing, backward shift ---- */

typedef struct metered_block {
    uintptr_t address; /* 0: empty */
    uint64_t requested, usable, meter_id;
    uintptr_t metadata; /* a Swift object's type, when a meter capturing types saw it made */
    uint32_t stack_id;  /* its stack, when a meter capturing sites asked */
    uint32_t task;      /* 1: a task's object (a task allocated in it, seen allocating) */
    uint64_t watcher;   /* a meter waiting for this block's free: a task object (profctl_meter_watch_task) */
} metered_block;

static atomic_flag table_lock = ATOMIC_FLAG_INIT;
static metered_block *blocks;
static uint64_t block_mask; /* capacity - 1 */
static uint64_t block_count;
static uint64_t block_bytes; /* of the mapping */

static inline uint64_t home(uintptr_t a) { return (uint64_t)(a >> 4) & block_mask; }

/* The slot holding `a`, or the empty slot that ends its run (where it would go); under the
 * lock, with a table (block_count, or room just made). */
static inline uint64_t slot_of(uintptr_t a) {
    uint64_t i = home(a);
    while (blocks[i].address && blocks[i].address != a) i = (i + 1) & block_mask;
    return i;
}

/* Doubles the table (or makes the first one); under the lock. False when mmap fails. */
static bool grow(void) {
    uint64_t capacity = blocks ? (block_mask + 1) * 2 : 4096;
    size_t bytes = capacity * sizeof(metered_block);
    metered_block *fresh = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fresh == MAP_FAILED) return false;
    metered_block *old = blocks;
    uint64_t old_capacity = old ? block_mask + 1 : 0, old_bytes = block_bytes;
    blocks = fresh;
    block_mask = capacity - 1;
    block_bytes = bytes;
    for (uint64_t i = 0; i < old_capacity; i++) {
        if (!old[i].address) continue;
        uint64_t j = home(old[i].address);
        while (blocks[j].address) j = (j + 1) & block_mask;
        blocks[j] = old[i];
    }
    if (old) munmap(old, old_bytes);
    return true;
}

/* Room for one more block at under half load, the table grown if need be; under the lock.
 * False when it cannot grow. */
static inline bool room_for_one(void) {
    return (block_count + 1) * 2 <= (blocks ? block_mask + 1 : 0) || grow();
}

/* Removes slot i, moving later entries of its run back (no tombstones); under the lock. */
static void remove_at(uint64_t i) {
    uint64_t j = i;
    for (;;) {
        j = (j + 1) & block_mask;
        uintptr_t a = blocks[j].address;
        if (!a) break;
        uint64_t h = home(a);
        bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
        if (!stays) {
            blocks[i] = blocks[j];
            i = j;
        }
    }
    blocks[i].address = 0;
    block_count--;
}

/* ---- meters ---- */

static inline meter *open_meter(uint64_t id) {
    if (!id) return NULL;
    meter *m = &meters[id & (PROFCTL_MAX_METERS - 1)];
    return atomic_load_explicit(&m->id, memory_order_acquire) == id ? m : NULL;
}

static void credit_allocation(meter *m, uint64_t requested, uint64_t usable) {
    atomic_fetch_add_explicit(&m->allocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->requested, requested, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->usable, usable, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->live_blocks, 1, memory_order_relaxed);
    int64_t live = atomic_fetch_add_explicit(&m->live, (int64_t)requested, memory_order_relaxed) + (int64_t)requested;
    uint64_t peak = atomic_load_explicit(&m->peak, memory_order_relaxed);
    while (live > 0 && (uint64_t)live > peak &&
           !atomic_compare_exchange_weak_explicit(&m->peak, &peak, (uint64_t)live, memory_order_relaxed,
                                                  memory_order_relaxed)) { }
}

static void credit_free(meter *m, uint64_t requested, uint64_t usable) {
    atomic_fetch_add_explicit(&m->frees, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->freed_requested, requested, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->freed_usable, usable, memory_order_relaxed);
    atomic_fetch_sub_explicit(&m->live_blocks, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&m->live, (int64_t)requested, memory_order_relaxed);
}

/* A capturing meter's entry for `key` (a stack id or a metadata address) in a table of
 * `max` entries plus the overflow; under table_lock. Keys are never removed. */
#define FIND_ENTRY(table, count, max, field, key) ({                                     \
    uint32_t slot_ = (uint32_t)(((uint64_t)(key) * 0x9E3779B97F4A7C15ull) >> 40) % (max); \
    __typeof__(&(table)[0]) found_ = &(table)[max];                                      \
    if (key) {                                                                            \
        for (uint32_t probe_ = 0; probe_ < (max); probe_++) {                             \
            __typeof__(&(table)[0]) e_ = &(table)[slot_];                                 \
            if (e_->field == (key)) { found_ = e_; break; }                               \
            if (e_->field == 0) {                                                         \
                if ((count) < (max) - 1) { e_->field = (key); (count)++; found_ = e_; }   \
                break;                                                                    \
            }                                                                             \
            slot_ = (slot_ + 1) % (max);                                                  \
        }                                                                                 \
    }                                                                                     \
    found_;                                                                               \
})

static void credit_site(meter *m, uint32_t stack, uint64_t requested) {
    profctl_meter_site *e = FIND_ENTRY(m->sites, m->site_count, PROFCTL_METER_MAX_SITES, stack_id, stack);
    e->allocations += 1;
    e->requested_bytes += requested;
    e->live_requested_bytes += requested;
    e->live_blocks += 1;
}

static void credit_site_free(meter *m, uint32_t stack, uint64_t requested) {
    profctl_meter_site *e = FIND_ENTRY(m->sites, m->site_count, PROFCTL_METER_MAX_SITES, stack_id, stack);
    if (e->live_blocks) { e->live_blocks -= 1; e->live_requested_bytes -= requested; }
}

/* The task this thread last saw allocating in a meter: its object is looked up once per
 * switch of tasks on the thread, not at every allocation. */
static TLS uintptr_t last_task;

/* A task allocating in a meter: when its object is a block of an open meter (a child task
 * made inside it), that block is marked as a task, which the meter's close waits for.
 * Under table_lock. An address reused by a later task that this thread saw last is not
 * marked: its blocks then count as kept if freed late, which fails a limit, never passes. */
static void mark_task(uintptr_t task) {
    last_task = task;
    if (!block_count) return;
    uint64_t i = slot_of(task);
    if (!blocks[i].address || blocks[i].task) return;
    meter *owner = open_meter(blocks[i].meter_id);
    if (!owner) return;
    blocks[i].task = 1;
    atomic_fetch_add_explicit(&owner->tasks_live, 1, memory_order_relaxed);
}

/* Whether `m` or a meter it was opened inside captures `what`. */
static bool chain_captures(meter *m, uint32_t what);

/* The calling task's meter id, 0 when it has none. */
static inline uint64_t current_meter(void) {
    const void *key = atomic_load_explicit(&task_local_key, memory_order_relaxed);
    if (!key || !swift_task_localValueGet) return 0;
    const uint64_t *value = swift_task_localValueGet(key);
    return value ? *value : 0;
}

/* The block of this thread's last metered allocation, when it was left out as a runtime
 * cache's (else 0): swift_allocObject's hook (meter_object) comes right after its malloc,
 * on the same thread, and leaves the object out too, so that objects and types agree with
 * the bytes. Reset at every allocation: a freed cache block's address may come back. */
static TLS uintptr_t left_out;

void meter_allocated(void *p, size_t requested, size_t usable) {
    left_out = 0;
    uint64_t id = current_meter();
    meter *m = open_meter(id);
    if (!m) return;
    /* A runtime cache's block is nobody's test's: counted apart, not kept, so that neither
     * its figures nor its free ever reach the meter. */
    if (runtime_cache_allocation(__builtin_frame_address(0))) {
        left_out = (uintptr_t)p;
        for (int depth = 0; m && depth < MAX_CHAIN; depth++) {
            atomic_fetch_add_explicit(&m->runtime_blocks, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&m->runtime_bytes, requested, memory_order_relaxed);
            m = open_meter(m->parent);
        }
        return;
    }
    /* The walk starts here: the hooks' own frames are the stack's first, and the Swift side
     * drops them (up to the malloc family's entry point) when it names the site. */
    bool named = chain_captures(m, PROFCTL_METER_SITES);
    uint32_t stack = named ? sites_stack_here(__builtin_frame_address(0), PROFCTL_METER_SITE_DEPTH) : 0;
    uintptr_t task = swift_task_getCurrent ? (uintptr_t)swift_task_getCurrent() : 0;
    spin_lock(&table_lock);
    bool kept = room_for_one();
    if (task && task != last_task) mark_task(task);
    if (kept) {
        uintptr_t a = (uintptr_t)p;
        uint64_t i = slot_of(a);
        /* An entry already there is stale (its block was freed out of sight): replaced. */
        if (!blocks[i].address) block_count++;
        blocks[i] = (metered_block){ a, requested, usable, id, 0, stack, 0, 0 };
    }
    if (named) {
        for (meter *c = m; c; c = open_meter(c->parent)) {
            if (c->capture & PROFCTL_METER_SITES) credit_site(c, stack, requested);
        }
    }
    spin_unlock(&table_lock);
    /* A block the table could not keep is still counted, never credited as freed: a
     * limit on what is kept then fails rather than passes. */
    for (int depth = 0; m && depth < MAX_CHAIN; depth++) {
        credit_allocation(m, requested, usable);
        m = open_meter(m->parent);
    }
}

void meter_freed(void *p) {
    uintptr_t a = (uintptr_t)p;
    if (!a) return;
    spin_lock(&table_lock);
    if (!block_count) { spin_unlock(&table_lock); return; }
    uint64_t i = slot_of(a);
    if (!blocks[i].address) { spin_unlock(&table_lock); return; }
    metered_block b = blocks[i];
    remove_at(i);
    if (b.task) {
        meter *t = open_meter(b.meter_id);
        if (t) atomic_fetch_sub_explicit(&t->tasks_live, 1, memory_order_release);
    }
    if (b.watcher) {
        meter *w = open_meter(b.watcher);
        if (w) atomic_store_explicit(&w->watch, 2, memory_order_release);
    }
    meter *m = open_meter(b.meter_id);
    for (meter *c = m; c; c = open_meter(c->parent)) {
        if (c->capture & PROFCTL_METER_SITES) credit_site_free(c, b.stack_id, b.requested);
        if ((c->capture & PROFCTL_METER_TYPES) && b.metadata) {
            profctl_meter_type *e = FIND_ENTRY(c->types, c->type_count, PROFCTL_METER_MAX_TYPES, metadata, b.metadata);
            if (e->live_objects) e->live_objects -= 1;
            e->live_requested_bytes -= e->live_requested_bytes < b.requested ? e->live_requested_bytes : b.requested;
        }
    }
    spin_unlock(&table_lock);
    for (int depth = 0; m && depth < MAX_CHAIN; depth++) {
        credit_free(m, b.requested, b.usable);
        m = open_meter(m->parent);
    }
}

/* As a region's blocks do (platform_glibc.c, region_usable_size): glibc hands a free chunk
 * back whole when splitting it would leave under 32 bytes, so a request gets 16 or 32 bytes
 * more or not depending on the heap's history, which tests running beside each other change.
 * Swift's Array and String take their capacity from this answer: an async test's `+=` grew
 * its buffer once or twice, 80 B or 128 B, alone or beside other tests (ParallelExactnessTests).
 * A stale entry (its usable size differs from the block's) is not the block's: answered as is. */
size_t meter_usable_size(void *p, size_t usable) {
    uintptr_t a = (uintptr_t)p;
    size_t answer = usable;
    spin_lock(&table_lock);
    if (block_count) {
        uint64_t i = slot_of(a);
        if (blocks[i].address == a && blocks[i].usable == usable) {
            size_t split = split_usable(blocks[i].requested);
            if (split < usable) answer = split;
        }
    }
    spin_unlock(&table_lock);
    return answer;
}

static bool chain_captures(meter *m, uint32_t what) {
    for (int depth = 0; m && depth < MAX_CHAIN; depth++) {
        if (m->capture & what) return true;
        m = open_meter(m->parent);
    }
    return false;
}

/* Called by types.c's adapter after swift_allocObject's allocation (whose malloc already
 * credited the meter and kept the block): the block learns its type, and every meter of the
 * chain that captures types counts the object. Not BUSY: nothing here allocates or retains. */
void meter_object(void *object, const void *metadata, size_t requested) {
    if (!object || tls.excluded_depth || (uintptr_t)object == left_out) return;
    uint64_t id = current_meter();
    meter *m = open_meter(id);
    if (!m || !chain_captures(m, PROFCTL_METER_TYPES)) return;
    uintptr_t a = (uintptr_t)object;
    spin_lock(&table_lock);
    if (block_count) {
        uint64_t i = slot_of(a);
        if (blocks[i].address == a && blocks[i].meter_id == id) {
            blocks[i].metadata = (uintptr_t)metadata;
        }
    }
    for (meter *c = m; c; c = open_meter(c->parent)) {
        atomic_fetch_add_explicit(&c->objects, 1, memory_order_relaxed);
        if (!(c->capture & PROFCTL_METER_TYPES)) continue;
        profctl_meter_type *e = FIND_ENTRY(c->types, c->type_count, PROFCTL_METER_MAX_TYPES, metadata, (uintptr_t)metadata);
        e->objects += 1;
        e->requested_bytes += requested;
        /* A block the table could not keep never counts as freed: live for good, so that a
         * limit on what is kept fails rather than passes. */
        e->live_objects += 1;
        e->live_requested_bytes += requested;
    }
    spin_unlock(&table_lock);
}

/* Retains and releases of the calling task (swift_runtime.c, outside any region): to its
 * meter and those it was opened inside, when one of them captures ARC. */
static TLS int in_arc; /* the runtime's task-local lookup must not come back here */

void meter_arc(uint64_t retains, uint64_t releases) {
    if (in_arc || tls.excluded_depth || tls.state == STATE_BUSY) return;
    in_arc = 1;
    meter *m = open_meter(current_meter());
    if (m && chain_captures(m, PROFCTL_METER_ARC)) {
        for (int depth = 0; m && depth < MAX_CHAIN; depth++) {
            if (retains) atomic_fetch_add_explicit(&m->retains, retains, memory_order_relaxed);
            if (releases) atomic_fetch_add_explicit(&m->releases, releases, memory_order_relaxed);
            m = open_meter(m->parent);
        }
    }
    in_arc = 0;
}

/* ---- the body task's release ----
 * A measured async body runs in a child task, whose own blocks (its allocator's slabs,
 * allocated while it ran in the meter) are freed when the task object is: after the child
 * has handed its result to the waiting parent, on the child's thread. Under load the parent
 * resumed and closed the meter first, and those blocks counted as kept ("leaked: 2032 B in
 * 2 blocks"). So the meter watches the free of the task object itself (allocated outside
 * the meter, by the parent) and the closing side waits for it: the object is freed last,
 * after the task's allocator has freed its slabs. */

int profctl_meter_watch_task(uint64_t id) {
    meter *m = open_meter(id);
    if (!m || !swift_task_getCurrent) return -1;
    uintptr_t task = (uintptr_t)swift_task_getCurrent();
    if (!task) return -1;
    spin_lock(&table_lock);
    bool kept = room_for_one();
    if (kept) {
        uint64_t i = slot_of(task);
        /* The object may be an enclosing meter's block (a measure inside a measure): it stays
         * that meter's, and also tells this one when it is freed. Otherwise an entry of no
         * meter (id 0 is never open), which credits nobody. */
        if (!blocks[i].address) {
            blocks[i] = (metered_block){ task, 0, 0, 0, 0, 0, 0, 0 };
            block_count++;
        }
        blocks[i].watcher = id;
        atomic_store_explicit(&m->watch, 1, memory_order_release);
    }
    spin_unlock(&table_lock);
    return kept ? 0 : -1;
}

static inline bool tasks_pending(meter *m) {
    return atomic_load_explicit(&m->watch, memory_order_acquire) == 1
        || atomic_load_explicit(&m->tasks_live, memory_order_acquire) > 0;
}

int profctl_meter_await_task(uint64_t id, uint64_t timeout_ns) {
    meter *m = open_meter(id);
    if (!m) return -1;
    if (!tasks_pending(m)) return 0;
    /* A finished task's thread frees it right after handing over its result, without waiting
     * for anything: yield first, then sleep in short steps (a loaded machine may not run that
     * thread for a while). */
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (unsigned spin = 0; tasks_pending(m); spin++) {
        if (spin < 64) { sched_yield(); continue; }
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t waited = (uint64_t)(now.tv_sec - start.tv_sec) * 1000000000ull + (uint64_t)now.tv_nsec - (uint64_t)start.tv_nsec;
        /* The body's task is waited for in full; other tasks for a tenth of it: a `Task {}`
         * the body started may well outlive it, and then its blocks count as kept anyway. */
        bool body = atomic_load_explicit(&m->watch, memory_order_acquire) == 1;
        if (waited >= (body ? timeout_ns : timeout_ns / 10)) return -1;
        struct timespec step = { 0, 50000 };
        nanosleep(&step, NULL);
    }
    return 0;
}

void meters_fork_prepare(void) { spin_lock(&table_lock); }
void meters_fork_done(void) { spin_unlock(&table_lock); }

/* ---- for meter_scopes.c, which opens and closes them (and flips the fast paths) ---- */

bool meters_set_key(const void *key) {
    if (!swift_task_localValueGet || !key) return false;
    atomic_store(&task_local_key, key);
    return true;
}

bool meters_have_key(void) { return atomic_load(&task_local_key) != NULL; }

/* Maps a slot's capture tables the first time a meter in it captures; false when mmap fails. */
static bool prepare_capture(meter *m) {
    if (m->sites) return true;
    size_t bytes = (PROFCTL_METER_MAX_SITES + 1) * sizeof(profctl_meter_site) + (PROFCTL_METER_MAX_TYPES + 1) * sizeof(profctl_meter_type);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    m->types = (profctl_meter_type *)((char *)p + (PROFCTL_METER_MAX_SITES + 1) * sizeof(profctl_meter_site));
    m->sites = p;
    return true;
}

uint64_t meters_claim(uint64_t parent, uint32_t capture) {
    for (uint32_t slot = 0; slot < PROFCTL_MAX_METERS; slot++) {
        meter *m = &meters[slot];
        uint64_t expected = 0;
        /* Claim the slot with a placeholder no task holds, zero it, then publish its id. */
        if (atomic_load_explicit(&m->id, memory_order_relaxed) != 0 ||
            !atomic_compare_exchange_strong(&m->id, &expected, UINT64_MAX)) continue;
        uint64_t generation = atomic_fetch_add(&next_generation, 1);
        uint64_t id = (generation << SLOT_BITS) | slot;
        m->parent = open_meter(parent) ? parent : 0;
        if (capture && !prepare_capture(m)) {
            atomic_store(&m->id, 0);
            return 0;
        }
        m->capture = capture;
        if (m->sites) {
            /* Under the lock: a free of an older block may be reading a previous meter's tables. */
            spin_lock(&table_lock);
            memset(m->sites, 0, (PROFCTL_METER_MAX_SITES + 1) * sizeof(profctl_meter_site));
            memset(m->types, 0, (PROFCTL_METER_MAX_TYPES + 1) * sizeof(profctl_meter_type));
            m->site_count = m->type_count = 0;
            spin_unlock(&table_lock);
        }
        atomic_store(&m->watch, 0);
        atomic_store(&m->tasks_live, 0);
        atomic_store(&m->retains, 0);
        atomic_store(&m->releases, 0);
        atomic_store(&m->objects, 0);
        atomic_store(&m->runtime_blocks, 0);
        atomic_store(&m->runtime_bytes, 0);
        atomic_store(&m->allocations, 0);
        atomic_store(&m->requested, 0);
        atomic_store(&m->usable, 0);
        atomic_store(&m->frees, 0);
        atomic_store(&m->freed_requested, 0);
        atomic_store(&m->freed_usable, 0);
        atomic_store(&m->live_blocks, 0);
        atomic_store(&m->live, 0);
        atomic_store(&m->peak, 0);
        return id;
    }
    return 0;
}

void meters_publish(uint64_t id) {
    atomic_store_explicit(&meters[id & (PROFCTL_MAX_METERS - 1)].id, id, memory_order_release);
}

static void read_meter(const meter *m, profctl_meter_result *out) {
    memset(out, 0, sizeof *out);
    out->allocations = atomic_load(&m->allocations);
    out->requested_bytes = atomic_load(&m->requested);
    out->usable_bytes = atomic_load(&m->usable);
    out->frees = atomic_load(&m->frees);
    out->freed_requested_bytes = atomic_load(&m->freed_requested);
    out->freed_usable_bytes = atomic_load(&m->freed_usable);
    int64_t live = atomic_load(&m->live);
    out->live_requested_bytes = live > 0 ? (uint64_t)live : 0;
    out->live_blocks = atomic_load(&m->live_blocks);
    out->peak_requested_bytes = atomic_load(&m->peak);
    out->retains = atomic_load(&m->retains);
    out->releases = atomic_load(&m->releases);
    out->objects = atomic_load(&m->objects);
    out->runtime_cache_blocks = atomic_load(&m->runtime_blocks);
    out->runtime_cache_bytes = atomic_load(&m->runtime_bytes);
}

uint32_t meters_capture(uint64_t id) {
    meter *m = open_meter(id);
    return m ? m->capture : 0;
}

/* Copies the used entries (overflow last, if used) of a capturing meter's table. */
#define COPY_ENTRIES(table, max, field, used, out, capacity) ({                            \
    int n_ = 0;                                                                            \
    for (uint32_t i_ = 0; i_ <= (max); i_++) {                                             \
        if (!(table)[i_].field && !(i_ == (max) && (table)[i_].used)) continue;            \
        if ((uint32_t)n_ < (capacity)) (out)[n_] = (table)[i_];                            \
        n_++;                                                                              \
    }                                                                                      \
    n_;                                                                                    \
})

int profctl_meter_sites(uint64_t id, profctl_meter_site *out, uint32_t capacity) {
    meter *m = open_meter(id);
    if (!m || !(m->capture & PROFCTL_METER_SITES)) return -1;
    spin_lock(&table_lock);
    int n = COPY_ENTRIES(m->sites, PROFCTL_METER_MAX_SITES, allocations, allocations, out, capacity);
    spin_unlock(&table_lock);
    return n;
}

int profctl_meter_types(uint64_t id, profctl_meter_type *out, uint32_t capacity) {
    meter *m = open_meter(id);
    if (!m || !(m->capture & PROFCTL_METER_TYPES)) return -1;
    spin_lock(&table_lock);
    int n = COPY_ENTRIES(m->types, PROFCTL_METER_MAX_TYPES, metadata, objects, out, capacity);
    spin_unlock(&table_lock);
    return n;
}

int meters_read(uint64_t id, profctl_meter_result *result) {
    meter *m = open_meter(id);
    if (!m) { memset(result, 0, sizeof *result); return -1; }
    read_meter(m, result);
    return 0;
}

int meters_retire(uint64_t id, profctl_meter_result *result) {
    meter *m = open_meter(id);
    uint64_t expected = id;
    if (!m || !atomic_compare_exchange_strong(&m->id, &expected, UINT64_MAX)) {
        memset(result, 0, sizeof *result);
        return -1;
    }
    read_meter(m, result);
    return 0;
}

void meters_free_slot(uint64_t id) {
    atomic_store_explicit(&meters[id & (PROFCTL_MAX_METERS - 1)].id, 0, memory_order_release);
}

void meters_forget_blocks(void) {
    spin_lock(&table_lock);
    if (blocks) memset(blocks, 0, (block_mask + 1) * sizeof(metered_block));
    block_count = 0;
    spin_unlock(&table_lock);
}
