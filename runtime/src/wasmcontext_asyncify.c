//llgo:build llgo.context_asyncify
/*
 * wasmcontext_asyncify.c - the raw in-module Asyncify context backend (P1; it
 * also builds for wasm64 and under Emscripten for J32/J64).
 *
 * Binaryen's --asyncify pass (run after linking, with
 * --pass-arg=asyncify-ignore-imports so no host import unwinds) turns the
 * four asyncify.* imports below into its own functions. Suspending a context
 * = start_unwind into the context's save area: every instrumented frame on
 * the way up saves its locals and returns, until the host loop (on the
 * system stack, the only caller of a context's entry) sees the unwind, stops
 * it and runs whichever context the switch asked for: a fresh one is entered
 * on its own C stack, a suspended one is rewound (start_rewind + calling its
 * entry again replays the saved call chain down to the suspend point).
 *
 * Each context has its own C stack; __stack_pointer is saved at suspension
 * and set again before a rewind (see wasmcontext_asyncify_sp.S).
 * Non-obvious rules, all about what Binaryen instruments:
 *   - run_host_loop calls stop_unwind/start_rewind, so Binaryen treats it as
 *     the bottom of the runtime and does not instrument it; suspend calls
 *     start_unwind/stop_rewind and is the top. Neither may be merged into an
 *     instrumented function, by LLVM (noinline) or by Binaryen's inliner
 *     (they are called through volatile function pointers).
 *   - stop_unwind runs right after the entry call returns, before anything
 *     that could itself be instrumented (as in Ruby's wasm/runtime.c).
 * Limits: one thread; a longjmp must not cross contexts (the runtime keeps
 * panics on the panicking goroutine's stack).
 */
#include "wasmcontext_storage.h"

#include <stddef.h>

__attribute__((import_module("asyncify"), import_name("start_unwind")))
void asyncify_start_unwind(void *data);
__attribute__((import_module("asyncify"), import_name("stop_unwind")))
void asyncify_stop_unwind(void);
__attribute__((import_module("asyncify"), import_name("start_rewind")))
void asyncify_start_rewind(void *data);
__attribute__((import_module("asyncify"), import_name("stop_rewind")))
void asyncify_stop_rewind(void);

void *llgo_wasmcontext_get_stack_pointer(void);
void llgo_wasmcontext_set_stack_pointer(void *stack_pointer);

typedef struct asyncify_backend {
  llgo_wasmcontext_storage storage; /* must be first (see wasmcontext_storage.h) */
  llgo_wasmcontext_entry_fn entry;
  void *arg;
  void *saved_stack_pointer; /* __stack_pointer when suspended */
  int is_main;               /* the host's context: runs the loop */
  int started;               /* entered at least once since (re)arming */
  int rewinding;             /* being resumed: suspend must stop the rewind */
} asyncify_backend;

_Static_assert(sizeof(asyncify_backend) <= LLGO_WASMCONTEXT_OPAQUE_SIZE,
               "LLGO_WASMCONTEXT_OPAQUE_SIZE is too small");
_Static_assert(offsetof(asyncify_backend, storage) == 0, "storage must come first");
_Static_assert(sizeof(llgo_asyncify_bounds) <= LLGO_WASMCONTEXT_BOUNDS_BYTES,
               "the bounds must fit before the save space");

static asyncify_backend *switch_target; /* where the current unwind goes */
static int unwind_in_progress;

static asyncify_backend *backend_of(llgo_wasmcontext *ctx) {
  return (asyncify_backend *)(void *)ctx->opaque;
}

llgo_wasmcontext_result llgo_wasmcontext_init_main(llgo_wasmcontext *ctx) {
  if (ctx == NULL) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  for (size_t i = 0; i < sizeof ctx->opaque; i++) {
    ctx->opaque[i] = 0;
  }
  backend_of(ctx)->is_main = 1;
  return LLGO_WASMCONTEXT_OK;
}

llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg) {
  asyncify_backend *self = backend_of(ctx);
  llgo_wasmcontext_storage *storage = &self->storage;
  /* Binaryen's data layout: {current, end} at the start of the area. */
  storage->bounds = (llgo_asyncify_bounds *)(void *)storage->asyncify;
  storage->bounds->current = llgo_wasmcontext_asyncify_space(storage);
  storage->bounds->end = llgo_wasmcontext_asyncify_space_end(storage);
  self->entry = entry;
  self->arg = arg;
  self->saved_stack_pointer = NULL;
  self->is_main = 0;
  self->started = 0;
  self->rewinding = 0;
  return LLGO_WASMCONTEXT_OK;
}

/* The host loop: runs on the system stack until a context switches back to
 * `host`. Not instrumented by Asyncify (it calls stop_unwind/start_rewind). */
__attribute__((noinline)) static llgo_wasmcontext_result run_host_loop(asyncify_backend *host,
                                                                        asyncify_backend *next) {
  host->saved_stack_pointer = llgo_wasmcontext_get_stack_pointer();
  while (next != host) {
    asyncify_backend *running = next;
    if (running->started) {
      llgo_wasmcontext_set_stack_pointer(running->saved_stack_pointer);
      running->rewinding = 1;
      asyncify_start_rewind(running->storage.bounds);
    } else {
      running->started = 1;
      llgo_wasmcontext_set_stack_pointer(llgo_wasmcontext_stack_top(&running->storage));
    }
    running->entry(running->arg);
    if (!unwind_in_progress) {
      /* The entry returned: contexts must switch away instead. */
      llgo_wasmcontext_set_stack_pointer(host->saved_stack_pointer);
      return LLGO_WASMCONTEXT_BACKEND_FAILED;
    }
    asyncify_stop_unwind();
    unwind_in_progress = 0;
    next = switch_target;
  }
  llgo_wasmcontext_set_stack_pointer(host->saved_stack_pointer);
  return LLGO_WASMCONTEXT_OK;
}

/* Suspends `self` (unwinds to the host loop, which then runs `target`).
 * Called a second time during the rewind that resumes `self`: then it only
 * stops the rewind, and execution continues after the switch. */
__attribute__((noinline)) static void suspend(asyncify_backend *self, asyncify_backend *target) {
  if (self->rewinding) {
    asyncify_stop_rewind();
    self->rewinding = 0;
    return;
  }
  self->saved_stack_pointer = llgo_wasmcontext_get_stack_pointer();
  switch_target = target;
  unwind_in_progress = 1;
  asyncify_start_unwind(self->storage.bounds);
}

/* Both are called through volatile pointers: Binaryen's inliner (emcc -O2, or
 * wasm-opt -O before --asyncify) does not see C's noinline, and once the host
 * loop or suspend is merged into llgo_wasmcontext_switch, Asyncify classifies
 * that function differently and its callers are no longer instrumented
 * correctly (observed on J32: a trap right after the first switch). */
static llgo_wasmcontext_result (*volatile host_loop_function)(asyncify_backend *,
                                                               asyncify_backend *) = run_host_loop;
static void (*volatile suspend_function)(asyncify_backend *, asyncify_backend *) = suspend;

llgo_wasmcontext_result llgo_wasmcontext_switch(llgo_wasmcontext *from, llgo_wasmcontext *to) {
  if (from == NULL || to == NULL || from == to) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  asyncify_backend *source = backend_of(from);
  asyncify_backend *target = backend_of(to);
  if (source->is_main) {
    return host_loop_function(source, target);
  }
  suspend_function(source, target);
  return LLGO_WASMCONTEXT_OK;
}
