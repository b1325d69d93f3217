//llgo:build !llgo.context_pthread
/*
 * wasmcontext_storage.c - the backend- and storage-neutral part of the context
 * layer: argument checks, create/re-arm/destroy around the selected storage
 * and backend, the allocator given to llgo_wasmcontext_init, the layout of a
 * stack (floor and guard below its limit), the copies a suspended context keeps,
 * result names and the test hooks. See wasmcontext_storage.h for the two storages.
 */
#include "wasmcontext_storage.h"

#include <string.h>

llgo_wasmcontext_allocator llgo_wasmcontext_storage_allocator;
static size_t max_stack_size;

const llgo_wasmcontext_description *llgo_wasmcontext_describe(void) {
  static llgo_wasmcontext_description description;
  description.backend = llgo_wasmcontext_backend_name;
  description.stacks = llgo_wasmcontext_storage_stacks;
  return &description;
}

#define round_up_16 llgo_wasmcontext_round_up_16

size_t llgo_wasmcontext_storage_block_size(size_t save_size, size_t stack_size) {
  size_t below = save_size + LLGO_STACK_FLOOR_BYTES;
#ifndef __wasm__
  below += llgo_stack_guard_page_size() + llgo_stack_guard_bytes(); /* alignment, then the guard */
#endif
  return below + stack_size;
}

llgo_wasmcontext_result llgo_wasmcontext_storage_lay_out(llgo_wasmcontext_storage *storage,
                                                         unsigned char *block, size_t save_size,
                                                         size_t stack_size) {
  unsigned char *floor_end = block + save_size + LLGO_STACK_FLOOR_BYTES;
#ifdef __wasm__
  storage->guard = NULL;
  storage->stack_limit = floor_end;
#else
  size_t page = llgo_stack_guard_page_size();
  storage->guard = (unsigned char *)(((uintptr_t)floor_end + page - 1) & ~(uintptr_t)(page - 1));
  if (llgo_stack_guard_protect(storage->guard) != 0) {
    /* LCOV_EXCL_START: mprotect of pages we own */
    storage->guard = NULL;
    return LLGO_WASMCONTEXT_BACKEND_FAILED;
    /* LCOV_EXCL_STOP */
  }
  storage->stack_limit = storage->guard + llgo_stack_guard_bytes();
#endif
  storage->stack_top = storage->stack_limit + stack_size;
  size_t floor_bytes = 0;
  storage->canary = (const uint64_t *)(void *)(llgo_wasmcontext_storage_floor(storage, &floor_bytes) +
                                               floor_bytes - LLGO_WASMCONTEXT_CANARY_BYTES);
  llgo_wasmcontext_storage_write_canary(storage);
  return LLGO_WASMCONTEXT_OK;
}

void llgo_wasmcontext_storage_unprotect(const llgo_wasmcontext_storage *storage) {
#ifndef __wasm__
  if (storage->guard != NULL) {
    llgo_stack_guard_unprotect(storage->guard);
  }
#else
  (void)storage;
#endif
}

unsigned char *llgo_wasmcontext_storage_floor(const llgo_wasmcontext_storage *storage, size_t *bytes) {
  *bytes = LLGO_STACK_FLOOR_BYTES;
  return (storage->guard != NULL ? storage->guard : storage->stack_limit) - LLGO_STACK_FLOOR_BYTES;
}

void llgo_wasmcontext_storage_write_canary(const llgo_wasmcontext_storage *storage) {
  uint64_t *canary = (uint64_t *)(void *)storage->canary;
  canary[0] = canary[1] = LLGO_WASMCONTEXT_CANARY_WORD;
}

void llgo_wasmcontext_storage_release_copy(llgo_wasmcontext_storage *storage) {
  if (storage->copy != NULL) {
    llgo_wasmcontext_storage_allocator.free(storage->copy, storage->copy_size,
                                            llgo_wasmcontext_storage_allocator.user);
    storage->copy = NULL;
    storage->copy_size = 0;
  }
}

int llgo_wasmcontext_storage_fit_copy(llgo_wasmcontext_storage *storage, size_t needed) {
  if (needed <= storage->copy_size && storage->copy_size / 4 <= needed + 64) {
    return 1;
  }
  size_t size = round_up_16(needed);
  unsigned char *copy =
      llgo_wasmcontext_storage_allocator.alloc(size, llgo_wasmcontext_storage_allocator.user);
  if (copy == NULL) {
    return 0;
  }
  llgo_wasmcontext_storage_release_copy(storage);
  storage->copy = copy;
  storage->copy_size = size;
  return 1;
}

llgo_wasmcontext_result llgo_wasmcontext_init(size_t max_stack,
                                              const llgo_wasmcontext_allocator *allocator) {
  if (allocator == NULL || allocator->alloc == NULL || allocator->free == NULL ||
      max_stack < LLGO_WASMCONTEXT_MIN_STACK_SIZE) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  if (max_stack > SIZE_MAX / 4) {
    return LLGO_WASMCONTEXT_STACK_TOO_LARGE;
  }
  llgo_wasmcontext_storage_allocator = *allocator;
#ifndef __wasm__
  if (llgo_stack_guard_thread_start() != 0) {
    return LLGO_WASMCONTEXT_BACKEND_FAILED; /* LCOV_EXCL_LINE: sigaltstack with a fresh 64 KiB block */
  }
#endif
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_init(round_up_16(max_stack), allocator);
  if (result == LLGO_WASMCONTEXT_OK) {
    max_stack_size = llgo_wasmcontext_storage_max_stack_size(round_up_16(max_stack));
  }
  return result;
}

