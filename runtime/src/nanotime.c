//llgo:build llgo
/*
 * nanotime.c - the runtime's monotonic clock (Go's runtime.nanotime):
 * CLOCK_MONOTONIC, which is WASI's monotonic clock on P1/P1T, Emscripten's
 * performance.now() on J32/J64 and the OS clock natively.
 */
#include "llgo_runtime.h"

#include <time.h>

int64_t llgo_nanotime(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}
