#include "bench_loops.h"

#include <allocation_hooks.h>
#include <sqlite3.h>
#include <malloc.h>
#include <stdlib.h>
#include <time.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A volatile sink so the compiler cannot delete a malloc/free pair. */
static void *volatile sink;
static volatile size_t usable_sink;

uint64_t bench_malloc_free_pairs(int hooked, uint64_t pairs, size_t size) {
    uint64_t start = now_ns();
    if (hooked) {
        for (uint64_t i = 0; i < pairs; i++) {
            sink = malloc(size);
            free(sink);
        }
    } else {
        for (uint64_t i = 0; i < pairs; i++) {
            sink = profctl_underlying_malloc(size);
            profctl_underlying_free(sink);
        }
    }
    return now_ns() - start;
}

uint64_t bench_malloc_usable_free_pairs(uint64_t pairs, size_t size) {
    uint64_t start = now_ns();
    for (uint64_t i = 0; i < pairs; i++) {
        sink = malloc(size);
        usable_sink = malloc_usable_size(sink);
        free(sink);
    }
    return now_ns() - start;
}

/* Written after each recursive call below, so that the compiler cannot turn the recursion
 * into a loop: every level stays a frame on the stack. */
static volatile uint64_t depth_sink;

uint64_t bench_malloc_free_pairs_at_depth(uint32_t depth, uint64_t pairs, size_t size) {
    if (!depth) return bench_malloc_free_pairs(1, pairs, size);
    uint64_t ns = bench_malloc_free_pairs_at_depth(depth - 1, pairs, size);
    depth_sink = depth;
    return ns;
}

/* The runtime's entry points, as compiled Swift code calls them (a direct call each). */
extern void *swift_retain(void *object);
extern void swift_release(void *object);

/* A volatile slot the object passes through, so the compiler cannot pair up or drop a call. */
static void *volatile arc_object;

uint64_t bench_retain_release_pairs(void *object, uint64_t pairs) {
    arc_object = object;
    uint64_t start = now_ns();
    for (uint64_t i = 0; i < pairs; i++) {
        swift_retain(arc_object);
        swift_release(arc_object);
    }
    return now_ns() - start;
}

uint64_t bench_insert_events(const char *path, int64_t series_id, int64_t count, int batch) {
    sqlite3 *db = NULL;
    sqlite3_stmt *insert = NULL;
    uint64_t elapsed = 0;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) goto done;
    sqlite3_busy_timeout(db, 10000);
    if (sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK) goto done;
    if (sqlite3_prepare_v2(db,
            "INSERT INTO events (series_id, seq, instance, allocations, frees, requested_bytes, usable_extra_bytes, "
            "duration_ns, at_us) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &insert, NULL) != SQLITE_OK) goto done;
    sqlite3_bind_int64(insert, 1, series_id);
    uint64_t start = now_ns();
    for (int64_t i = 0; i < count; i++) {
        if (i % batch == 0 && sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) goto done;
        sqlite3_bind_int64(insert, 2, i + 1); /* seq 0 is the recorder's own event */
        sqlite3_bind_int64(insert, 3, i);
        sqlite3_bind_int64(insert, 4, 4);
        sqlite3_bind_int64(insert, 5, 0);
        sqlite3_bind_int64(insert, 6, 705);
        sqlite3_bind_int64(insert, 7, 15); /* usable 720 */
        sqlite3_bind_int64(insert, 8, 1200);
        sqlite3_bind_int64(insert, 9, 0);
        if (sqlite3_step(insert) != SQLITE_DONE) goto done;
        sqlite3_reset(insert);
        if ((i + 1) % batch == 0 || i + 1 == count) {
            if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) goto done;
        }
    }
    elapsed = now_ns() - start;
done:
    sqlite3_finalize(insert);
    sqlite3_close(db);
    return elapsed;
}
