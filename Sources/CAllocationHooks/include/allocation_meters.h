#ifndef PROFCTL_ALLOCATION_METERS_H
#define PROFCTL_ALLOCATION_METERS_H

/*
 * Meters: a measured stretch of ONE TASK's work, with every structured child task's
 * (async let, task groups), on whatever threads they run. Where a region follows a
 * thread, a meter follows a Swift task-local value: the caller binds the meter's id in a
 * TaskLocal<UInt64> (its object's address is the key given to profctl_meters_set_key),
 * and while any meter is open every allocation takes the hooks' general path, which asks
 * the concurrency runtime for the allocating task's value (swift_task_localValueGet) and
 * credits that meter and the meters it was opened inside. Its blocks are kept in a table
 * of their own, so a free on any thread, during the meter or after it, is credited to it.
 *
 * What a meter cannot see: work of a detached task or of a thread it starts (they do not
 * inherit task-local values). Unstructured `Task {}` inherits them, so its allocations
 * count while the meter is open, and not after it closes.
 *
 * No meter open: the fast paths are as they were (modes.c, update_fast). Meters open:
 * every thread's every allocation and free takes the general path, and a metered block's
 * insert and free take one process-wide spin lock: meant for tests, not production.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a meter counted: its own task tree's allocations and, of those blocks, the ones
/// freed (on any thread). Figures of an inner meter are its own; the outer meter's
/// include them.
typedef struct profctl_meter_result {
    uint64_t allocations;
    uint64_t requested_bytes;
    uint64_t usable_bytes;
    /// Of its own blocks: how many were freed, and their bytes.
    uint64_t frees;
    uint64_t freed_requested_bytes;
    uint64_t freed_usable_bytes;
    /// Of its own blocks, the requested bytes still live (allocated less freed).
    uint64_t live_requested_bytes;
    uint64_t live_blocks;
    /// The highest live_requested_bytes reached at any moment while it was open.
    uint64_t peak_requested_bytes;
    /// With PROFCTL_METER_ARC: Swift retains and releases its task tree made (a retain_n of
    /// n counts n). With PROFCTL_METER_TYPES: Swift objects it allocated (swift_allocObject).
    uint64_t retains;
    uint64_t releases;
    uint64_t objects;
    /// Blocks its task tree made that the runtimes keep for the process (type metadata and
    /// conformance caches, lazily initialized globals, dispatch's continuations): left out of
    /// every figure above, whichever test made them first (runtime_caches.c).
    uint64_t runtime_cache_blocks;
    uint64_t runtime_cache_bytes;
} profctl_meter_result;

/// How many functions of the runtimes meters leave the allocations of out (runtime_caches.c),
/// told apart when the first meter opened: 0 before, or where none could be (stripped
/// libraries, another runtime), when a figure includes those caches.
uint32_t profctl_meter_runtime_cache_functions(void);

/// What a meter captures beyond its figures (profctl_meter_open_capturing), each only while
/// a meter that asks for it is open. PROFCTL_METER_SITES: the call stack of each of its
/// allocations, summed per stack. PROFCTL_METER_TYPES: the type of each Swift object it
/// allocates (needs profctl_types_install). PROFCTL_METER_ARC: its retains and releases
/// (needs profctl_arc_install). TYPES and ARC set the runtime's instrumentation flag while
/// such a meter is open, so that every thread's retains and object allocations call the hooks.
#define PROFCTL_METER_SITES 1u
#define PROFCTL_METER_TYPES 2u
#define PROFCTL_METER_ARC 4u

/// Stacks, and types, a meter tells apart; more are summed in one entry of stack (or
/// metadata) 0, which also holds allocations whose stack could not be stored.
#define PROFCTL_METER_MAX_SITES 255
#define PROFCTL_METER_MAX_TYPES 127
/// Frames captured per allocation for PROFCTL_METER_SITES: the hooks' own 4 or 5, and enough
/// above them to pass the Swift runtime's metadata instantiation (20 frames) to the caller.
#define PROFCTL_METER_SITE_DEPTH 48

/// One call stack's share of a meter (its frames: profctl_sites_stack).
typedef struct profctl_meter_site {
    uint32_t stack_id;
    uint32_t unused;
    uint64_t allocations;
    uint64_t requested_bytes;
    /// Of those, still live now.
    uint64_t live_requested_bytes;
    uint64_t live_blocks;
} profctl_meter_site;

/// One Swift type's share of a meter: objects swift_allocObject made with this metadata.
typedef struct profctl_meter_type {
    uintptr_t metadata;
    uint64_t objects;
    uint64_t requested_bytes;
    /// Of those, still live now, and their requested bytes (an object whose block the meter
    /// could not keep counts as live for good: a limit on what is kept then fails, never passes).
    uint64_t live_objects;
    uint64_t live_requested_bytes;
} profctl_meter_type;

/// Meters open at once, at most.
#define PROFCTL_MAX_METERS 1024

/// Sets the task-local key: the address of a `TaskLocal<UInt64>` object. Returns 0, or -1
/// when the concurrency runtime's swift_task_localValueGet is not linked into the process.
/// Call it once, before the first meter opens.
int profctl_meters_set_key(const void *key);

/// Opens a meter inside `parent` (0: none; a parent that is not open is ignored) and
/// returns its id (never 0), which the caller binds in the task-local value; 0 when no key
/// was set, the hooks are inactive or PROFCTL_MAX_METERS meters are open.
uint64_t profctl_meter_open(uint64_t parent);

/// profctl_meter_open, capturing `what` (PROFCTL_METER_SITES | ..._TYPES | ..._ARC) too.
/// Returns 0 as profctl_meter_open does, and when TYPES or ARC is asked and the runtime's
/// hooks are not installed (profctl_types_install, profctl_arc_install).
uint64_t profctl_meter_open_capturing(uint64_t parent, uint32_t what);

/// Copies open meter `id`'s sites (or types) into out, at most `capacity`; returns how many
/// it has, or -1 when it is not open or captures none.
int profctl_meter_sites(uint64_t id, profctl_meter_site *out, uint32_t capacity);
int profctl_meter_types(uint64_t id, profctl_meter_type *out, uint32_t capacity);

/// The figures of open meter `id` so far. Returns 0, or -1 when it is not open.
int profctl_meter_read(uint64_t id, profctl_meter_result *result);

/// Closes meter `id` with its final figures. Returns 0, or -1 when it was not open.
/// Blocks it allocated and freed later are no longer counted anywhere.
int profctl_meter_close(uint64_t id, profctl_meter_result *result);

/// Meters open now.
uint32_t profctl_meters_open(void);

/// Called from the child task a measured async body runs in: meter `id` watches the free of
/// that task's object, which comes after the task's own blocks are freed. Returns 0, or -1
/// when the meter is not open or no task is running.
int profctl_meter_watch_task(uint64_t id);

/// Before closing meter `id`: waits, at most `timeout_ns`, until the task it watches has been
/// freed, and at most a tenth of it until the child tasks made in it (task groups' children,
/// `Task {}`: task objects among its blocks, seen allocating) have been. Returns 0 when they
/// have been (or there are none), -1 on timeout or a meter not open. It blocks the calling
/// thread; a finished task's thread frees it without waiting on anything.
int profctl_meter_await_task(uint64_t id, uint64_t timeout_ns);

#ifdef __cplusplus
}
#endif

#endif
