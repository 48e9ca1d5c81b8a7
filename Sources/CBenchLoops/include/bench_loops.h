#ifndef PROFCTL_BENCH_LOOPS_H
#define PROFCTL_BENCH_LOOPS_H

#include <stdint.h>
#include <stddef.h>

/// Times `pairs` malloc(size)/free pairs, in nanoseconds. `hooked` non-zero goes through
/// the replaced malloc/free; zero calls glibc's __libc_malloc/__libc_free directly, which
/// is what the program would do with the hooks compiled out.
uint64_t bench_malloc_free_pairs(int hooked, uint64_t pairs, size_t size);

/// Hooked pairs that ask malloc_usable_size of each block between its malloc and its free,
/// as Swift's Array and String do to take their capacity. Returns nanoseconds.
uint64_t bench_malloc_usable_free_pairs(uint64_t pairs, size_t size);

/// The same hooked pairs called `depth` frames further down the stack: what a task meter's
/// stack walk (runtime_caches.c) costs a deep test.
uint64_t bench_malloc_free_pairs_at_depth(uint32_t depth, uint64_t pairs, size_t size);

/// Runs `pairs` swift_retain/swift_release pairs on `object` (a Swift heap object, passed
/// unretained), each a real call into the runtime, for counting instructions per pair under
/// callgrind (scripts/hook-instructions' ARC table). Returns nanoseconds.
uint64_t bench_retain_release_pairs(void *object, uint64_t pairs);

/// Inserts `count` rows shaped like profctl's events into the events table of the database
/// at `path` (which must already have the schema and the event series) with one prepared
/// statement, in transactions of `batch` rows: the plain C baseline for the recorder.
/// Returns nanoseconds, or 0 on any SQLite error.
uint64_t bench_insert_events(const char *path, int64_t series_id, int64_t count, int batch);

#endif
