//llgo:build wasip1 && llgo.context_asyncify
/*
 * proc_wasip1.c - host file of the single-worker scheduler on WASI preview 1
 * (P1, raw Asyncify contexts): goroutine storage comes from the libc heap.
 * The program's C `main` calls llgo_run_main, which stays on the system stack
 * (the module's __stack_pointer region) and runs the Asyncify host loop.
 * No threads, no shared memory: the module imports only WASI functions.
 */
#include "scheduler.h"

#include <stdlib.h>

void *llgo_platform_alloc(size_t size, void *user) {
  (void)user;
  return aligned_alloc(16, size);
}

void llgo_platform_free(void *memory, size_t size, void *user) {
  (void)size;
  (void)user;
  free(memory);
}

int llgo_platform_main_returned(int status) { return status; }
