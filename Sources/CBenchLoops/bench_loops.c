#include "bench_loops.h"