size_t llgo_wasmcontext_max_stack_size(void) { return max_stack_size; }

llgo_wasmcontext_result llgo_wasmcontext_create(llgo_wasmcontext *ctx,
                                                llgo_wasmcontext_entry_fn entry, void *arg,
                                                size_t stack_size) {
  if (ctx == NULL || entry == NULL || max_stack_size == 0 ||
      stack_size < LLGO_WASMCONTEXT_MIN_STACK_SIZE) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  if (stack_size > max_stack_size) {
    return LLGO_WASMCONTEXT_STACK_TOO_LARGE;
  }
  memset(ctx, 0, sizeof *ctx);
  llgo_wasmcontext_storage *storage = llgo_wasmcontext_storage_of(ctx);
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_create(storage, round_up_16(stack_size));
  if (result != LLGO_WASMCONTEXT_OK) {
    memset(ctx, 0, sizeof *ctx);
    return result;
  }
  result = llgo_wasmcontext_rearm(ctx, entry, arg);
  if (result != LLGO_WASMCONTEXT_OK) {
    llgo_wasmcontext_destroy(ctx); /* e.g. the backend's cap: nothing is kept */ /* LCOV_EXCL_LINE: only a backend with a cap (stack switching, goroutine_limits fixture on Node 26) */
  }
  return result;
}

llgo_wasmcontext_result llgo_wasmcontext_rearm(llgo_wasmcontext *ctx,
                                               llgo_wasmcontext_entry_fn entry, void *arg) {
  llgo_wasmcontext_storage *storage = llgo_wasmcontext_storage_of(ctx);
  if (entry == NULL || storage->stack_top == NULL) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  llgo_wasmcontext_storage_reset(storage);
  return llgo_wasmcontext_backend_arm(ctx, entry, arg);
}

void llgo_wasmcontext_destroy(llgo_wasmcontext *ctx) {
  llgo_wasmcontext_backend_release(ctx);
  llgo_wasmcontext_storage_destroy(llgo_wasmcontext_storage_of(ctx));
  memset(ctx, 0, sizeof *ctx);
}

size_t llgo_wasmcontext_stack_size(const llgo_wasmcontext *ctx) {
  const llgo_wasmcontext_storage *storage =
      llgo_wasmcontext_storage_of((llgo_wasmcontext *)ctx);
  return (size_t)(storage->stack_top - storage->stack_limit);
}

size_t llgo_wasmcontext_held_bytes(const llgo_wasmcontext *ctx) {
  return llgo_wasmcontext_storage_held_bytes(
      llgo_wasmcontext_storage_of((llgo_wasmcontext *)ctx));
}

unsigned char *llgo_wasmcontext_floor(const llgo_wasmcontext *ctx, size_t *bytes) {
  return llgo_wasmcontext_storage_floor(llgo_wasmcontext_storage_of((llgo_wasmcontext *)ctx), bytes);
}

void llgo_wasmcontext_smash_stack_canary(llgo_wasmcontext *ctx) {
  llgo_wasmcontext_storage *storage = llgo_wasmcontext_storage_of(ctx);
  *(uint64_t *)(void *)storage->canary = 0;
}

void llgo_wasmcontext_inject_save_overflow(llgo_wasmcontext *ctx) {
  llgo_wasmcontext_storage_of(ctx)->save_overflow_injected = 1;
}

const char *llgo_wasmcontext_result_name(llgo_wasmcontext_result result) {
  switch (result) {
  case LLGO_WASMCONTEXT_OK:
    return "ok";
  case LLGO_WASMCONTEXT_RETURNED:
    return "returned";
  case LLGO_WASMCONTEXT_INVALID_ARGUMENT:
    return "invalid argument";
  case LLGO_WASMCONTEXT_STACK_TOO_LARGE:
    return "stack size too large";
  case LLGO_WASMCONTEXT_OUT_OF_MEMORY:
    return "out of memory allocating a goroutine stack";
  case LLGO_WASMCONTEXT_STACK_OVERFLOW:
    return "stack overflow (the C stack went past its limit)";
  case LLGO_WASMCONTEXT_SAVE_OVERFLOW:
    return "Asyncify save area overflow (the suspended call stack does not fit)";
  case LLGO_WASMCONTEXT_BACKEND_FAILED:
    return "the context backend failed";
  case LLGO_WASMCONTEXT_TOO_MANY:
    return llgo_wasmcontext_backend_limit()[0] ? llgo_wasmcontext_backend_limit() : "too many contexts alive at once";
  case LLGO_WASMCONTEXT_ESCAPED:
    return "a longjmp left the goroutine's stack (to a jmp_buf none of its frames set)";
  }
  return "unknown context result";
}
