/* sites-cost PAIRS SIZE MODE: malloc(SIZE)/free pairs inside a profctl region, with the
 * hooks' sources compiled in (as in profctl), printing nanoseconds per pair.
 * MODE: region (sites off) or sites (record --sites, 32 frames). The loop is the same as
 * malloc-loop's (in main), so heaptrack on malloc-loop walks a stack of the same depth. As
 * when recording, a region is one instance: it closes and a new one opens every 1,000
 * pairs, and the sites log empties as the recorder empties it after each instance. */
#include "allocation_hooks.h"
#include "allocation_sites.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *volatile sink;

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: sites-cost PAIRS SIZE region|sites\n"); return 64; }
    long pairs = atol(argv[1]), size = atol(argv[2]);
    int sites = strcmp(argv[3], "sites") == 0;
    if (sites) { profctl_sites_prepare_thread(); profctl_sites_enable(32); }
    profctl_region region;
    profctl_region_result result;
    uint64_t counted = 0;
    struct timespec a, b;
    for (int pass = 0; pass < 2; pass++) { /* a tenth as warm-up, then the measured loop */
        long n = pass ? pairs : pairs / 10;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (long i = 0; i < n; i += 1000) {
            if (profctl_region_begin(&region) != 0) { fprintf(stderr, "no region\n"); return 1; }
            for (long j = 0; j < 1000; j++) { sink = malloc((size_t)size); free(sink); }
            profctl_region_end(&region, &result);
            if (sites) profctl_sites_reset_thread();
            counted += result.allocations;
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
    }
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    printf("%.3f\n", ns / (double)pairs);
    return counted >= (uint64_t)pairs ? 0 : 1;
}
