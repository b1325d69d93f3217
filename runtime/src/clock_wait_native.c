//llgo:build !wasm && llgo.context_ucontext
/*
 * clock_wait_native.c - the single worker's idle wait natively (the ucontext
 * backend): clock_nanosleep on the monotonic clock, relative, resumed after a
 * signal interrupts it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <time.h>

void llgo_clock_wait(int64_t ns);

void llgo_clock_wait(int64_t ns) {
  if (ns <= 0) {
    return;
  }
  struct timespec remaining = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &remaining, &remaining) == EINTR) {
  }
}
