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
 */
#include "exit_process.h"
#include "runtime_alloc.h"
#include "scheduler.h"

#include <stdlib.h>

void *llgo_platform_alloc(size_t size, void *user) {
  (void)user;
  return llgo_runtime_alloc(size);
}

void llgo_platform_free(void *memory, size_t size, void *user) {
  (void)size;
  (void)user;
  llgo_runtime_free(memory);
}

int llgo_platform_main_returned(int status) {
#ifdef __EMSCRIPTEN__
  llgo_exit_process(status);
#else
  return status;
#endif
}
