/*
 * Opening and closing meters (include/allocation_meters.h): the count of open ones, the
 * flag the general path reads (meters_on) and the fast paths' switch (update_fast, in
 * modes.c). Beside regions.c and windows.c; the meters themselves and their blocks are
 * meters.c's, below.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "allocation_meters.h"
#include "allocation_arc.h"
#include "allocation_types.h"

#include <string.h>

static uint32_t open_count;
/* The count, the flag and the fast paths change together under it, so that a meter opening
 * as the last other one closes never finds the fast paths on. */
static atomic_flag scope_lock = ATOMIC_FLAG_INIT;

int profctl_meters_set_key(const void *key) { return meters_set_key(key) ? 0 : -1; }

uint32_t profctl_meters_open(void) {
    spin_lock(&scope_lock);
    uint32_t n = open_count;
    spin_unlock(&scope_lock);
    return n;
}

/* Meters open that capture types or ARC, and the runtime flag as it was before the first;
 * and of those, the ones capturing types and ARC apart: every limit captures types (a
 * failure names them), and a retain of a test without a retain limit must not ask for its
 * task's meter. */
static uint32_t runtime_count, types_count, arc_count;
static int flag_before;

uint64_t profctl_meter_open(uint64_t parent) { return profctl_meter_open_capturing(parent, 0); }

uint64_t profctl_meter_open_capturing(uint64_t parent, uint32_t what) {
    if (!meters_have_key()) return 0;
    bool runtime = (what & (PROFCTL_METER_TYPES | PROFCTL_METER_ARC)) != 0;
    /* Both need the runtime's instrumentation flag, which only ARC counting's install can set. */
    if (runtime && profctl_arc_install() != 0) return 0;
    if ((what & PROFCTL_METER_TYPES) && profctl_types_install() != 0) return 0;
    runtime_caches_resolve();
    uint64_t id = meters_claim(parent, what);
    if (!id) return 0;
    spin_lock(&scope_lock);
    if (open_count++ == 0) {
        meters_on = 1;
        update_fast();
    }
    if ((what & PROFCTL_METER_TYPES) && types_count++ == 0) profctl_meter_types_on = 1;
    if ((what & PROFCTL_METER_ARC) && arc_count++ == 0) meters_arc_on = 1;
    if (runtime && runtime_count++ == 0) {
        /* Whatever the flag was (record --arc may have set it) is put back by the last close. */
        flag_before = profctl_arc_counting();
        profctl_arc_set_counting(1);
    }
    spin_unlock(&scope_lock);
    meters_publish(id);
    return id;
}

int profctl_meter_read(uint64_t id, profctl_meter_result *result) { return meters_read(id, result); }

int profctl_meter_close(uint64_t id, profctl_meter_result *result) {
    uint32_t capture = meters_capture(id);
    if (meters_retire(id, result) != 0) return -1;
    spin_lock(&scope_lock);
    if ((capture & PROFCTL_METER_TYPES) && --types_count == 0) profctl_meter_types_on = 0;
    if ((capture & PROFCTL_METER_ARC) && --arc_count == 0) meters_arc_on = 0;
    if ((capture & (PROFCTL_METER_TYPES | PROFCTL_METER_ARC)) && --runtime_count == 0) profctl_arc_set_counting(flag_before);
    if (--open_count == 0) {
        meters_on = 0;
        update_fast();
        /* Its blocks, and any a closed meter left, are nobody's now. */
        meters_forget_blocks();
    }
    spin_unlock(&scope_lock);
    meters_free_slot(id);
    return 0;
}
