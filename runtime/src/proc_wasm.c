//llgo:build js && wasm
/*
 * proc_wasm.c - host file of the single-worker scheduler under Emscripten
 * (J32 and J64; contexts are Emscripten Fibers or raw Asyncify, both built
 * with emcc -sASYNCIFY): goroutine storage comes from the libc heap, which may
 * grow. Emscripten calls the C `main`, which calls llgo_run_main.
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
