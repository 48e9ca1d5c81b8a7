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
    if (atomic_load(&install_state) != 1) return;
    if (*runtime_pointer == (void *)alloc_object_adapter) *runtime_pointer = (void *)profctl_types_real_alloc_object;
    atomic_store(&install_state, 0);
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
