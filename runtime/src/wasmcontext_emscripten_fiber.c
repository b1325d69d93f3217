//llgo:build llgo.context_emscripten_fiber
/*
 * wasmcontext_emscripten_fiber.c - the Emscripten Fiber context backend
 * (J32, J64; built with emcc -sASYNCIFY; separate stacks only). Each context is
 * an emscripten_fiber_t over its storage's C stack and save space;
 * emscripten_fiber_swap does the unwind/rewind through Emscripten's JS
 * Asyncify support (slower than the raw backend, but no host loop of ours).
 *
 * resume swaps from the host fiber to the context, suspend and exit swap back;
 * a trampoline runs the entry and swaps back when it returns (a fiber's entry
 * must not return). The host (the system stack running C main) is unwound too
 * while a goroutine runs, so it needs a save area of its own: a static buffer.
 * The context's Asyncify limit is the end of its block, not of its save space,
 * so an overflowing unwind lands in memory this layer owns and is reported as
 * SAVE_OVERFLOW after the swap instead of trapping in stop_unwind.
 * Limits: one thread; one host per process.
 */
#include "wasmcontext_storage.h"

#include <emscripten/fiber.h>
#include <emscripten/stack.h>
#include <stddef.h>
#include <string.h>

#define HOST_ASYNCIFY_AREA_SIZE (64 * 1024)

const char llgo_wasmcontext_backend_name[] = "emscripten-fiber";
const char *llgo_wasmcontext_backend_limit(void) { return ""; } /* no cap beyond memory */

void llgo_wasmcontext_backend_release(llgo_wasmcontext *ctx) {
  (void)ctx; /* everything it holds is in its storage */
}

typedef struct fiber_backend {
  llgo_wasmcontext_storage storage; /* must be first (see wasmcontext_storage.h) */
  emscripten_fiber_t fiber;
  llgo_wasmcontext_entry_fn entry;
  void *arg;
} fiber_backend;

LLGO_WASMCONTEXT_BACKEND_LAYOUT(fiber_backend, LLGO_WASMCONTEXT_WORDS_EMSCRIPTEN_FIBER);

static _Alignas(16) unsigned char host_asyncify_area[HOST_ASYNCIFY_AREA_SIZE];
static emscripten_fiber_t host_fiber;
static int host_ready;
static int context_ended; /* the running context returned or exited */

static fiber_backend *backend_of(llgo_wasmcontext *ctx) {
  return (fiber_backend *)(void *)ctx->opaque;
}

/* The context is about to be unwound (it swaps to the host): into the scratch space, with the
 * guard off until the other side sets its own. */
static void before_swap_out(fiber_backend *self) {
  self->fiber.asyncify_data.stack_ptr = llgo_wasmcontext_storage_save_start(&self->storage);
  self->fiber.asyncify_data.stack_limit = llgo_wasmcontext_storage_save_end(&self->storage);
  llgo_wasmcontext_set_stack_guard(NULL);
}

/* The context runs on its own stack again: its guard. */
static void guard_own_stack(fiber_backend *self) {
  llgo_wasmcontext_running_stack_size = (size_t)(self->storage.stack_top - self->storage.stack_limit);
  llgo_wasmcontext_set_stack_guard(llgo_wasmcontext_guard_for(self->storage.stack_limit));
}

size_t llgo_wasmcontext_backend_save_space_size(size_t stack_size) { return stack_size; }

static void fiber_main(void *arg) {
  fiber_backend *self = arg;
  guard_own_stack(self);
  self->entry(self->arg);
  context_ended = 1;
  before_swap_out(self);
  emscripten_fiber_swap(&self->fiber, &host_fiber); /* never resumed */
}

llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg) {
  fiber_backend *self = backend_of(ctx);
  llgo_wasmcontext_storage *storage = &self->storage;
  self->entry = entry;
  self->arg = arg;
  emscripten_fiber_init(&self->fiber, fiber_main, self, storage->stack_limit,
                        (size_t)(storage->stack_top - storage->stack_limit),
                        llgo_wasmcontext_storage_save_start(storage),
                        llgo_wasmcontext_storage_save_limit(storage));
  return LLGO_WASMCONTEXT_OK;
}

llgo_wasmcontext_result llgo_wasmcontext_resume(llgo_wasmcontext *ctx) {
  fiber_backend *self = backend_of(ctx);
  if (!host_ready) {
    emscripten_fiber_init_from_current_context(&host_fiber, host_asyncify_area,
                                               sizeof host_asyncify_area);
    host_ready = 1;
  }
  if (self->fiber.entry == NULL) {
    /* Resumed after a suspend: rewound from its copy, read backwards from the data's end. */
    self->fiber.asyncify_data.stack_ptr = llgo_wasmcontext_storage_resuming(&self->storage);
    self->fiber.asyncify_data.stack_limit = self->fiber.asyncify_data.stack_ptr;
  }
  void *host_guard = llgo_wasmcontext_get_stack_guard();
  size_t host_stack_size = llgo_wasmcontext_running_stack_size;
  llgo_wasmcontext_set_stack_guard(NULL);
  emscripten_fiber_swap(&host_fiber, &self->fiber);
  llgo_wasmcontext_running_stack_size = host_stack_size;
  llgo_wasmcontext_set_stack_guard(host_guard);
  size_t data_bytes = (size_t)((unsigned char *)self->fiber.asyncify_data.stack_ptr -
                               llgo_wasmcontext_storage_save_start(&self->storage));
  if (context_ended) {
    context_ended = 0;
    return LLGO_WASMCONTEXT_RETURNED;
  }
  return llgo_wasmcontext_storage_suspended(&self->storage, self->fiber.stack_ptr, data_bytes);
}

llgo_wasmcontext_result llgo_wasmcontext_suspend(llgo_wasmcontext *ctx) {
  fiber_backend *self = backend_of(ctx);
  llgo_wasmcontext_result result =
      llgo_wasmcontext_storage_check(&self->storage, (void *)emscripten_stack_get_current());
  if (result != LLGO_WASMCONTEXT_OK) {
    return result;
  }
  before_swap_out(self);
  emscripten_fiber_swap(&self->fiber, &host_fiber);
  guard_own_stack(self);
  return LLGO_WASMCONTEXT_OK;
}

void llgo_wasmcontext_exit(llgo_wasmcontext *ctx) {
  context_ended = 1;
  before_swap_out(backend_of(ctx));
  emscripten_fiber_swap(&backend_of(ctx)->fiber, &host_fiber); /* never resumed */
}

/* A fiber resumed at least once has no entry left; its swap saved its stack pointer. */
void llgo_wasmcontext_for_each_range(const llgo_wasmcontext *ctx, llgo_wasmcontext_range_fn fn,
                                     void *arg) {
  const fiber_backend *self = (const fiber_backend *)(const void *)ctx->opaque;
  llgo_wasmcontext_storage_for_each_range(&self->storage,
                                          self->fiber.entry == NULL ? (void *)self->fiber.stack_ptr : NULL,
                                          fn, arg);
}
