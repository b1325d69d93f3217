//llgo:build llgo.context_emscripten_fiber
/*
 * wasmcontext_emscripten_fiber.c - the Emscripten Fiber context backend
 * (J32, J64; built with emcc -sASYNCIFY). Each context is an
 * emscripten_fiber_t over the storage's C stack and Asyncify save area;
 * emscripten_fiber_swap does the unwind/rewind through Emscripten's JS
 * Asyncify support (slower than the raw backend, but no host loop of ours).
 *
 * The host context (the system stack running C main) is unwound too while a
 * goroutine runs, so it needs a save area of its own: a static buffer here,
 * because the host context is created without allocation callbacks.
 * Emscripten's asyncify_data_t begins with {stack_ptr, stack_limit}, the same
 * {current, end} pair the storage checks for overflow.
 * Limits: one thread; one host context per process.
 */
#include "wasmcontext_storage.h"

#include <emscripten/fiber.h>
#include <stddef.h>
#include <string.h>

#define HOST_ASYNCIFY_AREA_SIZE (64 * 1024)

typedef struct fiber_backend {
  llgo_wasmcontext_storage storage; /* must be first (see wasmcontext_storage.h) */
  emscripten_fiber_t fiber;
} fiber_backend;

_Static_assert(sizeof(fiber_backend) <= LLGO_WASMCONTEXT_OPAQUE_SIZE,
               "LLGO_WASMCONTEXT_OPAQUE_SIZE is too small for emscripten_fiber_t");
_Static_assert(offsetof(fiber_backend, storage) == 0, "storage must come first");
_Static_assert(offsetof(asyncify_data_t, stack_ptr) == offsetof(llgo_asyncify_bounds, current) &&
                   offsetof(asyncify_data_t, stack_limit) == offsetof(llgo_asyncify_bounds, end),
               "asyncify_data_t must start with {current, end}");

static _Alignas(16) unsigned char host_asyncify_area[HOST_ASYNCIFY_AREA_SIZE];

static fiber_backend *backend_of(llgo_wasmcontext *ctx) {
  return (fiber_backend *)(void *)ctx->opaque;
}

llgo_wasmcontext_result llgo_wasmcontext_init_main(llgo_wasmcontext *ctx) {
  if (ctx == NULL) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  memset(ctx, 0, sizeof *ctx);
  emscripten_fiber_init_from_current_context(&backend_of(ctx)->fiber, host_asyncify_area,
                                             sizeof host_asyncify_area);
  return LLGO_WASMCONTEXT_OK;
}

llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg) {
  fiber_backend *self = backend_of(ctx);
  llgo_wasmcontext_storage *storage = &self->storage;
  unsigned char *save_space = llgo_wasmcontext_asyncify_space(storage);
  unsigned char *save_end = llgo_wasmcontext_asyncify_space_end(storage);
  emscripten_fiber_init(&self->fiber, entry, arg, llgo_wasmcontext_stack_limit(storage),
                        llgo_wasmcontext_stack_size(ctx), save_space,
                        (size_t)(save_end - save_space));
  storage->bounds = (llgo_asyncify_bounds *)(void *)&self->fiber.asyncify_data;
  return LLGO_WASMCONTEXT_OK;
}

llgo_wasmcontext_result llgo_wasmcontext_switch(llgo_wasmcontext *from, llgo_wasmcontext *to) {
  if (from == NULL || to == NULL || from == to) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  emscripten_fiber_swap(&backend_of(from)->fiber, &backend_of(to)->fiber);
  return LLGO_WASMCONTEXT_OK;
}
