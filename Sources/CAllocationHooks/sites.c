/*
 * Allocation sites: call stacks captured by walking frame pointers, stored once, and a
 * per-thread log of the blocks allocated in regions. A leaf of the hooks (sites.h): they
 * call in at two places only (a block tracked in a region, a free), and only while
 * profctl_sites_on is set; nothing here calls them.
 *
 * Rules, as in every file of the hooks (hooks_base.h): never call malloc (storage is mmapped), nothing that can
 * allocate on these paths. A frame pointer is followed only while it stays inside the
 * thread's stack, goes up, and is aligned, so a frame that does not keep one ends the
 * stack early rather than reading garbage.
 */
#define _GNU_SOURCE
#include "sites.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

volatile int profctl_sites_on;
static _Atomic int capture_depth = 32;
static _Atomic uint64_t dropped;

static void *map_zeroed(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* ---- stacks, process-wide ----
 * Frames live in one reserved arena (pages are touched only as it fills); a stack is a
 * run of it, found through an open-addressed index by hash. One lock, held for a lookup
 * or an insert: each thread remembers the stacks it saw last in a small cache first. */

#define MAX_STACKS (1u << 20)
#define INDEX_SLOTS (MAX_STACKS * 2)
#define ARENA_FRAMES ((size_t)1 << 26) /* 512 MiB reserved, not committed */

typedef struct stack_record {
    uint64_t hash;
    uint64_t offset; /* into the arena */
    uint32_t depth;
} stack_record;

static atomic_flag stacks_lock = ATOMIC_FLAG_INIT;
static stack_record *stacks;   /* by id - 1 */
static uint32_t *stack_index;  /* id, 0: empty */
static uintptr_t *arena;
static uint64_t arena_used;
static _Atomic uint32_t stack_count;
static _Atomic int stacks_ready; /* 0 not yet, 1 ready, 2 mmap failed */

static bool prepare_stacks_locked(void) {
    if (atomic_load_explicit(&stacks_ready, memory_order_relaxed) == 1) return true;
    if (atomic_load_explicit(&stacks_ready, memory_order_relaxed) == 2) return false;
    stacks = map_zeroed(MAX_STACKS * sizeof(stack_record));
    stack_index = map_zeroed(INDEX_SLOTS * sizeof(uint32_t));
    arena = map_zeroed(ARENA_FRAMES * sizeof(uintptr_t));
    atomic_store(&stacks_ready, stacks && stack_index && arena ? 1 : 2);
    return atomic_load(&stacks_ready) == 1;
}

static inline uint64_t hash_frames(const uintptr_t *frames, uint32_t depth) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ depth;
    for (uint32_t i = 0; i < depth; i++) {
        h ^= frames[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h | 1; /* never 0: the cache's empty mark */
}

/* Finds or stores a stack; 0 when it cannot be stored. */
static uint32_t intern(const uintptr_t *frames, uint32_t depth, uint64_t hash) {
    spin_lock(&stacks_lock);
    if (!prepare_stacks_locked()) { spin_unlock(&stacks_lock); return 0; }
    uint64_t i = hash & (INDEX_SLOTS - 1);
    uint32_t id;
    while ((id = stack_index[i]) != 0) {
        const stack_record *s = &stacks[id - 1];
        if (s->hash == hash && s->depth == depth &&
            memcmp(&arena[s->offset], frames, depth * sizeof(uintptr_t)) == 0) {
            spin_unlock(&stacks_lock);
            return id;
        }
        i = (i + 1) & (INDEX_SLOTS - 1);
    }
    uint32_t count = atomic_load_explicit(&stack_count, memory_order_relaxed);
    if (count + 1 >= MAX_STACKS || arena_used + depth > ARENA_FRAMES) { spin_unlock(&stacks_lock); return 0; }
    memcpy(&arena[arena_used], frames, depth * sizeof(uintptr_t));
    stacks[count] = (stack_record){ hash, arena_used, depth };
    arena_used += depth;
    id = count + 1;
    stack_index[i] = id;
    atomic_store_explicit(&stack_count, id, memory_order_release);
    spin_unlock(&stacks_lock);
    return id;
}

uint32_t profctl_sites_stack(uint32_t id, uintptr_t *out, uint32_t capacity) {
    if (id == 0) return 0;
    spin_lock(&stacks_lock);
    uint32_t depth = 0;
    if (id <= atomic_load_explicit(&stack_count, memory_order_relaxed)) {
        const stack_record *s = &stacks[id - 1];
        depth = s->depth;
        memcpy(out, &arena[s->offset], (depth < capacity ? depth : capacity) * sizeof(uintptr_t));
    }
    spin_unlock(&stacks_lock);
    return depth;
}

uint32_t profctl_sites_stack_count(void) { return atomic_load(&stack_count); }
uint64_t profctl_sites_dropped(void) { return atomic_load(&dropped); }

/* ---- per thread: stack bounds, a cache of stacks, the logs ----
 * A thread's state is mmapped, never freed: another thread freeing one of its blocks may
 * reach it through the address table after it has exited. */

#define CACHE_SLOTS 256

typedef struct sites_thread {
    uintptr_t stack_high;  /* 0 until prepared */
    profctl_site_block *log;       /* grown under the table lock: other threads mark blocks freed */
    uint64_t log_length, log_capacity;
    profctl_site_release *releases;
    uint64_t release_length, release_capacity;
    uint32_t generation;           /* bumped when the log empties; under the table lock */
    uint64_t stamp;                /* profctl_sites_region_ending's last */
    struct { uint64_t hash; uint32_t id; } cache[CACHE_SLOTS];
} sites_thread;

static TLS sites_thread *me;


static sites_thread *self(void) {
    if (UNLIKELY(!me)) me = map_zeroed(sizeof(sites_thread));
    return me;
}

static _Atomic uint64_t sequence = 1; /* stamps: frees and region ends, in order */

void profctl_sites_region_ending(void) {
    sites_thread *t = self();
    if (t) t->stamp = atomic_fetch_add(&sequence, 1);
}

uint64_t profctl_sites_last_stamp(void) { return me ? me->stamp : 0; }

/* ---- the address table, process-wide, under one lock ----
 * Every block logged and not yet freed, whichever thread frees it: its owner's log entry,
 * stack, region and sizes. */

typedef struct address_slot {
    uintptr_t address;   /* 0: empty; 1: removed */
    sites_thread *owner;
    uint32_t stack_id;
    uint32_t generation; /* `block` indexes the owner's log while this equals the owner's */
    uint64_t block;
    uint64_t scope;
    uint64_t requested;
    uint64_t usable;
    uintptr_t metadata;  /* an object's type (profctl_sites_name_object); 0: none known */
} address_slot;

static atomic_flag table_lock = ATOMIC_FLAG_INIT;
static address_slot *slots;
static uint64_t slot_mask, slots_used; /* used: live and removed slots */
static _Atomic uint64_t live_addresses;

int profctl_sites_enabled(void) { return profctl_sites_on & SITES_STACKS; }

void sites_configure(int depth) {
    if (depth > PROFCTL_SITES_MAX_DEPTH) depth = PROFCTL_SITES_MAX_DEPTH;
    if (depth > 0) atomic_store(&capture_depth, depth);
    profctl_sites_on = (profctl_sites_on & SITES_OBJECTS) | (depth > 0 ? SITES_STACKS : 0);
}

void sites_configure_objects(int on) {
    profctl_sites_on = (profctl_sites_on & SITES_STACKS) | (on ? SITES_OBJECTS : 0);
}

void profctl_sites_prepare_thread(void) {
    sites_thread *t = self();
    if (!t || t->stack_high) return;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void *low = NULL;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &low, &size) == 0) t->stack_high = (uintptr_t)low + size;
    pthread_attr_destroy(&attr);
}

