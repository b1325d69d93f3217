//llgo:build js && wasm
/*
 * proc_wasm.c - host file of the single-worker scheduler under Emscripten
 * (J32 and J64; contexts are Emscripten Fibers or raw Asyncify, both built
 * with emcc -sASYNCIFY): goroutine storage comes from the libc heap, which may
 * grow. Emscripten calls the C `main`, which calls llgo_run_main.
 *
 * Main's status ends the program here instead of returning from the C `main`:
 * with Emscripten Fibers the first switch unwinds the host entry (`main`) to
 * JavaScript and the host is later resumed from Emscripten's fiber trampoline,
 * which drops `main`'s return value, and the runtime is kept alive, so neither
 * Node's exit code nor a page's Module.onExit would see the status.
 */
#include "exit_process.h"
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

int llgo_platform_main_returned(int status) { llgo_exit_process(status); }
