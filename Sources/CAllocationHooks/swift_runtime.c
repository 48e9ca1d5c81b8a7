/*
 * Swift's reference counting, counted: how many retains and releases a region or window
 * causes (docs/hooks.md, "ARC traffic"). A leaf: the hooks' core calls nothing here; this
 * file reads the thread's state (hooks_internal.h) to know whether a region or window
 * counts, and adds to the thread's own counters.
 *
 * How (Swift 6.3.1, Linux x86_64; established by experiment, see docs/hooks.md):
 * libswiftCore exports writable pointers (_swift_retain, _swift_release, _swift_retain_n,
 * _swift_release_n) and a flag. With the flag clear, swift_retain and friends take their
 * own fast path and never look at the pointers: counting off costs nothing. With the flag
 * set they call through the pointers, and so do the calls libswiftCore makes internally
 * (direct calls, no PLT: defining swift_retain in the executable would miss them).
 *
 * One trap: with the flag set, swift_retain jumps through a static slot
 * (_swift_retain_adapter) to an adapter that masks the object with 0x00FFFFFFFFFFFFF8
 * before calling _swift_retain, which turns a small string's payload into a pointer and
 * crashes (fixed upstream for 6.4, swiftlang/swift PR 88924). So the slot is replaced too,
 * by retain_adapter below, which hands the object over unmasked. The slot is not exported:
 * it is found from swift_retain's own code, and every byte that leads there is checked
 * first; on any other runtime nothing is written and counting is refused.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "allocation_arc.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* The runtime's hook pointers, its flag and swift_retain's code, referenced at link time and
 * weakly (null where the runtime lacks them), not looked up with dlsym: the release profctl is
 * linked with -static-stdlib (Package.swift), its runtime inside the executable, and that
 * link's --exclude-libs ALL keeps the runtime's symbols out of the dynamic table, so
 * dlopen("libswiftCore.so", RTLD_NOLOAD) and dlsym find nothing there. Against
 * libswiftCore.so the dynamic linker binds the same references to its exports. The asm names
 * keep these declarations apart from the runtime's own C declarations. */
extern void *runtime_retain_pointer __asm__("_swift_retain") __attribute__((weak));
extern void *runtime_release_pointer __asm__("_swift_release") __attribute__((weak));
extern void *runtime_retain_n_pointer __asm__("_swift_retain_n") __attribute__((weak));
extern void *runtime_release_n_pointer __asm__("_swift_release_n") __attribute__((weak));
extern uint8_t runtime_swizzling_flag
    __asm__("_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly") __attribute__((weak));
extern const uint8_t runtime_swift_retain_code[] __asm__("swift_retain") __attribute__((weak));

typedef void *(*retain_fn)(void *);
typedef void (*release_fn)(void *);
typedef void *(*retain_n_fn)(void *, uint32_t);
typedef void (*release_n_fn)(void *, uint32_t);

/* The runtime's own implementations, as the pointers held them before install. Not static:
 * the adapters below, written in assembly, jump through them by name. */
HIDDEN retain_fn profctl_arc_real_retain;
HIDDEN release_fn profctl_arc_real_release;
HIDDEN retain_n_fn profctl_arc_real_retain_n;
HIDDEN release_n_fn profctl_arc_real_release_n;

/* The runtime's flag (a bool in libswiftCore's .bss), once installed. */
static volatile uint8_t *runtime_flag;
static _Atomic int install_state; /* 0 never tried, 1 installed, -1 refused */
static char refusal[256];

/* Whether a retain or release on a thread that is in no region counts: while the window is
 * open on a thread that is not excluded (the recorder's own work never counts, as for
 * allocations). Inside a region the adapters count without asking (tracking is set only
 * while a region is open and the thread is not excluded). */
static ALWAYS_INLINE bool counts_in_window(void) {
    return UNLIKELY(atomic_load_explicit(&hot.window, memory_order_relaxed) != 0) && tls.excluded_depth == 0 &&
           tls.state != STATE_BUSY;
}

/* A thread that never allocated has not joined the registry, so a window would not see
 * its counters: it joins now (rare, and off the counting fast path). */
static SLOW void join_for_window(void) { enter_always(); }

static ALWAYS_INLINE void count_retains(uint64_t n) {
    if (UNLIKELY(tls.state == STATE_NEW)) join_for_window();
    tls.n.c.retains += n;
}

static ALWAYS_INLINE void count_releases(uint64_t n) {
    if (UNLIKELY(tls.state == STATE_NEW)) join_for_window();
    tls.n.c.releases += n;
}

/* The adapters' way when the thread is in no region (a window, a task meter capturing ARC,
 * or nothing to count). The
 * object is forwarded as it came (never masked), and the runtime's own implementation
 * decides what a null, tagged or immortal value means. */
