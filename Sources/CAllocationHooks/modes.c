/*
 * The flags every call reads, on one cache line (`hot`), and what sets them: the
 * benchmark's modes, a window opening or closing, sites turned on or off, the platform's
 * checks at load. The fast paths test one of them (`fast`); everything the flags depend on
 * is folded into it here, so that they test nothing else.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "sites.h"

/* Set by meter_scopes.c while a meter is open (hooks_internal.h). */
volatile int meters_on;

hot_flags hot __attribute__((aligned(64))) = { NOT_FAST, 0, PROFCTL_HOOKS_FULL, 0, 0, 0 };

/* Sites captured or not is part of `fast`, so that the fast paths test nothing for them:
 * with sites on, malloc and free take copies of themselves that call sites.c, from the
 * branch that already leads away from the fast path. */
void update_fast(void) {
    int common = atomic_load(&hot.mode) == PROFCTL_HOOKS_FULL && atomic_load(&hot.header_ok) &&
                 atomic_load(&hot.window) == 0 && !atomic_load(&hot.chained);
    int sites = profctl_sites_on != 0;
    /* An open meter sends the fast paths' calls to the general path, which credits it; the
     * sites copies credit it themselves, so that the stacks they capture keep their first
     * frame (the general path's walk starts inside the hooks) while a meter is open. */
    atomic_store(&hot.fast, common && !meters_on && !sites ? STATE_READY : NOT_FAST);
    atomic_store(&hot.sites_fast, common && sites);
}

void profctl_hooks_set_mode(int mode) {
    atomic_store(&hot.mode, mode);
    update_fast();
}

/* sites.c keeps the depth and the flag; the fast paths' choice follows here. */
void profctl_sites_enable(int depth) {
    sites_configure(depth);
    update_fast();
}

void profctl_sites_track_objects(int on) {
    sites_configure_objects(on);
    update_fast();
}
