#ifndef PROFCTL_ALLOCATION_ARC_H
#define PROFCTL_ALLOCATION_ARC_H

/*
 * Swift's retains and releases, counted per region and window like allocations
 * (swift_runtime.c; docs/hooks.md, "ARC traffic"). Install once; then counting is on while
 * profctl_arc_set_counting(1) holds, and costs nothing while it is off.
 */

#ifdef __cplusplus
extern "C" {
#endif

/// Routes the Swift runtime's retain and release entry points through the hooks.
/// Returns 0 when installed (or already), -1 when refused: profctl_arc_refusal() says why
/// (an unknown runtime, another tool's hooks). Nothing is written on refusal.
int profctl_arc_install(void);

/// Why profctl_arc_install refused, or "".
const char *profctl_arc_refusal(void);

/// Turns counting on (1) or off (0) for the whole process. Returns -1 when not installed.
int profctl_arc_set_counting(int on);

/// Non-zero while counting is on.
int profctl_arc_counting(void);

#ifdef __cplusplus
}
#endif

#endif
