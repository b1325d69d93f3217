//llgo:build !wasm && llgo.context_ucontext
/*
 * platform_native.c - the single-worker scheduler's platform hooks on a
 * native OS (context backend ucontext): goroutine storage from the libc heap,
 * main's status returned to `main`. It exists so the scheduler can be
 * unit-tested natively, with coverage and sanitizers.
 * Test hook: llgo_test_fail_allocations_after(n) makes the n+1-th and later
 * storage allocations fail (n < 0 turns failure injection off).
 */
#include "scheduler.h"

#include <stdlib.h>

static long allocations_before_failure = -1;

void llgo_test_fail_allocations_after(long count) { allocations_before_failure = count; }

void *llgo_platform_alloc(size_t size, void *user) {
  (void)user;
  if (allocations_before_failure == 0) {
    return NULL;
  }
  if (allocations_before_failure > 0) {
    allocations_before_failure--;
  }
  return aligned_alloc(16, size);
}

void llgo_platform_free(void *memory, size_t size, void *user) {
  (void)size;
  (void)user;
  free(memory);
}

int llgo_platform_main_returned(int status) { return status; }