HIDDEN __attribute__((used)) void *profctl_arc_retain_elsewhere(void *object) {
    if (counts_in_window()) count_retains(1);
    if (UNLIKELY(meters_arc_on)) meter_arc(1, 0);
    return profctl_arc_real_retain(object);
}

HIDDEN __attribute__((used)) void profctl_arc_release_elsewhere(void *object) {
    if (counts_in_window()) count_releases(1);
    if (UNLIKELY(meters_arc_on)) meter_arc(0, 1);
    profctl_arc_real_release(object);
}

HIDDEN __attribute__((used)) void *profctl_arc_retain_n_elsewhere(void *object, uint32_t n) {
    if (counts_in_window()) count_retains(n);
    if (UNLIKELY(meters_arc_on)) meter_arc(n, 0);
    return profctl_arc_real_retain_n(object, n);
}

HIDDEN __attribute__((used)) void profctl_arc_release_n_elsewhere(void *object, uint32_t n) {
    if (counts_in_window()) count_releases(n);
    if (UNLIKELY(meters_arc_on)) meter_arc(0, n);
    profctl_arc_real_release_n(object, n);
}

#if defined(__x86_64__)
/* The adapters the runtime's pointers (and swift_retain's slot) are set to. Written as
 * naked functions because every instruction here is paid twice per retain/release pair:
 * in a region an adapter is a test of the thread's tracking byte, one add at a fixed
 * offset of its TLS block and a jump to the runtime's implementation: 4 instructions
 * (compiled C kept a frame and saved two registers for the rare join: 15, a pair +42 over
 * unhooked instead of +20, BENCHMARKS.md "ARC counting"). A thread in a region has joined
 * the registry, so the add needs no check. The TLS block is addressed local-exec
 * (tls@tpoff, one instruction fewer than reading its offset from the GOT): the hooks live
 * in the executable (they define malloc there), which is what that model needs; a build
 * that put them in a shared library fails to link instead of misbehaving. %rcx is free:
 * the runtime reaches the adapters by a jump (swift_retain's `jmp *%rax`) or a call, with
 * the object in %rdi and n in %esi. Nothing here moves %rsp, so the adapters keep no
 * frame and never appear in a captured stack. */
#define ARC_ADAPTER(name, counter, add, real, elsewhere)                                              \
    __attribute__((naked)) static void name(void) {                                                   \
        __asm__ volatile("cmpb $0, %%fs:tls@tpoff+%c0\n\t"                                           \
                         "je 1f\n\t" add "jmp *" real "(%%rip)\n"                                     \
                         "1:\n\t"                                                                     \
                         "jmp " elsewhere                                                             \
                         :                                                                            \
                         : "i"(offsetof(thread_state, tracking)), "i"(offsetof(thread_state, counter))); \
    }
ARC_ADAPTER(retain_adapter, n.c.retains, "incq %%fs:tls@tpoff+%c1\n\t", "profctl_arc_real_retain", "profctl_arc_retain_elsewhere")
ARC_ADAPTER(release_hook, n.c.releases, "incq %%fs:tls@tpoff+%c1\n\t", "profctl_arc_real_release", "profctl_arc_release_elsewhere")
ARC_ADAPTER(retain_n_hook, n.c.retains, "movl %%esi, %%ecx\n\taddq %%rcx, %%fs:tls@tpoff+%c1\n\t", "profctl_arc_real_retain_n",
            "profctl_arc_retain_n_elsewhere")
ARC_ADAPTER(release_n_hook, n.c.releases, "movl %%esi, %%ecx\n\taddq %%rcx, %%fs:tls@tpoff+%c1\n\t", "profctl_arc_real_release_n",
            "profctl_arc_release_n_elsewhere")
#endif

static int refuse(const char *why) {
    snprintf(refusal, sizeof refusal, "%s", why);
    atomic_store(&install_state, -1);
    return -1;
}

#if defined(__x86_64__)
/* The address a rip-relative operand names: disp32 at `at`, instruction ending at `end`. */
static uintptr_t rip_target(const uint8_t *at, const uint8_t *end) {
    int32_t disp;
    memcpy(&disp, at, sizeof disp);
    return (uintptr_t)end + (intptr_t)disp;
}

/* swift_retain's code, checked byte by byte: it tests the flag first
 * (movzbl FLAG(%rip),%eax; cmp $1,%al), and its swizzled branch is
 * `mov SLOT(%rip),%rax; pop %rbp; jmp *%rax`. Returns the slot, or 0. */