uint64_t profctl_sites_log_length(void) { return me ? me->log_length : 0; }
const profctl_site_block *profctl_sites_log(void) { return me ? me->log : NULL; }
uint64_t profctl_sites_release_length(void) { return me ? me->release_length : 0; }
const profctl_site_release *profctl_sites_releases(void) { return me ? me->releases : NULL; }

void profctl_sites_reset_thread(void) {
    if (!me) return;
    spin_lock(&table_lock);
    me->log_length = 0;
    me->release_length = 0;
    me->generation++; /* every slot's index into this log is stale from now on */
    spin_unlock(&table_lock);
}

static inline uint64_t slot_of(uintptr_t a, uint64_t mask) { return ((uint64_t)(a >> 4) * 0x9E3779B97F4A7C15ull >> 20) & mask; }

/* Grows (or first maps) the address table to hold twice the live addresses, dropping
 * removed slots. Under the lock. */
static bool grow_slots(void) {
    uint64_t capacity = slots ? (slot_mask + 1) : 0;
    uint64_t live = atomic_load_explicit(&live_addresses, memory_order_relaxed);
    uint64_t wanted = capacity ? capacity : 4096;
    while ((live + 1) * 2 > wanted) wanted *= 2;
    address_slot *fresh = map_zeroed(wanted * sizeof(address_slot));
    if (!fresh) return false;
    for (uint64_t i = 0; i < capacity; i++) {
        uintptr_t a = slots[i].address;
        if (a > 1) {
            uint64_t j = slot_of(a, wanted - 1);
            while (fresh[j].address) j = (j + 1) & (wanted - 1);
            fresh[j] = slots[i];
        }
    }
    if (slots) munmap(slots, capacity * sizeof(address_slot));
    slots = fresh;
    slot_mask = wanted - 1;
    slots_used = live;
    return true;
}

