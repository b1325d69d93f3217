//llgo:build wasm && !llgo.context_pthread
/*
 * platform_alloc_wasm.c - where the single-worker scheduler's goroutine storage
 * comes from on WebAssembly (WASI and Emscripten alike, whatever the context
 * backend): the libc heap, which may grow. The program's C `main` calls
 * llgo_run_main, which stays on the system stack and runs the host loop.
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
