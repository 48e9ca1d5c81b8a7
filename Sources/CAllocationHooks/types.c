/*
 * Swift object types per region (include/allocation_types.h; docs/hooks.md, "Types"). A
 * leaf, like swift_runtime.c: the hooks' core calls nothing here; this file reads the
 * thread's state (hooks_internal.h) to know whether a region is open, and its own table
 * to say whether a logged object is still live.
 *
 * Why the _swift_allocObject pointer and not the first word of tracked blocks: only
 * swift_allocObject knows a block is an object. Reading the first word of every block a
 * region tracked would take an array's elements, a C buffer or a freed block's free-list
 * link for metadata. Here only objects are logged, with the metadata the runtime passed:
 * nothing is ever read from a block.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "allocation_types.h"
#include "sites.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef void *(*alloc_object_fn)(const void *, size_t, size_t);

/* What the pointer held before install: the runtime's own _swift_allocObject_. Not static:
 * the adapter below, written in assembly, jumps through it by name. */
HIDDEN alloc_object_fn profctl_types_real_alloc_object;
static _Atomic int install_state; /* 0 not installed, 1 installed, -1 refused */
static void **runtime_pointer; /* _swift_allocObject, once found */
static char refusal[256];
static volatile int types_on;
static _Atomic uint64_t dropped;

typedef struct types_thread {
    profctl_type_block *log;
    uint64_t length, capacity;
} types_thread;

/* The thread's log: mmapped, grown by doubling, never malloc'd. */
static TLS types_thread mine;