/* Doubles a log (or maps its first pages). */
static bool grow(void **log, uint64_t *capacity, uint64_t length, size_t size) {
    uint64_t wanted = *capacity ? *capacity * 2 : 65536;
    void *fresh = map_zeroed(wanted * size);
    if (!fresh) return false;
    if (*log) {
        memcpy(fresh, *log, length * size);
        munmap(*log, *capacity * size);
    }
    *log = fresh;
    *capacity = wanted;
    return true;
}

/* Walks the frame pointers up from `fp`, the frame of a function malloc called (by
 * default profctl_sites_alloc's), whose own return address (into the hooks) is skipped.
 * `caller`, when known, is the first frame: where malloc returns to. When malloc keeps a
 * frame pointer the walk finds that address again and it is not repeated; when it does
 * not, the walk goes on from the frame of malloc's caller, so nothing is missed either way. */
static inline uint32_t walk(uintptr_t *fp, uintptr_t caller, uintptr_t high, uintptr_t *out, uint32_t depth) {
    uint32_t n = 0;
    if (caller && depth) out[n++] = caller;
    for (;;) {
        uintptr_t *next = (uintptr_t *)fp[0];
        if (next <= fp || (uintptr_t)next + 16 > high || ((uintptr_t)next & 7)) break;
        fp = next;
        if (n == depth) break;
        uintptr_t ret = fp[1];
        if (ret < 4096) break;
        if (n == 1 && caller && ret == caller) continue;
        out[n++] = ret;
    }
    return n;
}

/* The stack from `frame` up (`caller` first when known), interned: its id, 0 when the
 * thread's stack bounds are unknown or the stack cannot be stored. */
static inline uint32_t stack_of(sites_thread *t, void *frame, uintptr_t caller, uint32_t depth) {
    if (!t->stack_high) return 0;
    uintptr_t frames[PROFCTL_SITES_MAX_DEPTH];
    uint32_t n = walk(frame, caller, t->stack_high, frames, depth);
    uint64_t hash = hash_frames(frames, n);
    uint32_t c = (uint32_t)(hash >> 56) & (CACHE_SLOTS - 1);
    if (t->cache[c].hash == hash) return t->cache[c].id;
    uint32_t id = intern(frames, n, hash);
    if (id) { t->cache[c].hash = hash; t->cache[c].id = id; }
    return id;
}

/* For meters that name their sites (meters.c): the calling thread's stack from `frame`,
 * `depth` frames at most, whether or not sites are on. The first call on a thread reads its
 * stack bounds, which may allocate: the caller is BUSY, so that is forwarded uncounted. */
uint32_t sites_stack_here(void *frame, uint32_t depth) {
    sites_thread *t = self();
    if (UNLIKELY(!t)) return 0;
    if (UNLIKELY(!t->stack_high)) profctl_sites_prepare_thread();
    return stack_of(t, frame, 0, depth < PROFCTL_SITES_MAX_DEPTH ? depth : PROFCTL_SITES_MAX_DEPTH);
}

uint32_t sites_frames_here(void *frame, uintptr_t *out, uint32_t depth) {
    sites_thread *t = self();
    if (UNLIKELY(!t)) return 0;
    if (UNLIKELY(!t->stack_high)) profctl_sites_prepare_thread();
    return t->stack_high ? walk(frame, 0, t->stack_high, out, depth) : 0;
}

