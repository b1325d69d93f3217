//llgo:build !wasm && llgo.context_ucontext
/*
 * platform_native.c - the single-worker scheduler's platform hooks on a
 * native OS (context backend ucontext): goroutine storage from the libc heap,
 * main's status returned to `main`. It exists so the scheduler can be
 * unit-tested natively, with coverage and sanitizers.
 */
#include "runtime_alloc.h"
#include "scheduler.h"

void *llgo_platform_alloc(size_t size, void *user) {
  (void)user;
  return llgo_runtime_alloc(size);
}

void llgo_platform_free(void *memory, size_t size, void *user) {
  (void)size;
  (void)user;
  llgo_runtime_free(memory);
}

int llgo_platform_main_returned(int status) { return status; }
