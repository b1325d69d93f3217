//llgo:build !llgo.context_pthread
/*
 * scheduler.h - runtime-internal interface between the backend-neutral
 * single-worker scheduler (scheduler.c) and its thin per-platform host files
 * (platform_wasm.c, platform_native.c), plus test-only hooks.
 */
#ifndef LLGO_SCHEDULER_H
#define LLGO_SCHEDULER_H

#include "llgo_runtime.h"

#include <stddef.h>

/* Implemented by the selected proc_*.c: storage for goroutine stacks and
 * Asyncify areas, 16-byte aligned. Called only when a context is created or
 * destroyed (never on a switch). NULL means out of memory. */
void *llgo_platform_alloc(size_t size, void *user);
void llgo_platform_free(void *memory, size_t size, void *user);

/* Implemented by the selected proc_*.c: what llgo_run_main does with main's
 * status once execution is back on the host: return it to the C `main`, or
 * (Emscripten, where that return may no longer reach the host) end the
 * program with it. */
int llgo_platform_main_returned(int status);

/* Test-only (single worker): put `g` in the run queue without checking or
 * changing its status, so a test can prove that resuming a dead G is fatal. */
void llgo_test_enqueue_unchecked(llgo_g *g);

#endif /* LLGO_SCHEDULER_H */