void profctl_sites_alloc(void *p, uint64_t requested, uint64_t usable, uintptr_t caller, void *frame, uint64_t scope) {
    sites_thread *t = self();
    if (UNLIKELY(!t)) {
        atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
        return;
    }
    if (UNLIKELY(t->log_length == t->log_capacity)) {
        spin_lock(&table_lock);
        bool grown = grow((void **)&t->log, &t->log_capacity, t->log_length, sizeof(profctl_site_block));
        spin_unlock(&table_lock);
        if (!grown) {
            atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
            return;
        }
    }
    /* Only objects tracked (type capture without sites): the table, no stack. */
    uint32_t id = 0;
    if (profctl_sites_on & SITES_STACKS) {
        id = stack_of(t, frame ? frame : __builtin_frame_address(0), caller,
                      (uint32_t)atomic_load_explicit(&capture_depth, memory_order_relaxed));
        if (!id) atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
    }
    uint64_t index = t->log_length++;
    t->log[index] = (profctl_site_block){ id, 0, scope, requested, usable, 0 };
    /* Remember the address, so that its free, on any thread, is credited. */
    spin_lock(&table_lock);
    if (UNLIKELY(!slots || (slots_used + 1) * 2 > slot_mask + 1) && !grow_slots()) { spin_unlock(&table_lock); return; }
    uintptr_t a = (uintptr_t)p;
    uint64_t i = slot_of(a, slot_mask);
    while (slots[i].address > 1 && slots[i].address != a) i = (i + 1) & slot_mask;
    if (slots[i].address == a) atomic_fetch_sub_explicit(&live_addresses, 1, memory_order_relaxed); /* stale: the newest block wins */
    else if (slots[i].address == 0) slots_used++;
    slots[i] = (address_slot){ a, t, id, t->generation, index, scope, requested, usable, 0 };
    atomic_fetch_add_explicit(&live_addresses, 1, memory_order_relaxed);
    spin_unlock(&table_lock);
}

/* Never nested with each other (intern holds the stacks' lock only, the address table's
 * users only theirs), so taking both, in this order, cannot deadlock. */
void profctl_sites_fork_prepare(void) {
    spin_lock(&stacks_lock);
    spin_lock(&table_lock);
}

void profctl_sites_fork_done(void) {
    spin_unlock(&table_lock);
    spin_unlock(&stacks_lock);
}

void profctl_sites_free(void *p, uint64_t usable, uint64_t scope) {
    if (__builtin_expect(atomic_load_explicit(&live_addresses, memory_order_relaxed) == 0, 1)) return;
    uintptr_t a = (uintptr_t)p;
    spin_lock(&table_lock);
    if (!slots) { spin_unlock(&table_lock); return; }
    uint64_t i = slot_of(a, slot_mask);
    uintptr_t x;
    while ((x = slots[i].address) != 0) {
        if (x == a) {
            address_slot s = slots[i];
            slots[i].address = 1; /* removed; dropped when the table is rebuilt */
            atomic_fetch_sub_explicit(&live_addresses, 1, memory_order_relaxed);
            /* A size that differs: the block was freed out of sight and the address reused.
             * Dropped uncredited, as the hooks do. */
            if (usable && s.usable && usable != s.usable) break;
            bool in_log = s.generation == s.owner->generation;
            if (in_log) s.owner->log[s.block].freed = atomic_fetch_add(&sequence, 1);
            /* Released by the freeing thread's region: a block of its own allocated before
             * that region opened, or another thread's no region of that thread still logs. */
            sites_thread *t = me;
            bool released = s.owner == t ? scope > s.scope : !in_log && scope != 0;
            if (released && (t = self()) != NULL &&
                (t->release_length < t->release_capacity ||
                 grow((void **)&t->releases, &t->release_capacity, t->release_length, sizeof(profctl_site_release)))) {
                t->releases[t->release_length++] = (profctl_site_release){ s.stack_id, 0, scope, s.scope, s.requested, s.usable, s.metadata };
            }
            break;
        }
        i = (i + 1) & slot_mask;
    }
    spin_unlock(&table_lock);
}

void profctl_sites_name_object(void *p, uintptr_t metadata) {
    uintptr_t a = (uintptr_t)p;
    spin_lock(&table_lock);
    if (slots) {
        uint64_t i = slot_of(a, slot_mask);
        uintptr_t x;
        while ((x = slots[i].address) != 0) {
            if (x == a) {
                slots[i].metadata = metadata;
                break;
            }
            i = (i + 1) & slot_mask;
        }
    }
    spin_unlock(&table_lock);
}

int profctl_sites_describe(uintptr_t address, const char **module, uintptr_t *base, const char **symbol) {
    Dl_info info;
    if (dladdr((void *)address, &info) == 0) return 0;
    *module = info.dli_fname;
    *base = (uintptr_t)info.dli_fbase;
    *symbol = info.dli_sname;
    return 1;
}
