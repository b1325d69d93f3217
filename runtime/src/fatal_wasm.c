//llgo:build wasm && !llgo.wasi_threads
/*
 * fatal_wasm.c - llgo_fatal for single-worker WebAssembly (P1, J32, J64):
 * prints "fatal error: <msg>" to stderr and exits with 2 through the libc exit
 * (WASI proc_exit, or Emscripten's exit which ends the Node process with 2).
 * It runs in normal (not unwinding) execution: it is never called while
 * Asyncify unwinds, because the scheduler reports errors only after a switch.
 */
#include "llgo_runtime.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn void llgo_fatal(const char *msg) {
  fflush(stdout);
  fprintf(stderr, "fatal error: %s\n", msg);
  fflush(stderr);
  exit(2);
}
