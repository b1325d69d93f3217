//llgo:build wasip1 && llgo.context_asyncify
/*
 * proc_wasip1.c - host file of the single-worker scheduler on WASI preview 1
 * (P1, raw Asyncify contexts): goroutine memory comes from the libc heap.
 * The program's C `main` calls llgo_run_main, which stays on the system stack
 * (the module's __stack_pointer region) and runs the host loop.
 * No threads, no shared memory: the module imports only WASI functions.
 *
 * Growing in large steps: wasi-libc's malloc grows linear memory by what each
 * request needs (a 64 KiB page at a time), and every memory.grow costs Node
 * milliseconds, so parking a million goroutines would mean thousands of grows.
 * Before the runtime's allocations outrun what the heap is known to have free,
 * it grows the heap once by a sixteenth of its size (at least 4 MiB): malloc
 * and free a block that large, which leaves it as free space at the top (this
 * malloc never gives memory back). Linear memory then exceeds what is in use
 * by at most that step.
 */
#include "scheduler.h"

#include <stdlib.h>

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

void *llgo_platform_alloc(size_t size, void *user) {
  (void)user;
  if (size + 16 > headroom) {
    grow_heap_for(size + 16);
  }
  headroom = size + 16 > headroom ? 0 : headroom - (size + 16);
  return aligned_alloc(16, size);
}

void llgo_platform_free(void *memory, size_t size, void *user) {
  (void)user;
  headroom += size;
  free(memory);
}

int llgo_platform_main_returned(int status) { return status; }
