/*
 * The hooks' side of sites.c (the public side is include/allocation_sites.h): what the
 * hooks call, at a block tracked in a region and at any free, and its fork handler's half.
 * A leaf: sites.c calls nothing of the hooks; they hand it what it needs (the scope).
 */
#ifndef PROFCTL_SITES_INTERNAL_H
#define PROFCTL_SITES_INTERNAL_H

#include "allocation_sites.h"
#include "hooks_base.h"

/* Non-zero while the address table is kept: bit SITES_STACKS while sites are captured,
 * bit SITES_OBJECTS while type capture needs to know which object a later region freed
 * (types.c). Set through profctl_sites_enable and profctl_sites_track_objects (modes.c),
 * never directly: that also switches the hooks' fast paths to their copies that call here. */
extern HIDDEN volatile int profctl_sites_on;
#define SITES_STACKS 1
#define SITES_OBJECTS 2

/* Turns capture on (depth frames, at most PROFCTL_SITES_MAX_DEPTH) or off (depth 0). */
HIDDEN void sites_configure(int depth);
/* Turns the table's object mode on or off: blocks are logged and their frees in later
 * regions released as with sites, without walking a stack unless sites are captured too. */
HIDDEN void sites_configure_objects(int on);
/* Marks the block at `pointer`, logged a moment ago, as an object of `metadata`: its
 * release (profctl_site_release) then carries it. Nothing when the block is not in the table. */
HIDDEN void profctl_sites_name_object(void *pointer, uintptr_t metadata);

/* A block allocated in region `scope`. `caller` is malloc's return address (0 when
 * unknown): the first frame, which a walk from a malloc compiled without a frame pointer
 * would miss. `frame` is where the walk starts: the frame of the function malloc called
 * (its saved frame pointer is malloc's), so that the hooks' own frames stay out of the
 * stack; NULL: profctl_sites_alloc's own. */
HIDDEN void profctl_sites_alloc(void *pointer, uint64_t requested, uint64_t usable, uintptr_t caller, void *frame, uint64_t scope);
/* Any free, on a thread whose innermost open region is `scope` (0: none). `usable` is the
 * block's usable size now: an entry whose size differs is stale (its block was freed out of
 * sight and the address reused) and is dropped uncredited, as the hooks do. */
HIDDEN void profctl_sites_free(void *pointer, uint64_t usable, uint64_t scope);
/* The calling thread's stack from `frame` up (at most `depth` frames), interned; 0 when it
 * cannot be. For meters (meters.c), which name their sites whether or not sites are on.
 * Call it BUSY: its first call on a thread may allocate. */
HIDDEN uint32_t sites_stack_here(void *frame, uint32_t depth);
/* The same walk's return addresses, not interned: how many were written to `out`. */
HIDDEN uint32_t sites_frames_here(void *frame, uintptr_t *out, uint32_t depth);
/* The hooks' fork handler (fork.c): sites.c's two locks, taken before a fork and released
 * after it on both sides, so the child never inherits one held for good. */
HIDDEN void profctl_sites_fork_prepare(void);
HIDDEN void profctl_sites_fork_done(void);

#endif
