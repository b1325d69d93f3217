//llgo:build wasm && !llgo.context_pthread
/*
 * platform_wasm.c - the single-worker scheduler's platform hooks on
 * WebAssembly (WASI and Emscripten alike, whatever the context backend):
 * goroutine storage comes from the libc heap, which may grow. The program's
 * C `main` calls llgo_run_main, which stays on the system stack and runs the
 * host loop.
 *
 * Under Emscripten main's status ends the program here instead of returning
 * from the C `main`: with Emscripten Fibers the first switch unwinds the host
 * entry (`main`) to JavaScript and the host is later resumed from
 * Emscripten's fiber trampoline, which drops `main`'s return value, and the
 * runtime is kept alive, so neither Node's exit code nor a page's
 * Module.onExit would see the status. On WASI it is returned to `main`.
 *
 * Growing in large steps (WASI): wasi-libc's malloc grows linear memory by what
 * each request needs (a 64 KiB page at a time), and every memory.grow costs Node
 * milliseconds, so parking a million goroutines would mean thousands of grows.
 * Before the runtime's allocations outrun what the heap is known to have free,
 * it grows the heap once by a sixteenth of its size (at least 4 MiB): malloc
 * and free a block that large, which leaves it as free space at the top (this
 * malloc never gives memory back). Linear memory then exceeds what is in use
 * by at most that step. Emscripten's heap already grows geometrically.
 */
#include "exit_process.h"
#include "runtime_alloc.h"
#include "scheduler.h"

#include <stdlib.h>

#ifndef __EMSCRIPTEN__
#define LLGO_HEAP_STEP_MIN ((size_t)4 << 20)

static size_t headroom; /* bytes the runtime may still take without growing memory */

static void grow_heap_for(size_t size) {
  size_t memory = __builtin_wasm_memory_size(0) * (size_t)65536;
  size_t step = memory / 16 > LLGO_HEAP_STEP_MIN ? memory / 16 : LLGO_HEAP_STEP_MIN;
  if (step < size) {
    step = size;
  }
  /* volatile: the compiler would otherwise delete the malloc/free pair. */
  void *volatile reserve = malloc(step);
  if (reserve != NULL) {
    free(reserve);
    headroom = step;
  }
}
#endif

void *llgo_platform_alloc(size_t size, void *user) {
  (void)user;
#ifndef __EMSCRIPTEN__
  if (size + 16 > headroom) {
    grow_heap_for(size + 16);
  }
  headroom = size + 16 > headroom ? 0 : headroom - (size + 16);
#endif
  return llgo_runtime_alloc(size);
}

void llgo_platform_free(void *memory, size_t size, void *user) {
  (void)user;
#ifndef __EMSCRIPTEN__
  headroom += size;
#else
  (void)size;
#endif
  llgo_runtime_free(memory);
}

int llgo_platform_main_returned(int status) {
#ifdef __EMSCRIPTEN__
  llgo_exit_process(status);
#else
  return status;
#endif
}