/* Doubles the thread's log (or maps its first pages); false when mmap fails. */
static SLOW bool grow_log(void) {
    uint64_t wanted = mine.capacity ? mine.capacity * 2 : 16384;
    void *fresh = mmap(NULL, wanted * sizeof(profctl_type_block), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (fresh == MAP_FAILED) return false;
    if (mine.log) {
        memcpy(fresh, mine.log, mine.length * sizeof(profctl_type_block));
        munmap(mine.log, mine.capacity * sizeof(profctl_type_block));
    }
    mine.log = fresh;
    mine.capacity = wanted;
    return true;
}

static SLOW void log_object(void *object, const void *metadata, size_t requested) {
    if (!object) return;
    if (UNLIKELY(mine.length == mine.capacity) && !grow_log()) {
        atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
        return;
    }
    mine.log[mine.length++] = (profctl_type_block){ (uintptr_t)object, (uintptr_t)metadata, tls.scope_id, requested };
    /* The sites' address table remembers the block until it is freed: named here, a free
     * in a later region releases it as this type (docs/leaks.md, "Which types stay"). */
    if (profctl_sites_on & SITES_OBJECTS) profctl_sites_name_object(object, (uintptr_t)metadata);
}

/* The adapter's way in a region: the runtime's allocation, then the log. */
HIDDEN __attribute__((used)) void *profctl_types_alloc_logged(const void *metadata, size_t requested, size_t alignment_mask) {
    void *object = profctl_types_real_alloc_object(metadata, requested, alignment_mask);
    if (types_on && tls.tracking) log_object(object, metadata, requested);
    if (profctl_meter_types_on) meter_object(object, metadata, requested);
    return object;
}

#if defined(__x86_64__)
/* What the runtime calls for every object while its flag is set. A naked function, as ARC
 * counting's adapters are (swift_runtime.c), because outside a region every instruction
 * here is added to each swift_allocObject: a test of the thread's tracking byte (set only
 * while a region is open and the thread is not excluded, as malloc reads it) and a jump to
 * the runtime's allocation, which returns to swift_allocObject's caller: 3 instructions,
 * and 2 more for the flag of a meter capturing types (meters.c), which sends a thread in no
 * region the same way (compiled C must call the runtime and log after it, so it keeps a
 * frame). Arguments
 * arrive in %rdi, %rsi, %rdx and are left alone. */
__attribute__((naked)) static void alloc_object_adapter(void) {
    __asm__ volatile("cmpb $0, %%fs:tls@tpoff+%c0\n\t"
                     "jne 1f\n\t"
                     "cmpl $0, profctl_meter_types_on(%%rip)\n\t"
                     "jne 1f\n\t"
                     "jmp *profctl_types_real_alloc_object(%%rip)\n"
                     "1:\n\t"
                     "jmp profctl_types_alloc_logged"
                     :
                     : "i"(offsetof(thread_state, tracking)));
}
#endif

/* ---- windows (profctl_types_window_begin): every thread's objects, opt-in ----
 *
 * A window sets no thread's tracking byte, and testing hot.window in the adapter above would
 * add a load and a branch to every swift_allocObject outside regions while types are on.
 * So a window that asks for types writes a second adapter into the pointer, and only for as
 * long as it is open: it logs every object a thread that the window counts allocates, with
 * no cost to any path while no such window is open. Each thread appends to a log of its
 * own, in a registry the closing thread walks; a log has a lock, taken by its owner to
 * append (uncontended but at the close) and by the close to read, so that the owner never
 * unmaps a log while the close reads it. */

typedef struct window_log {
    atomic_flag lock;
    _Atomic int claimed;
    table *table; /* the owner's table of tracked blocks: where its objects' liveness is */
    profctl_type_block *entries;
    uint64_t length, capacity;
} window_log;

/* Threads with a log of their own; later ones share the last, under its lock all the same. */
#define WINDOW_LOGS 512
static window_log window_logs[WINDOW_LOGS + 1];
static _Atomic uint32_t window_logs_high; /* slots claimed, at most WINDOW_LOGS */
static TLS window_log *my_window_log;
/* The epoch of the window capturing types, 0 when none. */
static _Atomic uint64_t types_window;
/* A type capture stopped while such a window was open: its end uninstalls (install_lock). */
static bool uninstall_at_window_end;

/* The calling thread's log, claimed on its first object in a window. */
static window_log *own_window_log(void) {
    if (LIKELY(my_window_log != NULL)) return my_window_log;
    uint32_t slot = atomic_fetch_add(&window_logs_high, 1);
    if (slot >= WINDOW_LOGS) {
        atomic_store(&window_logs_high, WINDOW_LOGS);
        slot = WINDOW_LOGS;
    }
    window_log *log = &window_logs[slot];
    atomic_store(&log->claimed, 1);
    my_window_log = log;
    return log;
}

/* Doubles a window log (or maps its first pages); under its lock. False when mmap fails. */
static bool grow_window_log(window_log *log) {
    uint64_t wanted = log->capacity ? log->capacity * 2 : 4096;
    void *fresh = mmap(NULL, wanted * sizeof(profctl_type_block), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (fresh == MAP_FAILED) return false;
    if (log->entries) {
        memcpy(fresh, log->entries, log->length * sizeof(profctl_type_block));
        munmap(log->entries, log->capacity * sizeof(profctl_type_block));
    }
    log->entries = fresh;
    log->capacity = wanted;
    return true;
}

/* An object made while a window capturing types is open: logged when the window counted
 * its block (malloc's general path tracks it in the thread's table with the window's
 * epoch: a thread not excluded, not inside the hooks, with a table). */
static SLOW void window_object(void *object, const void *metadata, size_t requested, uint64_t epoch) {
    if (!object || tls.excluded_depth || tls.state != STATE_READY || tls.table == &no_table) return;
    window_log *log = own_window_log();
    spin_lock(&log->lock);
    if (log->length == log->capacity && !grow_window_log(log)) {
        atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
    } else {
        log->table = tls.table;
        log->entries[log->length++] = (profctl_type_block){ (uintptr_t)object, (uintptr_t)metadata, epoch, requested };
    }
    spin_unlock(&log->lock);
}

/* What the pointer holds while a window captures types: everything the first adapter does,
 * and the window's log. Plain C: it is on no path but an open window's. */
static void *window_alloc_object_adapter(const void *metadata, size_t requested, size_t alignment_mask) {
    void *object = profctl_types_real_alloc_object(metadata, requested, alignment_mask);
    if (types_on && tls.tracking) log_object(object, metadata, requested);
    if (profctl_meter_types_on) meter_object(object, metadata, requested);
    uint64_t epoch = atomic_load_explicit(&types_window, memory_order_relaxed);
    if (epoch && atomic_load_explicit(&hot.window, memory_order_relaxed) == epoch) window_object(object, metadata, requested, epoch);
    return object;
}

/* The runtime's allocation hook pointer, referenced at link time and weakly, as
 * swift_runtime.c's pointers are and for the same reason: the release profctl carries the
 * runtime inside (-static-stdlib), where dlsym cannot see it. */
extern void *runtime_alloc_object_pointer __asm__("_swift_allocObject") __attribute__((weak));

static int refuse(const char *why) {
    snprintf(refusal, sizeof refusal, "%s", why);
    atomic_store(&install_state, -1);
    return -1;
}

static int install_locked(void);

/* Two task meters may open at once in parallel tests, each installing: the second must
 * find the first's install done, not the slots it already replaced (which it would take for
 * another tool's and refuse for good). */
static atomic_flag install_lock = ATOMIC_FLAG_INIT;

int profctl_types_install(void) {
    spin_lock(&install_lock);
    int result = install_locked();
    spin_unlock(&install_lock);
    return result;
}

static int install_locked(void) {
    int state = atomic_load(&install_state);
    if (state != 0) return state > 0 ? 0 : -1;
#if !defined(__x86_64__)
    return refuse("type capture knows only x86_64's Swift runtime");
#else
    if (!runtime_pointer) {
        void **pointer = &runtime_alloc_object_pointer;
        if (!pointer || !*pointer) return refuse("this Swift runtime does not export the _swift_allocObject hook pointer");
        runtime_pointer = pointer;
    }
    /* Whatever it holds (the runtime's own function, or another tool's that chains to it)
     * is what the adapter jumps to. */
    profctl_types_real_alloc_object = (alloc_object_fn)*runtime_pointer;
    *runtime_pointer = (void *)alloc_object_adapter;
    atomic_store(&install_state, 1);
    return 0;
#endif
}

/* Puts the runtime's function back. While the pointer holds the runtime's own function,
 * swift_allocObject runs it inlined (18 instructions under callgrind); through any other
 * it makes a call (34 with the adapter), so ARC counting without types must not pay for
 * it. A thread that read the adapter's address just before finishes through it: the
 * adapter and what it jumps to stay valid. */
void profctl_types_uninstall(void) {
    spin_lock(&install_lock);
    if (atomic_load(&install_state) == 1) {
        if (*runtime_pointer == (void *)window_alloc_object_adapter) {
            /* A window capturing types is open: it puts the runtime's function back when it
             * ends (install meanwhile must not take its adapter for the runtime's). */
            uninstall_at_window_end = true;
        } else {
            if (*runtime_pointer == (void *)alloc_object_adapter) *runtime_pointer = (void *)profctl_types_real_alloc_object;
            atomic_store(&install_state, 0);
        }
    }
    spin_unlock(&install_lock);
}

int profctl_types_window_begin(void) {
    uint64_t epoch = atomic_load(&hot.window);
    if (!epoch) return -1;
    spin_lock(&install_lock);
    int result = install_locked();
    if (result == 0) {
        /* Forget what an earlier window logged; a thread still appending to it (it read the
         * previous epoch just before) appends under the same lock. */
        uint32_t logs = atomic_load(&window_logs_high);
        for (uint32_t i = 0; i <= logs && i <= WINDOW_LOGS; i++) {
            spin_lock(&window_logs[i].lock);
            window_logs[i].length = 0;
            spin_unlock(&window_logs[i].lock);
        }
        atomic_store(&types_window, epoch);
        *runtime_pointer = (void *)window_alloc_object_adapter;
    }
    spin_unlock(&install_lock);
    return result;
}

void profctl_types_window_end(void) {
    spin_lock(&install_lock);
    atomic_store(&types_window, 0);
    /* Back to the first adapter, or to the runtime's own function when a type capture
     * uninstalled meanwhile. A thread that read the window adapter's address just before
     * finishes through it: it stays valid, and logs nothing once the epoch is 0. */
    if (runtime_pointer && *runtime_pointer == (void *)window_alloc_object_adapter) {
        *runtime_pointer = uninstall_at_window_end ? (void *)profctl_types_real_alloc_object : (void *)alloc_object_adapter;
        if (uninstall_at_window_end) atomic_store(&install_state, 0);
    }
    uninstall_at_window_end = false;
    spin_unlock(&install_lock);
}

/* Whether t (another thread's table, or the caller's) holds the block at `address` tracked
 * in window `epoch` with `requested` bytes: under its lock (no growth or purge meanwhile),
 * read again if its owner moved entries. A block freed on another thread is marked dead
 * there, and matches no address. */
static bool window_block_live(table *t, uintptr_t address, uint64_t epoch, uint64_t requested) {
    if (!t || t == &no_table) return false;
    spin_lock(&t->lock);
    bool live = false;
    if (has_entries(t)) {
        uint64_t seq;
        do {
            seq = even_seq(t);
            int64_t i = find(t, address);
            entry e = i >= 0 ? t->entries[i] : (entry){ 0, 0, 0, 0 };
            atomic_thread_fence(memory_order_acquire);
            live = i >= 0 && e.address == address && (e.tag >> SCOPE_BITS) == epoch && e.requested == requested;
        } while (atomic_load_explicit(&t->seq, memory_order_relaxed) != seq);
    }
    spin_unlock(&t->lock);
    return live;
}

/* Every block of window `epoch` still tracked in any table: how many, their bytes. */
static void window_live_blocks(uint64_t epoch, uint64_t *blocks, uint64_t *bytes) {
    *blocks = *bytes = 0;
    uint32_t high = atomic_load_explicit(&tables_high_water, memory_order_acquire);
    for (uint32_t index = 0; index < high; index++) {
        table *t = &tables[index];
        spin_lock(&t->lock);
        uint64_t n = 0, b = 0;
        if (has_entries(t)) {
            uint64_t seq;
            do {
                seq = even_seq(t);
                n = b = 0;
                for (uint64_t i = 0; i <= t->mask; i++) {
                    /* The address first: an entry is written address last. */
                    uintptr_t a = __atomic_load_n(&t->entries[i].address, __ATOMIC_ACQUIRE);
                    if (!a || (a & 1) || (t->entries[i].tag >> SCOPE_BITS) != epoch) continue;
                    n++;
                    b += t->entries[i].requested;
                }
                atomic_thread_fence(memory_order_acquire);
            } while (atomic_load_explicit(&t->seq, memory_order_relaxed) != seq);
        }
        spin_unlock(&t->lock);
        *blocks += n;
        *bytes += b;
    }
}

/* The figures of `metadata` in out[0..capacity), an open-addressed table keyed by metadata
 * whose last entry (metadata PROFCTL_TYPES_OTHER) takes what does not fit. */
static profctl_type_figures *figures_of(profctl_type_figures *out, uint32_t capacity, uint32_t *used, uintptr_t metadata) {
    uint32_t slots = capacity - 1;
    uint32_t i = (uint32_t)(((uint64_t)metadata * 0x9E3779B97F4A7C15ull) >> 32) % slots;
    for (uint32_t probe = 0; probe < slots; probe++, i = (i + 1) % slots) {
        if (out[i].metadata == metadata) return &out[i];
        if (out[i].metadata == 0) {
            if (*used + 1 >= slots) break; /* keep one empty slot: probes end */
            out[i].metadata = metadata;
            (*used)++;
            return &out[i];
        }
    }
    out[slots].metadata = PROFCTL_TYPES_OTHER;
    return &out[slots];
}

int profctl_types_window_collect(uint64_t epoch, profctl_type_figures *out, uint32_t capacity, profctl_type_figures *live) {
    if (!out || capacity < 2 || !epoch) return -1;
    memset(out, 0, capacity * sizeof *out);
    uint32_t used = 0;
    uint32_t logs = atomic_load(&window_logs_high);
    for (uint32_t l = 0; l <= logs && l <= WINDOW_LOGS; l++) {
        window_log *log = &window_logs[l];
        spin_lock(&log->lock);
        /* Newest first, with the addresses seen: an address freed and reused by the same
         * thread was tracked once more, so only its newest object can be live. Another
         * thread's reuse of it is told apart by the table: only the allocating thread's
         * table is asked about its log's objects. */
        uint64_t length = log->length, seen_mask = 0;
        uintptr_t *seen = NULL;
        size_t seen_bytes = 0;
        if (length) {
            uint64_t slots = 1;
            while (slots < length * 2) slots <<= 1;
            seen_bytes = slots * sizeof(uintptr_t);
            void *p = mmap(NULL, seen_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p != MAP_FAILED) { seen = p; seen_mask = slots - 1; }
        }
        for (uint64_t k = length; k-- > 0;) {
            const profctl_type_block *b = &log->entries[k];
            if (b->scope != epoch) continue;
            profctl_type_figures *f = figures_of(out, capacity, &used, b->metadata);
            f->objects += 1;
            f->requested_bytes += b->requested;
            bool newest = true;
            if (seen) {
                uint64_t i = ((uint64_t)(b->address >> 4) * 0x9E3779B97F4A7C15ull) & seen_mask;
                while (seen[i] && seen[i] != b->address) i = (i + 1) & seen_mask;
                newest = seen[i] == 0;
                seen[i] = b->address;
            }
            /* Without room to remember addresses (mmap failed), an object counts as live
             * only if it is newest in fact; unknown: not live. */
            if (seen && newest && window_block_live(log->table, b->address, epoch, b->requested)) {
                f->live_objects += 1;
                f->live_requested_bytes += b->requested;
            }
        }
        if (seen) munmap(seen, seen_bytes);
        spin_unlock(&log->lock);
    }
    if (live) {
        memset(live, 0, sizeof *live);
        window_live_blocks(epoch, &live->live_objects, &live->live_requested_bytes);
    }
    /* Compacted: the used entries first, the overflow last when it holds anything. */
    uint32_t n = 0;
    for (uint32_t i = 0; i < capacity; i++) {
        if (out[i].metadata == 0 || (i == capacity - 1 && out[i].objects == 0)) continue;
        out[n++] = out[i];
    }
    return (int)n;
}

const char *profctl_types_refusal(void) { return atomic_load(&install_state) < 0 ? refusal : ""; }

void profctl_types_enable(int on) {
    types_on = on ? 1 : 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

int profctl_types_enabled(void) { return types_on; }

uint64_t profctl_types_log_length(void) { return mine.length; }
const profctl_type_block *profctl_types_log(void) { return mine.length ? mine.log : NULL; }
void profctl_types_reset_thread(void) { mine.length = 0; }
uint64_t profctl_types_dropped(void) { return atomic_load(&dropped); }

int profctl_types_block_live(uintptr_t address, uint64_t scope, uint64_t requested) {
    if (tls.state == STATE_NEW || tls.state == STATE_EXITED) return 0;
    table *t = tls.table;
    if (t == &no_table || !has_entries(t)) return 0;
    /* The owner may read its own table at any time (find); a block another thread freed is
     * marked dead there (its address's low bit set), so it matches no address. */
    int64_t i = find(t, address);
    if (i < 0) return 0;
    const entry *e = &t->entries[i];
    /* The entry must be the logged block's: tracked in the same region with the same size.
     * An address freed and reused by another block of the region is told apart by the
     * caller (the log's later entry for it wins). */
    return (e->tag & SCOPE_MASK) == scope && e->requested == requested;
}
