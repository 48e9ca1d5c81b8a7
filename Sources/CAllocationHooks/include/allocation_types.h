#ifndef PROFCTL_ALLOCATION_TYPES_H
#define PROFCTL_ALLOCATION_TYPES_H

/*
 * Swift object types per region (record --types; docs/hooks.md, "Types"). The Swift
 * runtime's swift_allocObject receives each object's metadata; with the runtime's
 * instrumentation flag set (ARC counting, allocation_arc.h) it calls through the exported
 * pointer _swift_allocObject, which the hooks point at their own function. That function
 * logs (object, metadata, requested bytes, region) only while a region is open on the
 * thread and types are on (or a task meter counting objects is open, meters.c); outside
 * a region it adds 18 instructions to swift_allocObject (5 its own: 16 measured before the
 * meters' test of 2 was added; 13 the runtime's inlining lost while the pointer is not its
 * own function),
 * and nothing to retain or release; malloc and free keep the sites' address table while
 * types are captured (profctl_sites_track_objects, allocation_sites.h). Names are resolved
 * by the Swift side, once per metadata, after regions close. None of it allocates:
 * the log comes from mmap.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One object allocated by swift_allocObject in a region, in the allocating thread's log.
typedef struct profctl_type_block {
    uintptr_t address;  /* the object (the malloc'd block) */
    uintptr_t metadata; /* its type's metadata, as swift_allocObject received it */
    uint64_t scope;     /* the innermost region open when it was allocated */
    uint64_t requested; /* requested bytes (swift_allocObject's size) */
} profctl_type_block;

/// Points the runtime's _swift_allocObject at the hooks (until uninstall). ARC counting
/// must be installed first (profctl_arc_install): the pointer is only called while the
/// runtime's flag is set. Returns 0, or -1: profctl_types_refusal() says why.
int profctl_types_install(void);

/// Points _swift_allocObject back at what it held before install (the runtime's own
/// function, which swift_allocObject then runs inline). install may be called again.
void profctl_types_uninstall(void);

/// Why profctl_types_install refused, or "".
const char *profctl_types_refusal(void);

/// Turns logging on (1) or off (0) for the whole process.
void profctl_types_enable(int on);

/// Non-zero while types are logged.
int profctl_types_enabled(void);

/// The calling thread's log: its length and first entry (NULL when empty).
uint64_t profctl_types_log_length(void);
const profctl_type_block *profctl_types_log(void);

/// Forgets the calling thread's log (call with no region open on it).
void profctl_types_reset_thread(void);

/// Objects that could not be logged (mmap failed): 0 in a sound run.
uint64_t profctl_types_dropped(void);

/// Whether the block at `address`, logged in region `scope` with `requested` bytes, is
/// still allocated and tracked by the calling thread's table: 1 yes, 0 no. Reads only the
/// hooks' table (never the block), so a block freed on another thread meanwhile is safe.
int profctl_types_block_live(uintptr_t address, uint64_t scope, uint64_t requested);

/// One type's objects in a window (profctl_types_window_collect): made by swift_allocObject
/// on any thread the window counted, and of those still tracked (live) when it was read.
typedef struct profctl_type_figures {
    uintptr_t metadata; /* PROFCTL_TYPES_OTHER: types beyond the capacity, summed */
    uint64_t objects;
    uint64_t requested_bytes;
    uint64_t live_objects;
    uint64_t live_requested_bytes;
} profctl_type_figures;

#define PROFCTL_TYPES_OTHER ((uintptr_t)1)

/// Starts logging every Swift object of the open window (profctl_window_begin), on every
/// thread it counts, until profctl_types_window_end. Installs the type hook (ARC counting
/// must be installed and counting: the runtime calls the pointer only with its flag set)
/// and points it, only meanwhile, at a second adapter: paths outside such a window do not
/// change. Returns 0, or -1 (no window open, or the install refused: profctl_types_refusal).
int profctl_types_window_begin(void);

/// Stops it (call when the window closes, before or after profctl_window_end).
void profctl_types_window_end(void);

/// Folds the objects logged in window `epoch` by metadata into out (zeroed first, at most
/// `capacity` entries, the last kept for PROFCTL_TYPES_OTHER) and returns how many entries
/// it filled, compacted to the front; -1 on bad arguments. An object is live when the table
/// of the thread that allocated it still tracks its block for the window with its size.
/// `live`, when given, receives every block of the window still tracked, objects or not
/// (live_objects and live_requested_bytes): the remainder's live figures are its less the
/// objects'. Reads only the hooks' tables and logs (never a block); allocates nothing.
int profctl_types_window_collect(uint64_t epoch, profctl_type_figures *out, uint32_t capacity, profctl_type_figures *live);

#ifdef __cplusplus
}
#endif

#endif
