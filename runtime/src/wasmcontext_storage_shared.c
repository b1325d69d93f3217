//llgo:build !llgo.context_pthread && llgo.stacks_shared
/*
 * wasmcontext_storage_shared.c - shared stacks ("copy stacks", as in Tencent
 * libco's shared-stack mode): every context runs on one C stack, allocated
 * once by llgo_wasmcontext_init, at the same addresses and with the same limit:
 *
 *   [scratch save space | floor | guard | shared C stack ........... top]
 *
 * (the guard: inaccessible pages natively, nothing on wasm). A suspending
 * context unwinds its Asyncify data into the scratch space; then its used stack
 * [stack pointer, top) and the data are copied into its own buffer, sized to fit
 * (grown when it suspends deeper, replaced when it suspends much shallower).
 * Before it resumes, the stack is copied back to the same addresses - frames
 * hold absolute pointers into it - and the Asyncify rewind reads the data
 * straight from the buffer (the data holds no pointer into itself). A fresh
 * context starts at `top` and needs no copy. Every context may use the whole
 * shared stack (a smaller size asked for at create is a minimum), since a
 * parked one costs only what it used.
 * Rule (llgo_runtime.h): nothing may dereference a pointer into a suspended
 * context's stack.
 */
#include "wasmcontext_storage.h"

#include <string.h>

#ifdef LLGO_WASMCONTEXT_ASAN
#include <sanitizer/asan_interface.h>
#endif

const llgo_wasmcontext_stacks llgo_wasmcontext_storage_stacks = LLGO_WASMCONTEXT_SHARED_STACKS;

/* The shared block, laid out like any stack (wasmcontext_storage.c): its limit, top, guard and
 * canary are every context's. */
static llgo_wasmcontext_storage shared;

/* The stack range is unpoisoned before it is copied under the sanitizer: it holds other frames'
 * redzones, which the frames re-poison when they return. */
static void unpoison_stack(unsigned char *from, size_t size) {
#ifdef LLGO_WASMCONTEXT_ASAN
  ASAN_UNPOISON_MEMORY_REGION(from, size);
#else
  (void)from;
  (void)size;
#endif
}

llgo_wasmcontext_result llgo_wasmcontext_storage_init(size_t max_stack_size,
                                                      const llgo_wasmcontext_allocator *allocator) {
  if (shared.block != NULL) {
    return LLGO_WASMCONTEXT_OK; /* one shared stack per process */
  }
  size_t save_size = llgo_wasmcontext_backend_save_space_size(max_stack_size);
  size_t size = llgo_wasmcontext_storage_block_size(save_size, max_stack_size);
  unsigned char *block = allocator->alloc(size, allocator->user);
  if (block == NULL) {
    return LLGO_WASMCONTEXT_OUT_OF_MEMORY;
  }
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_lay_out(&shared, block, save_size, max_stack_size);
  if (result != LLGO_WASMCONTEXT_OK) {
    allocator->free(block, size, allocator->user); /* LCOV_EXCL_LINE: mprotect of pages we own */
    return result;                                 /* LCOV_EXCL_LINE */
  }
  shared.block = block;
  shared.block_size = size;
  return LLGO_WASMCONTEXT_OK;
}

size_t llgo_wasmcontext_storage_max_stack_size(size_t max_stack_size) {
  return shared.block == NULL ? 0 : max_stack_size;
}

llgo_wasmcontext_result llgo_wasmcontext_storage_create(llgo_wasmcontext_storage *storage,
                                                        size_t stack_size) {
  (void)stack_size; /* at most the shared stack's size (checked by create): a minimum */
  storage->canary = shared.canary;
  storage->guard = shared.guard;
  storage->stack_top = shared.stack_top;
  storage->stack_limit = shared.stack_limit;
  return LLGO_WASMCONTEXT_OK;
}

void llgo_wasmcontext_storage_destroy(llgo_wasmcontext_storage *storage) {
  llgo_wasmcontext_storage_release_copy(storage);
}

void llgo_wasmcontext_storage_reset(llgo_wasmcontext_storage *storage) {
  llgo_wasmcontext_storage_write_canary(storage);
  storage->saved_stack = 0;
  storage->saved_data = 0;
  storage->save_overflow_injected = 0;
}

/* LCOV_EXCL_START: called by the backends that save Asyncify data only (wasm) */
unsigned char *llgo_wasmcontext_storage_save_start(const llgo_wasmcontext_storage *storage) {
  (void)storage;
  return shared.block; /* the scratch space holds the shared stack's worth */
}

unsigned char *llgo_wasmcontext_storage_save_end(const llgo_wasmcontext_storage *storage) {
  (void)storage;
  return shared.stack_top;
}
/* LCOV_EXCL_STOP */

llgo_wasmcontext_result llgo_wasmcontext_storage_suspended(llgo_wasmcontext_storage *storage,
                                                           void *stack_pointer,
                                                           size_t data_bytes) {
  if (storage->save_overflow_injected || data_bytes > llgo_wasmcontext_storage_save_limit(storage)) {
    return LLGO_WASMCONTEXT_SAVE_OVERFLOW;
  }
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_check(storage, stack_pointer);
  if (result != LLGO_WASMCONTEXT_OK) {
    return result; /* LCOV_EXCL_LINE: a shared-stack overflow; the guard catches it first, run by the fixtures' smashed canaries */
  }
  size_t stack_bytes = (size_t)(shared.stack_top - (unsigned char *)stack_pointer);
  size_t stack_copy = llgo_wasmcontext_round_up_16(stack_bytes);
  if (!llgo_wasmcontext_storage_fit_copy(storage, stack_copy + llgo_wasmcontext_round_up_16(data_bytes))) {
    return LLGO_WASMCONTEXT_OUT_OF_MEMORY;
  }
  unpoison_stack(stack_pointer, stack_bytes);
  llgo_wasmcontext_copy_chunks(storage->copy, stack_pointer, stack_bytes);
  llgo_wasmcontext_copy_chunks(storage->copy + stack_bytes, shared.block, data_bytes);
  storage->saved_stack = stack_bytes;
  storage->saved_data = data_bytes;
  return LLGO_WASMCONTEXT_OK;
}

unsigned char *llgo_wasmcontext_storage_resuming(llgo_wasmcontext_storage *storage) {
  unsigned char *stack_pointer = shared.stack_top - storage->saved_stack;
  unpoison_stack(stack_pointer, storage->saved_stack);
  llgo_wasmcontext_copy_chunks(stack_pointer, storage->copy, storage->saved_stack);
  return storage->copy + storage->saved_stack + storage->saved_data;
}

size_t llgo_wasmcontext_storage_held_bytes(const llgo_wasmcontext_storage *storage) {
  return storage->copy_size;
}

/* The copy holds everything a suspended context has: its used stack, then its Asyncify data. A
 * context never resumed since it was armed saved nothing (both sizes are 0 after a reset). */
void llgo_wasmcontext_storage_for_each_range(const llgo_wasmcontext_storage *storage,
                                             const void *stack_pointer,
                                             llgo_wasmcontext_range_fn fn, void *arg) {
  size_t saved = storage->saved_stack + storage->saved_data;
  if (stack_pointer != NULL && saved != 0) {
    fn(storage->copy, storage->copy + saved, arg);
  }
}
