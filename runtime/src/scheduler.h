//llgo:build !llgo.context_pthread
/*
 * scheduler.h - runtime-internal interface of the backend-neutral single-worker
 * scheduler (scheduler.c): what its thin per-platform host files
 * (platform_wasm.c, platform_native.c) provide, the re-enterable host loop and
 * its idle hook, plus test-only hooks.
 */
#ifndef LLGO_SCHEDULER_H
#define LLGO_SCHEDULER_H

#include "llgo_runtime.h"

#include <stddef.h>

/* Implemented by the selected proc_*.c: storage for goroutine stacks, 16-byte
 * aligned. NULL means out of memory. */
void *llgo_platform_alloc(size_t size, void *user);
void llgo_platform_free(void *memory, size_t size, void *user);

/* Implemented by the selected proc_*.c: what llgo_run_main does with main's
 * status once execution is back on the host: return it to the C `main`, or
 * (Emscripten, where that return may no longer reach the host) end the
 * program with it. */
int llgo_platform_main_returned(int status);

/* Implemented by the selected idle_wait_*.c: what llgo_run_main does when the
 * host loop returned idle (an idle hook asked for the host's event loop).
 * J32/J64: keeps the runtime alive and returns from `main` to the event loop,
 * which re-enters the loop later (idle_wait_emscripten.c); elsewhere there is
 * no event loop to return to, which is fatal. */
int llgo_platform_leave_to_host(void);

/* ---- the host loop ----
 *
 * llgo_run_main = llgo_sched_start + llgo_sched_run until main returns. A host
 * that must give control back to its own event loop (J32/J64 waiting for a
 * timer or a Promise) calls the two itself: llgo_sched_run returns
 * LLGO_SCHED_IDLE when no goroutine is runnable and the idle hook asked for
 * that; the host calls llgo_sched_run again from its callback. All the loop's
 * state lives in the scheduler's globals, so leaving and re-entering is free. */
typedef enum llgo_sched_state {
  LLGO_SCHED_MAIN_RETURNED, /* main returned: llgo_sched_main_status() is the exit status */
  LLGO_SCHED_IDLE           /* nothing runnable; run again after a host event */
} llgo_sched_state;

/* Creates the main goroutine (main_fn(argc, argv)); once per process. */
void llgo_sched_start(int (*main_fn)(int argc, char **argv), int argc, char **argv);
/* Runs goroutines on the calling (system) stack; see above. */
llgo_sched_state llgo_sched_run(void);
int llgo_sched_main_status(void);

/* What the idle hook tells the host loop. */
typedef enum llgo_sched_idle_action {
  LLGO_SCHED_IDLE_DEADLOCK,       /* nothing can ever ready a goroutine: deadlock */
  LLGO_SCHED_IDLE_RUN_AGAIN,      /* it waited (e.g. for a timer) and readied goroutines */
  LLGO_SCHED_IDLE_RETURN_TO_HOST  /* llgo_sched_run returns LLGO_SCHED_IDLE */
} llgo_sched_idle_action;
typedef llgo_sched_idle_action (*llgo_sched_idle_hook)(void);

/* Installs the hook the host loop calls, on the system stack, whenever the run
 * queue is empty, before it declares a deadlock (P1: may wait in poll_oneoff
 * with a relative clock; native: clock_nanosleep; J32/J64: return to the event
 * loop). NULL (the default) means "nothing else can happen": deadlock. */
void llgo_sched_set_idle_hook(llgo_sched_idle_hook hook);

/* Installs a hook the host loop calls, on the system stack, once every
 * LLGO_SCHED_TICK_DISPATCHES goroutine dispatches (blocking_single.c: fire due
 * timers). Go's schedule() checks timers at every dispatch; here a clock
 * reading is a host call on wasm, so every 64th. NULL: none. */
#define LLGO_SCHED_TICK_DISPATCHES 64
typedef void (*llgo_sched_tick_hook)(void);
void llgo_sched_set_tick_hook(llgo_sched_tick_hook hook);

/* Test-only (single worker): put `g` in the run queue without checking or
 * changing its status, so a test can prove that resuming a dead G is fatal. */
void llgo_test_enqueue_unchecked(llgo_g *g);

/* Test-only (single worker): how many switches a goroutine made by handing control to the next
 * one directly (LLGO_WASMCONTEXT_HANDOFF: wasmcontext.h) instead of through the host loop since
 * the program started; always 0 where the context has no hand-off. */
uint64_t llgo_test_handoffs(void);

#endif /* LLGO_SCHEDULER_H */
