//llgo:build llgo.context_ucontext
/*
 * wasmcontext_ucontext.c - the native context backend: getcontext, makecontext
 * and swapcontext. It exists so the single-worker scheduler can be tested
 * natively (with coverage and sanitizers); wasm builds use Asyncify or Fibers.
 *
 * The Asyncify area is allocated and guarded like on wasm but never written by
 * this backend: its bounds stay at {start, end}, so checks see it intact.
 * Under AddressSanitizer every switch announces the target stack
 * (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber).
 * Limits: one thread switches contexts (a thread-local remembers the context
 * being started, because makecontext passes only int arguments).
 */
#define _GNU_SOURCE
#include "wasmcontext_storage.h"

#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#define LLGO_WASMCONTEXT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LLGO_WASMCONTEXT_ASAN 1
#endif
#endif

#ifdef LLGO_WASMCONTEXT_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

typedef struct ucontext_backend {
  llgo_wasmcontext_storage storage; /* must be first (see wasmcontext_storage.h) */
  llgo_asyncify_bounds bounds;      /* unused by ucontext, kept for the checks */
  ucontext_t machine;
  llgo_wasmcontext_entry_fn entry;
  void *arg;
  const void *asan_stack_bottom; /* the stack ASan must be told about */
  size_t asan_stack_size;
} ucontext_backend;

_Static_assert(sizeof(ucontext_backend) <= LLGO_WASMCONTEXT_OPAQUE_SIZE,
               "LLGO_WASMCONTEXT_OPAQUE_SIZE is too small for ucontext_t");
_Static_assert(offsetof(ucontext_backend, storage) == 0, "storage must come first");

static _Thread_local ucontext_backend *starting_context;
static _Thread_local ucontext_backend *switching_from;

static ucontext_backend *backend_of(llgo_wasmcontext *ctx) {
  return (ucontext_backend *)(void *)ctx->opaque;
}

static void finish_switch(void *fake_stack) {
#ifdef LLGO_WASMCONTEXT_ASAN
  const void *old_bottom = NULL;
  size_t old_size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &old_bottom, &old_size);
  /* The first switch out of a main context teaches us its stack bounds. */
  if (switching_from != NULL && switching_from->asan_stack_bottom == NULL) {
    switching_from->asan_stack_bottom = old_bottom;
    switching_from->asan_stack_size = old_size;
  }
#else
  (void)fake_stack;
#endif
}

static void context_start(void) {
  ucontext_backend *self = starting_context;
  starting_context = NULL;
  finish_switch(NULL);
  self->entry(self->arg);
  /* Entries must switch away instead of returning; uc_link is NULL, so a
   * return would end the thread. */
}

llgo_wasmcontext_result llgo_wasmcontext_init_main(llgo_wasmcontext *ctx) {
  if (ctx == NULL) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  memset(ctx, 0, sizeof *ctx);
  return LLGO_WASMCONTEXT_OK;
}

llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg) {
  ucontext_backend *self = backend_of(ctx);
  llgo_wasmcontext_storage *storage = &self->storage;
  self->bounds.current = llgo_wasmcontext_asyncify_space(storage);
  self->bounds.end = llgo_wasmcontext_asyncify_space_end(storage);
  storage->bounds = &self->bounds;
  self->entry = entry;
  self->arg = arg;
  if (getcontext(&self->machine) != 0) {
    return LLGO_WASMCONTEXT_BACKEND_FAILED;
  }
  self->machine.uc_stack.ss_sp = llgo_wasmcontext_stack_limit(storage);
  self->machine.uc_stack.ss_size = llgo_wasmcontext_stack_size(ctx);
  self->machine.uc_link = NULL;
  self->asan_stack_bottom = self->machine.uc_stack.ss_sp;
  self->asan_stack_size = self->machine.uc_stack.ss_size;
#ifdef LLGO_WASMCONTEXT_ASAN
  /* A reused stack still carries the redzones of frames that never returned. */
  ASAN_UNPOISON_MEMORY_REGION(self->machine.uc_stack.ss_sp, self->machine.uc_stack.ss_size);
#endif
  makecontext(&self->machine, context_start, 0);
  return LLGO_WASMCONTEXT_OK;
}

llgo_wasmcontext_result llgo_wasmcontext_switch(llgo_wasmcontext *from, llgo_wasmcontext *to) {
  if (from == NULL || to == NULL || from == to) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  ucontext_backend *source = backend_of(from);
  ucontext_backend *target = backend_of(to);
  starting_context = target; /* read by context_start if `to` starts fresh */
  switching_from = source;
  void *fake_stack = NULL;
#ifdef LLGO_WASMCONTEXT_ASAN
  __sanitizer_start_switch_fiber(&fake_stack, target->asan_stack_bottom,
                                 target->asan_stack_size);
#endif
  if (swapcontext(&source->machine, &target->machine) != 0) {
    return LLGO_WASMCONTEXT_BACKEND_FAILED;
  }
  finish_switch(fake_stack);
  return LLGO_WASMCONTEXT_OK;
}
