//llgo:build !llgo.context_pthread
/*
 * wasmcontext_storage.c - backend-neutral part of the context layer: storage
 * allocation through the caller's callbacks, canaries, overflow checks, reuse.
 *
 * C stack allocation:      [canary | usable stack ...... top]  (grows down)
 * Asyncify area allocation: [bounds | save space ...... | canary]
 * An overflow of either overwrites its canary (or, for Asyncify, leaves
 * bounds->current past bounds->end); llgo_wasmcontext_check reports it.
 */
#include "wasmcontext_storage.h"

#include <string.h>

/* A recognisable pattern: unlikely to be written by accident. */
static const unsigned char canary_pattern[LLGO_WASMCONTEXT_CANARY_BYTES] = {
    0x6c, 0x6c, 0x67, 0x6f, 0xca, 0xfe, 0xf0, 0x0d,
    0xde, 0xad, 0xbe, 0xef, 0x57, 0xac, 0x4b, 0x21};

static size_t round_up_16(size_t size) {
  return (size + 15u) & ~(size_t)15u;
}

static void write_canaries(llgo_wasmcontext_storage *storage) {
  memcpy(storage->stack, canary_pattern, sizeof canary_pattern);
  memcpy(llgo_wasmcontext_asyncify_space_end(storage), canary_pattern, sizeof canary_pattern);
}

llgo_wasmcontext_result llgo_wasmcontext_create(llgo_wasmcontext *ctx,
                                                llgo_wasmcontext_entry_fn entry, void *arg,
                                                size_t stack_size, size_t asyncify_size,
                                                llgo_wasmcontext_alloc_fn alloc_fn,
                                                llgo_wasmcontext_free_fn free_fn,
                                                void *user) {
  if (ctx == NULL || entry == NULL || alloc_fn == NULL || free_fn == NULL ||
      stack_size < LLGO_WASMCONTEXT_MIN_STACK_SIZE ||
      asyncify_size < LLGO_WASMCONTEXT_MIN_ASYNCIFY_SIZE) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  memset(ctx, 0, sizeof *ctx);
  llgo_wasmcontext_storage *storage = llgo_wasmcontext_storage_of(ctx);
  storage->stack_size = round_up_16(stack_size);
  storage->asyncify_size = round_up_16(asyncify_size);
  storage->stack = alloc_fn(storage->stack_size, user);
  if (storage->stack == NULL) {
    return LLGO_WASMCONTEXT_STACK_ALLOC_FAILED;
  }
  storage->asyncify = alloc_fn(storage->asyncify_size, user);
  if (storage->asyncify == NULL) {
    free_fn(storage->stack, storage->stack_size, user);
    storage->stack = NULL;
    return LLGO_WASMCONTEXT_ASYNCIFY_ALLOC_FAILED;
  }
  llgo_wasmcontext_result result = llgo_wasmcontext_rearm(ctx, entry, arg);
  if (result != LLGO_WASMCONTEXT_OK) {
    /* Only a failing backend primitive gets here (e.g. getcontext); the
     * native tests cannot make it fail. */
    llgo_wasmcontext_destroy(ctx, free_fn, user); // LCOV_EXCL_LINE
  }
  return result;
}

llgo_wasmcontext_result llgo_wasmcontext_rearm(llgo_wasmcontext *ctx,
                                               llgo_wasmcontext_entry_fn entry, void *arg) {
  llgo_wasmcontext_storage *storage = llgo_wasmcontext_storage_of(ctx);
  if (entry == NULL || storage->stack == NULL) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  write_canaries(storage);
  return llgo_wasmcontext_backend_arm(ctx, entry, arg);
}

void llgo_wasmcontext_destroy(llgo_wasmcontext *ctx, llgo_wasmcontext_free_fn free_fn,
                              void *user) {
  llgo_wasmcontext_storage *storage = llgo_wasmcontext_storage_of(ctx);
  if (storage->stack != NULL) {
    free_fn(storage->stack, storage->stack_size, user);
  }
  if (storage->asyncify != NULL) {
    free_fn(storage->asyncify, storage->asyncify_size, user);
  }
  memset(ctx, 0, sizeof *ctx);
}

llgo_wasmcontext_result llgo_wasmcontext_check(const llgo_wasmcontext *ctx) {
  const llgo_wasmcontext_storage *storage =
      llgo_wasmcontext_storage_of((llgo_wasmcontext *)ctx);
  if (storage->stack == NULL) {
    return LLGO_WASMCONTEXT_OK; /* a main context: the host owns its stack */
  }
  if (memcmp(storage->stack, canary_pattern, sizeof canary_pattern) != 0) {
    return LLGO_WASMCONTEXT_STACK_OVERFLOW;
  }
  if ((unsigned char *)storage->bounds->current > (unsigned char *)storage->bounds->end ||
      memcmp(llgo_wasmcontext_asyncify_space_end(storage), canary_pattern,
             sizeof canary_pattern) != 0) {
    return LLGO_WASMCONTEXT_ASYNCIFY_OVERFLOW;
  }
  return LLGO_WASMCONTEXT_OK;
}

size_t llgo_wasmcontext_stack_size(const llgo_wasmcontext *ctx) {
  const llgo_wasmcontext_storage *storage =
      llgo_wasmcontext_storage_of((llgo_wasmcontext *)ctx);
  return storage->stack == NULL ? 0 : storage->stack_size - LLGO_WASMCONTEXT_CANARY_BYTES;
}

void llgo_wasmcontext_smash_stack_canary(llgo_wasmcontext *ctx) {
  llgo_wasmcontext_storage *storage = llgo_wasmcontext_storage_of(ctx);
  if (storage->stack != NULL) {
    memset(storage->stack, 0, LLGO_WASMCONTEXT_CANARY_BYTES);
  }
}

void llgo_wasmcontext_overflow_asyncify_area(llgo_wasmcontext *ctx) {
  llgo_wasmcontext_storage *storage = llgo_wasmcontext_storage_of(ctx);
  if (storage->stack != NULL) {
    storage->bounds->current = (unsigned char *)storage->bounds->end + 1;
  }
}

const char *llgo_wasmcontext_result_name(llgo_wasmcontext_result result) {
  switch (result) {
  case LLGO_WASMCONTEXT_OK:
    return "ok";
  case LLGO_WASMCONTEXT_INVALID_ARGUMENT:
    return "invalid argument";
  case LLGO_WASMCONTEXT_STACK_ALLOC_FAILED:
    return "out of memory allocating a goroutine stack";
  case LLGO_WASMCONTEXT_ASYNCIFY_ALLOC_FAILED:
    return "out of memory allocating an Asyncify save area";
  case LLGO_WASMCONTEXT_STACK_OVERFLOW:
    return "stack overflow (the C stack's limit canary was overwritten)";
  case LLGO_WASMCONTEXT_ASYNCIFY_OVERFLOW:
    return "Asyncify save area overflow (the suspended call stack does not fit)";
  case LLGO_WASMCONTEXT_BACKEND_FAILED:
    return "the context backend failed";
  }
  return "unknown context result";
}
