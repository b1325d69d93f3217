//llgo:build !llgo.context_pthread && !llgo.stacks_shared
/*
 * wasmcontext_storage_separate.c - separate stacks: every context owns one
 * block, allocated when it is created and kept until it is destroyed:
 *
 *   [floor | guard | C stack ............ top]
 *
 * (the guard: inaccessible pages natively, nothing on wasm). Nothing is copied
 * on a switch but Asyncify data: an unwind writes into one scratch space that
 * all contexts share, twice as large as the largest stack created (data past
 * the limit, as much as the context's stack, lands in its second half), and the
 * data is then copied into a buffer of the context sized to fit, which the
 * rewind reads from. A suspended context so holds its stack and what it saved,
 * not a save area as large as its stack. Use this storage for C code that keeps
 * pointers into other goroutines' stacks.
 */
#include "wasmcontext_storage.h"

#include <string.h>

const llgo_wasmcontext_stacks llgo_wasmcontext_storage_stacks = LLGO_WASMCONTEXT_SEPARATE_STACKS;

/* Where every Asyncify unwind writes (backends that save data only). */
static unsigned char *scratch;
static size_t scratch_size;

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

/* Makes the scratch space hold a stack of `stack_size`'s data twice over. It holds nothing
 * between unwinds (each is copied out at once), so it is replaced freely. */
static int fit_scratch(size_t stack_size) {
  size_t needed = llgo_wasmcontext_backend_save_space_size(stack_size) * 2;
  if (needed <= scratch_size) {
    return 1;
  }
  /* LCOV_EXCL_START: natively no backend saves data (the sanitizer build measures coverage) */
  unsigned char *grown =
      llgo_wasmcontext_storage_allocator.alloc(needed, llgo_wasmcontext_storage_allocator.user);
  if (grown == NULL) {
    return 0;
  }
  if (scratch != NULL) {
    llgo_wasmcontext_storage_allocator.free(scratch, scratch_size, llgo_wasmcontext_storage_allocator.user);
  }
  scratch = grown;
  scratch_size = needed;
  return 1;
  /* LCOV_EXCL_STOP */
}

llgo_wasmcontext_result llgo_wasmcontext_storage_create(llgo_wasmcontext_storage *storage,
                                                        size_t stack_size) {
  if (!fit_scratch(stack_size)) {
    return LLGO_WASMCONTEXT_OUT_OF_MEMORY; /* LCOV_EXCL_LINE: natively no backend saves data (no scratch space) */
  }
  size_t block_size = llgo_wasmcontext_storage_block_size(0, stack_size);
  unsigned char *block =
      llgo_wasmcontext_storage_allocator.alloc(block_size, llgo_wasmcontext_storage_allocator.user);
  if (block == NULL) {
    return LLGO_WASMCONTEXT_OUT_OF_MEMORY;
  }
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_lay_out(storage, block, 0, stack_size);
  if (result != LLGO_WASMCONTEXT_OK) {
    llgo_wasmcontext_storage_allocator.free(block, block_size, llgo_wasmcontext_storage_allocator.user); /* LCOV_EXCL_LINE: mprotect of pages we own */
    return result; /* LCOV_EXCL_LINE */
  }
  storage->block = block;
  storage->block_size = block_size;
  return LLGO_WASMCONTEXT_OK;
}

void llgo_wasmcontext_storage_destroy(llgo_wasmcontext_storage *storage) {
  llgo_wasmcontext_storage_release_copy(storage);
  if (storage->block != NULL) {
    llgo_wasmcontext_storage_unprotect(storage);
    llgo_wasmcontext_storage_allocator.free(storage->block, storage->block_size,
                                            llgo_wasmcontext_storage_allocator.user);
  }
}

void llgo_wasmcontext_storage_reset(llgo_wasmcontext_storage *storage) {
  llgo_wasmcontext_storage_write_canary(storage);
  storage->saved_data = 0;
  storage->save_overflow_injected = 0;
}

/* LCOV_EXCL_START: called by the backends that save Asyncify data only (wasm) */
unsigned char *llgo_wasmcontext_storage_save_start(const llgo_wasmcontext_storage *storage) {
  (void)storage;
  return scratch;
}

unsigned char *llgo_wasmcontext_storage_save_end(const llgo_wasmcontext_storage *storage) {
  (void)storage;
  return scratch + scratch_size;
}
/* LCOV_EXCL_STOP */

llgo_wasmcontext_result llgo_wasmcontext_storage_suspended(llgo_wasmcontext_storage *storage,
                                                           void *stack_pointer,
                                                           size_t data_bytes) {
  if (storage->save_overflow_injected || data_bytes > llgo_wasmcontext_storage_save_limit(storage)) {
    return LLGO_WASMCONTEXT_SAVE_OVERFLOW;
  }
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_check(storage, stack_pointer);
  if (result != LLGO_WASMCONTEXT_OK || data_bytes == 0) {
    storage->saved_data = 0;
    return result;
  }
  /* LCOV_EXCL_START: natively no context saves data */
  if (!llgo_wasmcontext_storage_fit_copy(storage, data_bytes)) {
    return LLGO_WASMCONTEXT_OUT_OF_MEMORY;
  }
  llgo_wasmcontext_copy_chunks(storage->copy, scratch, data_bytes);
  storage->saved_data = data_bytes;
  return LLGO_WASMCONTEXT_OK;
  /* LCOV_EXCL_STOP */
}

unsigned char *llgo_wasmcontext_storage_resuming(llgo_wasmcontext_storage *storage) {
  return storage->copy == NULL ? NULL : storage->copy + storage->saved_data;
}

/* Its guard pages are address space only: never touched, never resident. */
size_t llgo_wasmcontext_storage_held_bytes(const llgo_wasmcontext_storage *storage) {
#ifdef __wasm__
  return storage->block_size + storage->copy_size;
#else
  return storage->block_size - llgo_stack_guard_bytes() + storage->copy_size;
#endif
}

/* Its stack stays where it ran: [stack pointer, top); its Asyncify data is in its copy. */
void llgo_wasmcontext_storage_for_each_range(const llgo_wasmcontext_storage *storage,
                                             const void *stack_pointer,
                                             llgo_wasmcontext_range_fn fn, void *arg) {
  if (stack_pointer == NULL) {
    return;
  }
  fn((void *)stack_pointer, storage->stack_top, arg);
  if (storage->saved_data != 0) {
    fn(storage->copy, storage->copy + storage->saved_data, arg); /* LCOV_EXCL_LINE: natively no context saves data */
  }
}