static void **find_retain_slot(const uint8_t *code, const volatile uint8_t *flag) {
    static const uint8_t prologue[] = {0x55, 0x48, 0x89, 0xe5, 0x0f, 0xb6, 0x05};
    if (memcmp(code, prologue, sizeof prologue) != 0) return 0;
    if (rip_target(code + 7, code + 11) != (uintptr_t)flag) return 0;
    if (code[11] != 0x3c || code[12] != 0x01 || code[13] != 0x74) return 0;
    const uint8_t *branch = code + 15 + (int8_t)code[14];
    static const uint8_t load[] = {0x48, 0x8b, 0x05};
    static const uint8_t tail[] = {0x5d, 0xff, 0xe0};
    if (memcmp(branch, load, sizeof load) != 0 || memcmp(branch + 7, tail, sizeof tail) != 0) return 0;
    return (void **)rip_target(branch + 3, branch + 7);
}

/* The adapter the slot holds on 6.3.1: it masks, then calls *_swift_retain. Its bytes up
 * to that call, checked, so the slot is only replaced when it holds exactly this. */
static bool is_masking_adapter(const uint8_t *code, void *const *retain_pointer) {
    static const uint8_t body[] = {
        0x55, 0x48, 0x89, 0xe5, 0x53, 0x50, 0x48, 0x89, 0xfb,             /* push rbp; mov; push rbx; push rax; mov rdi,rbx */
        0x48, 0xbf, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00,        /* movabs $0x00fffffffffffff8,%rdi */
        0x48, 0x21, 0xdf, 0xff, 0x15,                                      /* and %rbx,%rdi; call *disp32(%rip) */
    };
    if (memcmp(code, body, sizeof body) != 0) return false;
    return rip_target(code + sizeof body, code + sizeof body + 4) == (uintptr_t)retain_pointer;
}
#endif

static int install_locked(void);

/* Two task meters may open at once in parallel tests, each installing: the second must
 * find the first's install done, not the slots it already replaced (which it would take for
 * another tool's and refuse for good). */
static atomic_flag install_lock = ATOMIC_FLAG_INIT;

int profctl_arc_install(void) {
    spin_lock(&install_lock);
    int result = install_locked();
    spin_unlock(&install_lock);
    return result;
}

static int install_locked(void) {
    int state = atomic_load(&install_state);
    if (state != 0) return state > 0 ? 0 : -1;
#if !defined(__x86_64__)
    return refuse("ARC counting knows only x86_64's Swift runtime");
#else
    void **retain_pointer = &runtime_retain_pointer;
    void **release_pointer = &runtime_release_pointer;
    void **retain_n_pointer = &runtime_retain_n_pointer;
    void **release_n_pointer = &runtime_release_n_pointer;
    volatile uint8_t *flag = &runtime_swizzling_flag;
    const uint8_t *swift_retain_code = runtime_swift_retain_code;
    if (!retain_pointer || !release_pointer || !retain_n_pointer || !release_n_pointer || !flag || !swift_retain_code)
        return refuse("this Swift runtime does not export the reference-counting hook pointers");
    void **slot = find_retain_slot(swift_retain_code, flag);
    Dl_info slot_info, core_info;
    if (!slot || !dladdr(slot, &slot_info) || !dladdr(swift_retain_code, &core_info) ||
        slot_info.dli_fbase != core_info.dli_fbase) {
        return refuse("swift_retain's code is not the one profctl knows (Swift 6.3.1, x86_64): ARC counting is off");
    }
    /* The slot must still hold the runtime's masking adapter: not ours, not another tool's. */
    const uint8_t *adapter = *slot;
    Dl_info adapter_info;
    if (!dladdr(adapter, &adapter_info) || adapter_info.dli_fbase != core_info.dli_fbase ||
        !is_masking_adapter(adapter, retain_pointer)) {
        return refuse("swift_retain's adapter is not the one profctl knows, or another tool replaced it: ARC counting is off");
    }
    profctl_arc_real_retain = (retain_fn)*retain_pointer;
    profctl_arc_real_release = (release_fn)*release_pointer;
    profctl_arc_real_retain_n = (retain_n_fn)*retain_n_pointer;
    profctl_arc_real_release_n = (release_n_fn)*release_n_pointer;
    /* The flag is clear, so nothing calls through these yet: the order does not matter.
     * Once written they stay (restoring the adapter while another thread retains would
     * re-arm the masking path). */
    *retain_pointer = (void *)retain_adapter;
    *slot = (void *)retain_adapter;
    *release_pointer = (void *)release_hook;
    *retain_n_pointer = (void *)retain_n_hook;
    *release_n_pointer = (void *)release_n_hook;
    runtime_flag = flag;
    atomic_store(&install_state, 1);
    return 0;
#endif
}

const char *profctl_arc_refusal(void) { return atomic_load(&install_state) < 0 ? refusal : ""; }

int profctl_arc_set_counting(int on) {
    if (atomic_load(&install_state) != 1) return -1;
    /* A thread that read the old value finishes its call through the hooks or the fast
     * path; either is correct, and a region opened after this call sees the new value. */
    *runtime_flag = on ? 1 : 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return 0;
}

int profctl_arc_counting(void) { return runtime_flag && *runtime_flag; }
