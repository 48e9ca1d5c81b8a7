/*
 * What every file of the hooks shares, and nothing else: the macros, the limits, the spin
 * lock. The one place for them: the core (hooks_internal.h) and the leaves (lifetimes.c,
 * sites.c) include it, and none of them defines its own.
 *
 * Rules every file keeps, because breaking them deadlocks or recurses inside malloc:
 *   - never call malloc; storage is static or comes from mmap;
 *   - no dlsym on the hot path (platform_glibc.c resolves what it needs once);
 *   - a thread-local reentrancy guard: a nested call (dlsym, pthread_setspecific) just
 *     forwards, uncounted (hooks_internal.h, STATE_BUSY).
 */
#ifndef PROFCTL_HOOKS_BASE_H
#define PROFCTL_HOOKS_BASE_H

#include "allocation_hooks.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Threads with a table of tracked blocks (and lifetimes storage) of their own, at most.
 * Beyond it a thread counts straight into the retired totals, as an exited one does. */
#define PROFCTL_MAX_THREADS 4096
#define MAX_DEPTH PROFCTL_MAX_REGION_DEPTH

/* initial-exec: the linker turns every access into an immediate offset from the thread
 * pointer in the executable (no __tls_get_addr). */
#define TLS __attribute__((tls_model("initial-exec"))) _Thread_local
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ALWAYS_INLINE __attribute__((always_inline)) inline
#define SLOW __attribute__((noinline, cold))
/* Shared between the hooks' files and nobody else: direct calls and rip-relative data, as
 * `static` gives inside one file (no PLT, no GOT), so splitting the files cost nothing. */
#define HIDDEN __attribute__((visibility("hidden")))
/* Between adds to neighbouring counters: keeps the compiler from pairing them into vector
 * instructions, which take more instructions than the two adds. */
#define SEPARATE() __asm__ volatile("" ::: "memory")

/* Counters written by one thread with plain stores and read by others with relaxed
 * atomic loads (a torn read cannot happen on 64-bit words; the figures are read once
 * the work is done). */
static inline uint64_t peek(const uint64_t *c) { return __atomic_load_n(c, __ATOMIC_RELAXED); }

static inline void spin_lock(atomic_flag *f) {
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire)) { }
}
static inline void spin_unlock(atomic_flag *f) { atomic_flag_clear_explicit(f, memory_order_release); }

#endif
