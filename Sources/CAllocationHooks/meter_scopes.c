/*
 * Opening and closing meters (include/allocation_meters.h): the count of open ones, the
 * flag the general path reads (meters_on) and the fast paths' switch (update_fast, in
 * modes.c). Beside regions.c and windows.c; the meters themselves and their blocks are
 * meters.c's, below.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "allocation_meters.h"

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

uint64_t profctl_meter_open(uint64_t parent) {
    if (!meters_have_key()) return 0;
    uint64_t id = meters_claim(parent);
    if (!id) return 0;
    spin_lock(&scope_lock);
    if (open_count++ == 0) {
        meters_on = 1;
        update_fast();
    }
    spin_unlock(&scope_lock);
    meters_publish(id);
    return id;
}

int profctl_meter_read(uint64_t id, profctl_meter_result *result) { return meters_read(id, result); }

int profctl_meter_close(uint64_t id, profctl_meter_result *result) {
    if (meters_retire(id, result) != 0) return -1;
    spin_lock(&scope_lock);
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
