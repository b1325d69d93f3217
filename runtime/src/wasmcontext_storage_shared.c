//llgo:build !llgo.context_pthread && llgo.stacks_shared
/*
 * wasmcontext_storage_shared.c - shared stacks ("copy stacks", as in Tencent
 * libco's shared-stack mode): every context runs on one C stack, allocated
 * once by llgo_wasmcontext_init, at the same addresses:
 *
 *   [scratch save space | canary | shared C stack ........... top]
 *
 * A suspending context unwinds its Asyncify data into the scratch space; then
 * its used stack [stack pointer, top) and the data are copied into its own
 * buffer, sized to fit (grown when it suspends deeper, shrunk when it suspends
 * much shallower). Before it resumes, the stack is copied back to the same
 * addresses - frames hold absolute pointers into it - and the Asyncify rewind
 * reads the data straight from the buffer (the data holds no pointer into
 * itself). A fresh context starts at `top` and needs no copy.
 * Rule (llgo_runtime.h): nothing may dereference a pointer into a suspended
 * context's stack. Each context's stack limit is its own size below `top`.
 */
#include "wasmcontext_storage.h"

#include <string.h>

#ifdef LLGO_WASMCONTEXT_ASAN
#include <sanitizer/asan_interface.h>
#endif

const llgo_wasmcontext_stacks llgo_wasmcontext_storage_stacks = LLGO_WASMCONTEXT_SHARED_STACKS;

static struct {
  unsigned char *block;
  size_t size;
  unsigned char *scratch_limit; /* end of the scratch save space = the canary */
  unsigned char *top;
} shared;

/* Copies a stack or Asyncify data, rounded up to 16 bytes (both ends are
 * 16-byte aligned and the buffers are sized for it). An inline loop of 8-byte
 * moves beats a call of libc's memcpy for these few hundred bytes on wasm (and
 * bulk memory is not enabled everywhere); clang's no_builtin keeps it from
 * being turned back into a memcpy call. The same loop runs natively, so the
 * sanitizer build checks it (the stack range is unpoisoned first: it holds
 * other frames' redzones, which the frames re-poison when they return). */
#if defined(__clang__)
__attribute__((no_builtin("memcpy")))
#endif
static inline __attribute__((always_inline)) void copy_chunks(unsigned char *to, const unsigned char *from, size_t size) {
  uint64_t *words_to = (uint64_t *)(void *)to;
  const uint64_t *words_from = (const uint64_t *)(const void *)from;
  size_t words = (size + 15) / 16 * 2;
  for (size_t i = 0; i < words; i += 2) {
    words_to[i] = words_from[i];
    words_to[i + 1] = words_from[i + 1];
  }
}

static void unpoison_stack(unsigned char *from, size_t size) {
#ifdef LLGO_WASMCONTEXT_ASAN
  ASAN_UNPOISON_MEMORY_REGION(from, size);
#else
  (void)from;
  (void)size;
#endif
}

static size_t round_up_16(size_t size) { return (size + 15u) & ~(size_t)15u; }

llgo_wasmcontext_result llgo_wasmcontext_storage_init(size_t max_stack_size,
                                                      const llgo_wasmcontext_allocator *allocator) {
  if (shared.block != NULL) {
    return LLGO_WASMCONTEXT_OK; /* one shared stack per process */
  }
  size_t save_size = llgo_wasmcontext_backend_save_space_size(max_stack_size);
  size_t size = save_size + LLGO_WASMCONTEXT_CANARY_BYTES + max_stack_size;
  unsigned char *block = allocator->alloc(size, allocator->user);
  if (block == NULL) {
    return LLGO_WASMCONTEXT_OUT_OF_MEMORY;
  }
  shared.block = block;
  shared.size = size;
  shared.scratch_limit = block + save_size;
  shared.top = block + size;
  uint64_t *canary = (uint64_t *)(void *)shared.scratch_limit;
  canary[0] = canary[1] = LLGO_WASMCONTEXT_CANARY_WORD;
  return LLGO_WASMCONTEXT_OK;
}

