//llgo:build llgo.context_asyncify
/*
 * wasmcontext_asyncify.c - the raw in-module Asyncify context backend (P1;
 * it also builds for wasm64 and under Emscripten for J32/J64).
 *
 * Binaryen's --asyncify pass (run after linking; the four asyncify.* imports
 * below become its own functions) lets a call stack unwind into a buffer and
 * later be rewound from it. The direct path:
 *   - resume, on the host, calls the context's entry function itself. The
 *     first time it runs normally; later resume sets __stack_pointer back and
 *     starts a rewind before calling it, which replays the saved call chain
 *     down to the suspend. Resume calls stop_unwind/start_rewind, so Binaryen
 *     treats it as the bottom of the runtime and does not instrument it.
 *   - the switch point, inside the context, starts the unwind: the scheduler's
 *     Gosched and park themselves, through the inline llgo_wasmcontext_
 *     suspend_here/resumed_here of wasmcontext.h (or llgo_wasmcontext_suspend
 *     for other callers). It calls start_unwind/stop_rewind, so it is the top
 *     of the runtime (not instrumented either) and only its callers - the
 *     goroutine's own frames - save their locals.
 * Neither may be merged into an instrumented function: LLVM keeps them apart
 * (noinline, LLGO_WASMCONTEXT_SWITCH_POINT); Binaryen's inliner runs after
 * --asyncify in the P1 link plan, and under emcc (-O2 before --asyncify) the
 * driver's shim forbids inlining every function that calls start_unwind or
 * stop_rewind (--no-inline=<name>).
 * The overflow rules are in wasmcontext_storage.h: the unwind writes into the
 * storage's save space with `end` at the end of memory the layer owns, and the
 * size is checked against the real limit right after the unwind, before
 * stop_unwind could trap on it. Resume moves the stack guard with the stack
 * pointer (wasmcontext_stack_guard.h), to the context's stack and back.
 * Limits: one thread; a longjmp must not cross contexts.
 */
#include "wasmcontext_storage.h"

#include <stddef.h>

#ifndef LLGO_CONTEXT_ASYNCIFY
#error "compile the raw Asyncify backend with the effective cflags of its context (-DLLGO_CONTEXT_ASYNCIFY)"
#endif

/* start_unwind and stop_rewind are declared in wasmcontext.h (the inline switch). */
__attribute__((import_module("asyncify"), import_name("stop_unwind")))
void asyncify_stop_unwind(void);
__attribute__((import_module("asyncify"), import_name("start_rewind")))
void asyncify_start_rewind(void *data);

const char llgo_wasmcontext_backend_name[] = "asyncify";
const char *llgo_wasmcontext_backend_limit(void) { return ""; } /* no cap beyond memory */

void llgo_wasmcontext_backend_release(llgo_wasmcontext *ctx) {
  (void)ctx; /* everything it holds is in its storage */
}

typedef struct asyncify_backend {
  llgo_wasmcontext_storage storage; /* must be first (see wasmcontext_storage.h) */
  llgo_wasmcontext_entry_fn entry;
  void *arg;
  int started; /* entered at least once since (re)arming */
} asyncify_backend;

LLGO_WASMCONTEXT_BACKEND_LAYOUT(asyncify_backend, LLGO_WASMCONTEXT_WORDS_ASYNCIFY);

/* One unwind or rewind at a time: their Binaryen headers are global. */
static llgo_asyncify_bounds unwind_bounds;
static llgo_asyncify_bounds rewind_bounds;
static unsigned char *unwind_start;
/* A resume's rewind is under way: the switch point it reaches stops it
 * (llgo_wasmcontext_resumed_here). */
int llgo_wasmcontext_asyncify_rewinding;
void *llgo_wasmcontext_asyncify_unwind_data = &unwind_bounds;
static int unwinding;               /* set by suspend/exit, seen by resume */
static int exiting;                 /* the unwind comes from exit */

static asyncify_backend *backend_of(llgo_wasmcontext *ctx) {
  return (asyncify_backend *)(void *)ctx->opaque;
}

size_t llgo_wasmcontext_backend_save_space_size(size_t stack_size) { return stack_size; }

llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg) {
  asyncify_backend *self = backend_of(ctx);
  self->entry = entry;
  self->arg = arg;
  self->started = 0;
  return LLGO_WASMCONTEXT_OK;
}

