//llgo:build !llgo.context_pthread && !llgo.stacks_shared
/*
 * wasmcontext_storage_separate.c - separate stacks: every context owns one
 * block, allocated when it is created and kept until it is destroyed:
 *
 *   [save space (Asyncify data) | canary | C stack ............ top]
 *
 * Nothing is copied on a switch; a suspended context holds its whole block,
 * used or not. An Asyncify unwind writes into the context's own save space;
 * data past it runs onto the canary and the free low end of its own stack.
 * Use it for C code that keeps pointers into other goroutines' stacks.
 */
#include "wasmcontext_storage.h"

#include <string.h>

const llgo_wasmcontext_stacks llgo_wasmcontext_storage_stacks = LLGO_WASMCONTEXT_SEPARATE_STACKS;

llgo_wasmcontext_result llgo_wasmcontext_storage_init(size_t max_stack_size,
                                                      const llgo_wasmcontext_allocator *allocator) {
  (void)max_stack_size;
  (void)allocator;
  return LLGO_WASMCONTEXT_OK;
}

/* Any size the allocator can satisfy (init's bound is for shared stacks). */
size_t llgo_wasmcontext_storage_max_stack_size(size_t max_stack_size) {
  (void)max_stack_size;
  return (SIZE_MAX / 4) & ~(size_t)15;
}

llgo_wasmcontext_result llgo_wasmcontext_storage_create(llgo_wasmcontext_storage *storage,
                                                        size_t stack_size) {
  size_t save_size = llgo_wasmcontext_backend_save_space_size(stack_size);
  size_t block_size = save_size + LLGO_WASMCONTEXT_CANARY_BYTES + stack_size;
  unsigned char *block =
      llgo_wasmcontext_storage_allocator.alloc(block_size, llgo_wasmcontext_storage_allocator.user);
  if (block == NULL) {
    return LLGO_WASMCONTEXT_OUT_OF_MEMORY;
  }
  storage->block = block;
  storage->block_size = block_size;
  storage->save_start = block;
  storage->canary = (const uint64_t *)(void *)(block + save_size);
  storage->stack_limit = block + save_size + LLGO_WASMCONTEXT_CANARY_BYTES;
  storage->stack_top = block + block_size;
  return LLGO_WASMCONTEXT_OK;
}

void llgo_wasmcontext_storage_destroy(llgo_wasmcontext_storage *storage) {
  if (storage->block != NULL) {
    llgo_wasmcontext_storage_allocator.free(storage->block, storage->block_size,
                                            llgo_wasmcontext_storage_allocator.user);
  }
}

void llgo_wasmcontext_storage_reset(llgo_wasmcontext_storage *storage) {
  uint64_t *canary = (uint64_t *)(void *)storage->canary;
  canary[0] = canary[1] = LLGO_WASMCONTEXT_CANARY_WORD;
  storage->saved_data = 0;
  storage->save_overflow_injected = 0;
}

llgo_wasmcontext_result llgo_wasmcontext_storage_suspended(llgo_wasmcontext_storage *storage,
                                                           void *stack_pointer,
                                                           size_t data_bytes) {
  if (storage->save_overflow_injected || data_bytes > llgo_wasmcontext_storage_save_limit(storage)) {
    return LLGO_WASMCONTEXT_SAVE_OVERFLOW;
  }
  storage->saved_data = data_bytes;
  return llgo_wasmcontext_storage_check(storage, stack_pointer);
}

unsigned char *llgo_wasmcontext_storage_resuming(llgo_wasmcontext_storage *storage) {
  return storage->block + storage->saved_data;
}

size_t llgo_wasmcontext_storage_held_bytes(const llgo_wasmcontext_storage *storage) {
  return storage->block_size;
}
