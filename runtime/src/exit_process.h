//llgo:build llgo
/*
 * exit_process.h - runtime-internal: how the runtime ends the program with a
 * status (a fatal error, an unrecovered panic; on Emscripten also main's
 * status, platform_wasm.c): libc's exit, which flushes stdio, runs atexit handlers
 * and ends in WASI proc_exit or the host's.
 *
 * Emscripten: while an Asyncify sleep keeps the runtime alive - always the
 * case inside a goroutine of the emscripten-fiber backend, whose first switch
 * leaves the host entry asleep - exit() ends the program without calling the
 * host's Module.onExit. Under Node that does not show (exit ends the process);
 * in a browser the page never learns that the program ended, nor its status.
 * emscripten_force_exit clears the keep-alive first, then calls exit.
 */
#ifndef LLGO_EXIT_PROCESS_H
#define LLGO_EXIT_PROCESS_H

#include <stdlib.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

static inline _Noreturn void llgo_exit_process(int status) {
#ifdef __EMSCRIPTEN__
  emscripten_force_exit(status);
#else
  exit(status);
#endif
}

#endif