__attribute__((noinline)) llgo_wasmcontext_result llgo_wasmcontext_resume(llgo_wasmcontext *ctx) {
  asyncify_backend *self = backend_of(ctx);
  void *host_stack_pointer = llgo_wasmcontext_get_stack_pointer();
  void *host_guard = llgo_wasmcontext_get_stack_guard();
  size_t host_stack_size = llgo_wasmcontext_running_stack_size;
  size_t stack_size = (size_t)(self->storage.stack_top - self->storage.stack_limit);
  if (self->started) {
    rewind_bounds.current = rewind_bounds.end = llgo_wasmcontext_storage_resuming(&self->storage);
    llgo_wasmcontext_enter_stack(self->storage.stack_pointer, self->storage.stack_limit, stack_size);
    llgo_wasmcontext_asyncify_rewinding = 1;
    asyncify_start_rewind(&rewind_bounds);
  } else {
    self->started = 1;
    llgo_wasmcontext_enter_stack(self->storage.stack_top, self->storage.stack_limit, stack_size);
  }
  self->entry(self->arg);
  void *stack_pointer = llgo_wasmcontext_get_stack_pointer();
  llgo_wasmcontext_running_stack_size = host_stack_size;
  llgo_wasmcontext_switch_stack(host_stack_pointer, host_guard);
  if (!unwinding) {
    llgo_wasmcontext_result result = llgo_wasmcontext_storage_check(&self->storage, stack_pointer);
    return result == LLGO_WASMCONTEXT_OK ? LLGO_WASMCONTEXT_RETURNED : result;
  }
  /* Unwound: first make sure stop_unwind's own bounds check cannot trap; the
   * real limit is checked by the storage below. */
  if ((unsigned char *)unwind_bounds.current > (unsigned char *)unwind_bounds.end) {
    unwind_bounds.end = unwind_bounds.current;
  }
  asyncify_stop_unwind();
  unwinding = 0;
  size_t data_bytes = (size_t)((unsigned char *)unwind_bounds.current - unwind_start);
  if (exiting) {
    exiting = 0;
    return data_bytes > llgo_wasmcontext_storage_save_limit(&self->storage)
               ? LLGO_WASMCONTEXT_SAVE_OVERFLOW
               : LLGO_WASMCONTEXT_RETURNED;
  }
  self->storage.stack_pointer = stack_pointer;
  return llgo_wasmcontext_storage_suspended(&self->storage, stack_pointer, data_bytes);
}

/* Everything an unwind needs but the unwind itself, so that the caller can
 * start it and be the top of the switch. Not a switch point: out of line and
 * never instrumented. */
static void arm_unwind(asyncify_backend *self) {
  unwind_start = llgo_wasmcontext_storage_save_start(&self->storage);
  unwind_bounds.current = unwind_start;
  unwind_bounds.end = llgo_wasmcontext_storage_save_end(&self->storage); /* the end of owned memory; see resume */
  unwinding = 1;
}

llgo_wasmcontext_result llgo_wasmcontext_asyncify_prepare_unwind(llgo_wasmcontext *ctx) {
  asyncify_backend *self = backend_of(ctx);
  llgo_wasmcontext_result result =
      llgo_wasmcontext_storage_check(&self->storage, llgo_wasmcontext_get_stack_pointer());
  if (result == LLGO_WASMCONTEXT_OK) {
    arm_unwind(self);
  }
  return result;
}

/* The out-of-line switch, for callers that are not switch points themselves. */
__attribute__((noinline)) llgo_wasmcontext_result llgo_wasmcontext_suspend(llgo_wasmcontext *ctx) {
  if (llgo_wasmcontext_resumed_here()) {
    return LLGO_WASMCONTEXT_OK; /* called again by the rewind that resumes `ctx` */
  }
  return llgo_wasmcontext_suspend_here(ctx);
}

__attribute__((noinline)) void llgo_wasmcontext_exit(llgo_wasmcontext *ctx) {
  exiting = 1;
  arm_unwind(backend_of(ctx));
  llgo_asyncify_start_unwind(&unwind_bounds);
}

void llgo_wasmcontext_for_each_range(const llgo_wasmcontext *ctx, llgo_wasmcontext_range_fn fn,
                                     void *arg) {
  const asyncify_backend *self = (const asyncify_backend *)(const void *)ctx->opaque;
  llgo_wasmcontext_storage_for_each_range(&self->storage, self->started ? self->storage.stack_pointer : NULL,
                                          fn, arg);
}
