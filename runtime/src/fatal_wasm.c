//llgo:build wasm && !llgo.wasi_threads
/*
 * fatal_wasm.c - llgo_fatal for single-worker WebAssembly (P1, J32, J64):
 * prints "fatal error: <msg>" to stderr and exits with 2 through the libc exit
 * (WASI proc_exit, or Emscripten's exit, which reaches the host's onExit even
 * from a goroutine: exit_process.h).
 * It runs in normal (not unwinding) execution: it is never called while
 * Asyncify unwinds, because the scheduler reports errors only after a switch.
 */
#include "exit_process.h"
#include "llgo_runtime.h"

#include <stdio.h>

_Noreturn void llgo_fatal(const char *msg) {
  fflush(stdout);
  fprintf(stderr, "fatal error: %s\n", msg);
  fflush(stderr);
  llgo_exit_process(2);
}
