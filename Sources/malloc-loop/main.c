/* malloc-loop PAIRS SIZE: times PAIRS malloc(SIZE)/free pairs with the system allocator
 * and prints nanoseconds per pair. No profctl hooks are linked in, so it is the program
 * a peer tool (heaptrack, via LD_PRELOAD) measures, for profctl-bench's comparison. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void *volatile sink;

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: malloc-loop PAIRS SIZE\n");
        return 64;
    }
    long pairs = atol(argv[1]), size = atol(argv[2]);
    struct timespec a, b;
    for (long i = 0; i < pairs / 10; i++) { sink = malloc((size_t)size); free(sink); }
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < pairs; i++) { sink = malloc((size_t)size); free(sink); }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    printf("%.3f\n", ns / (double)pairs);
    return 0;
}
