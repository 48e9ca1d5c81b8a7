#ifndef PROFCTL_ALLOCATION_SITES_H
#define PROFCTL_ALLOCATION_SITES_H

/*
 * Allocation sites (record --sites): every allocation made while a region is open on the
 * allocating thread captures its call stack by walking frame pointers. Stacks are stored
 * once, process-wide, and named by a small id; each thread keeps a log of its blocks
 * (stack id, requested and usable bytes, freed or not) that the Swift side reads when a
 * measured region closes. None of it allocates: storage comes from mmap. See docs/hooks.md.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Frames captured at most.
#define PROFCTL_SITES_MAX_DEPTH 128

/// One block allocated in a region, in the allocating thread's log.
typedef struct profctl_site_block {
    uint32_t stack_id; /* 1-based; 0 when the stack could not be stored */
    uint32_t unused;
    uint64_t scope;    /* the innermost region open when it was allocated */
    uint64_t requested;
    uint64_t usable;
    /* 0 while live; once freed (on any thread), a stamp of the process-wide sequence
     * profctl_sites_region_ending also draws from: freed in the region if below its stamp. */
    uint64_t freed;
} profctl_site_block;

/// Non-zero while sites are captured (profctl_sites_on, for Swift).
int profctl_sites_enabled(void);

/// A block of the log freed on this thread in a region opened after the block was
/// allocated: what that region released.
typedef struct profctl_site_release {
    uint32_t stack_id;
    uint32_t unused;
    uint64_t scope;       /* the innermost region open when it was freed */
    uint64_t block_scope; /* the innermost region open when it was allocated */
    uint64_t requested;
    uint64_t usable;
    /* Its Swift type's metadata when type capture named it (profctl_sites_track_objects);
     * 0: not an object, or types not captured. */
    uintptr_t metadata;
} profctl_site_release;

/// Turns capture on (depth frames, 1...PROFCTL_SITES_MAX_DEPTH) or off (depth 0).
void profctl_sites_enable(int depth);

/// Keeps the address table for type capture (on 1, off 0), with or without sites: each
/// block a region tracks is remembered until freed, an object with its metadata, and a
/// free of it in a later region is logged in the freeing thread's releases (above), so
/// that the types of what a later event gave back are known (docs/leaks.md, "Which types
/// stay"). Stacks are walked only while sites are captured.
void profctl_sites_track_objects(int on);

/// Prepares the calling thread for capture: reads its stack bounds (which may allocate:
/// call it outside any region, or excluded). Cheap once done.
void profctl_sites_prepare_thread(void);

/// Called just before a region closes: stamps the moment, so that blocks other threads
/// free after it are not taken as freed in the region (profctl_sites_last_stamp).
void profctl_sites_region_ending(void);
uint64_t profctl_sites_last_stamp(void);

/// The calling thread's log length: blocks logged so far.
uint64_t profctl_sites_log_length(void);

/// The calling thread's log, from the start (valid until the next allocation in a region).
const profctl_site_block *profctl_sites_log(void);

/// The calling thread's releases, in time order, and how many.
uint64_t profctl_sites_release_length(void);
const profctl_site_release *profctl_sites_releases(void);

/// Empties the calling thread's logs. Its blocks still live stay known, so that a later
/// region that frees them is credited.
void profctl_sites_reset_thread(void);

/// Copies stack `id`'s frames (return addresses, innermost first) into out; returns how
/// many there are (0 for an unknown id). At most `capacity` are copied.
uint32_t profctl_sites_stack(uint32_t id, uintptr_t *out, uint32_t capacity);

/// Stacks stored so far (ids run 1...count).
uint32_t profctl_sites_stack_count(void);

/// Blocks whose stack could not be stored (the stack table full, or mmap failed).
uint64_t profctl_sites_dropped(void);

/// Where an address is: its module's path and load address, and the nearest exported
/// symbol (NULL when none). Returns 0 when no module holds it. dladdr, for Swift.
int profctl_sites_describe(uintptr_t address, const char **module, uintptr_t *base, const char **symbol);


#ifdef __cplusplus
}
#endif

#endif