size_t llgo_wasmcontext_storage_max_stack_size(size_t max_stack_size) {
  return shared.block == NULL ? 0 : max_stack_size;
}

llgo_wasmcontext_result llgo_wasmcontext_storage_create(llgo_wasmcontext_storage *storage,
                                                        size_t stack_size) {
  storage->canary = (const uint64_t *)(void *)shared.scratch_limit;
  storage->save_start = shared.block; /* the scratch space holds the largest stack's worth */
  storage->stack_top = shared.top;
  storage->stack_limit = shared.top - stack_size;
  return LLGO_WASMCONTEXT_OK;
}

static void release_copy(llgo_wasmcontext_storage *storage) {
  if (storage->block != NULL) {
    llgo_wasmcontext_storage_allocator.free(storage->block, storage->block_size,
                                            llgo_wasmcontext_storage_allocator.user);
    storage->block = NULL;
    storage->block_size = 0;
  }
}

void llgo_wasmcontext_storage_destroy(llgo_wasmcontext_storage *storage) {
  release_copy(storage);
}

void llgo_wasmcontext_storage_reset(llgo_wasmcontext_storage *storage) {
  uint64_t *canary = (uint64_t *)(void *)shared.scratch_limit;
  canary[0] = canary[1] = LLGO_WASMCONTEXT_CANARY_WORD;
  storage->saved_stack = 0;
  storage->saved_data = 0;
  storage->save_overflow_injected = 0;
}

/* Makes the copy buffer hold at least `needed` bytes; a buffer more than four
 * times too large is replaced, so a goroutine that once ran deep does not keep
 * that memory while parked shallow. */
static int fit_copy(llgo_wasmcontext_storage *storage, size_t needed) {
  if (needed <= storage->block_size && storage->block_size / 4 <= needed + 64) {
    return 1;
  }
  size_t size = round_up_16(needed);
  unsigned char *block =
      llgo_wasmcontext_storage_allocator.alloc(size, llgo_wasmcontext_storage_allocator.user);
  if (block == NULL) {
    return 0;
  }
  release_copy(storage);
  storage->block = block;
  storage->block_size = size;
  return 1;
}

llgo_wasmcontext_result llgo_wasmcontext_storage_suspended(llgo_wasmcontext_storage *storage,
                                                           void *stack_pointer,
                                                           size_t data_bytes) {
  if (storage->save_overflow_injected || data_bytes > llgo_wasmcontext_storage_save_limit(storage)) {
    return LLGO_WASMCONTEXT_SAVE_OVERFLOW;
  }
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_check(storage, stack_pointer);
  if (result != LLGO_WASMCONTEXT_OK) {
    return result; /* LCOV_EXCL_LINE: a shared-stack overflow; run by the stack-overflow fixtures of P1, J32 and J64 */
  }
  size_t stack_bytes = (size_t)(shared.top - (unsigned char *)stack_pointer);
  if (!fit_copy(storage, round_up_16(stack_bytes) + round_up_16(data_bytes))) {
    return LLGO_WASMCONTEXT_OUT_OF_MEMORY;
  }
  unpoison_stack(stack_pointer, stack_bytes);
  copy_chunks(storage->block, stack_pointer, stack_bytes);
  copy_chunks(storage->block + stack_bytes, shared.block, data_bytes);
  storage->saved_stack = stack_bytes;
  storage->saved_data = data_bytes;
  return LLGO_WASMCONTEXT_OK;
}

unsigned char *llgo_wasmcontext_storage_resuming(llgo_wasmcontext_storage *storage) {
  unsigned char *stack_pointer = shared.top - storage->saved_stack;
  unpoison_stack(stack_pointer, storage->saved_stack);
  copy_chunks(stack_pointer, storage->block, storage->saved_stack);
  return storage->block + storage->saved_stack + storage->saved_data;
}

size_t llgo_wasmcontext_storage_held_bytes(const llgo_wasmcontext_storage *storage) {
  return storage->block_size;
}
