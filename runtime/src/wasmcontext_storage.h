//llgo:build !llgo.context_pthread
/*
 * wasmcontext_storage.h - backend-private: where a context's C stack and
 * Asyncify data live, and the hooks between a backend and its storage. Two
 * storages exist (exactly one is selected, by build tag):
 *   wasmcontext_storage_separate.c  one block per context:
 *                                   [save space | canary | C stack ..... top]
 *   wasmcontext_storage_shared.c    one shared block for all contexts:
 *                                   [scratch save space | canary | C stack . top]
 *                                   plus a right-sized copy per suspended context
 * wasmcontext_storage.c holds what both share (create/destroy, names, checks).
 *
 * The save space comes first so that Asyncify data running past its end lands
 * on the canary and the stack's free low end, memory this layer owns, and the
 * overflow is reported after the unwind instead of corrupting a neighbour
 * (Binaryen does not bounds-check while unwinding). Every backend's private
 * context struct starts with an llgo_wasmcontext_storage.
 */
#ifndef LLGO_WASMCONTEXT_STORAGE_H
#define LLGO_WASMCONTEXT_STORAGE_H

#include "wasmcontext.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__)
#define LLGO_WASMCONTEXT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LLGO_WASMCONTEXT_ASAN 1
#endif
#endif

/* Binaryen's Asyncify data header: where the next save goes, and the end of
 * the space. Emscripten's asyncify_data_t starts with the same two pointers. */
typedef struct llgo_asyncify_bounds {
  void *current;
  void *end;
} llgo_asyncify_bounds;

#define LLGO_WASMCONTEXT_CANARY_BYTES 16
#define LLGO_WASMCONTEXT_CANARY_WORD ((uint64_t)0xf00dcafe6f676c6cull)

typedef struct llgo_wasmcontext_storage {
  unsigned char *block;       /* separate: the context's block; shared: its copy (or NULL) */
  size_t block_size;          /* bytes allocated for `block` */
  unsigned char *stack_top;   /* where the stack starts (grows down), 16-aligned */
  unsigned char *stack_limit; /* lowest address the stack may reach */
  unsigned char *save_start;  /* where an Asyncify unwind writes its data (below the
                                 stack: up to stack_top is memory this layer owns) */
  const uint64_t *canary;     /* a word just below the lowest stack address */
  void *stack_pointer;        /* saved when suspended (the backends set and read it) */
  size_t saved_stack;         /* shared: bytes of stack in the copy */
  size_t saved_data;          /* bytes of Asyncify data saved */
  int save_overflow_injected; /* test hook: the next suspend reports SAVE_OVERFLOW */
} llgo_wasmcontext_storage;

/* Every backend's record lives in llgo_wasmcontext's opaque words, storage first. */
#define LLGO_WASMCONTEXT_BACKEND_LAYOUT(type)                                                   \
  _Static_assert(sizeof(type) <= sizeof(llgo_wasmcontext),                                      \
                 "LLGO_WASMCONTEXT_OPAQUE_WORDS is too small for " #type);                      \
  _Static_assert(offsetof(type, storage) == 0, #type ": storage must come first")

static inline llgo_wasmcontext_storage *llgo_wasmcontext_storage_of(llgo_wasmcontext *ctx) {
  return (llgo_wasmcontext_storage *)(void *)ctx->opaque;
}

/* The most Asyncify data a context may keep: as much as its stack. */
static inline size_t llgo_wasmcontext_storage_save_limit(const llgo_wasmcontext_storage *storage) {
  return (size_t)(storage->stack_top - storage->stack_limit);
}

/* The one check on every suspend and return: the stack pointer is above the
 * limit and the canary below the stack is intact. */
static inline llgo_wasmcontext_result llgo_wasmcontext_storage_check(
    const llgo_wasmcontext_storage *storage, const void *stack_pointer) {
  return (const unsigned char *)stack_pointer < storage->stack_limit ||
                 *storage->canary != LLGO_WASMCONTEXT_CANARY_WORD
             ? LLGO_WASMCONTEXT_STACK_OVERFLOW
             : LLGO_WASMCONTEXT_OK;
}

/* ---- implemented by the selected storage file ---- */

/* LLGO_WASMCONTEXT_SEPARATE_STACKS or LLGO_WASMCONTEXT_SHARED_STACKS. */
extern const llgo_wasmcontext_stacks llgo_wasmcontext_storage_stacks;

/* Sets up what the storage shares between contexts (shared: the shared block). */
llgo_wasmcontext_result llgo_wasmcontext_storage_init(size_t max_stack_size,
                                                      const llgo_wasmcontext_allocator *allocator);
/* The largest stack a context may get once init got max_stack_size. */
size_t llgo_wasmcontext_storage_max_stack_size(size_t max_stack_size);
/* Gives a zeroed storage its stack (stack_size already validated and rounded). */
llgo_wasmcontext_result llgo_wasmcontext_storage_create(llgo_wasmcontext_storage *storage,
                                                        size_t stack_size);
/* Frees what the storage holds. */
void llgo_wasmcontext_storage_destroy(llgo_wasmcontext_storage *storage);
/* Makes a created storage ready for a fresh start (rewrites its canary). */
void llgo_wasmcontext_storage_reset(llgo_wasmcontext_storage *storage);
/* The context stopped running: its stack pointer is `stack_pointer` and it
 * left `data_bytes` of Asyncify data at its save space's start. Checks both;
 * shared: copies the used stack and the data into the context's buffer. */
llgo_wasmcontext_result llgo_wasmcontext_storage_suspended(llgo_wasmcontext_storage *storage,
                                                           void *stack_pointer,
                                                           size_t data_bytes);
/* The context is about to resume: shared: its stack is copied back. Returns
 * the end of its saved Asyncify data (a rewind reads backwards from there). */
unsigned char *llgo_wasmcontext_storage_resuming(llgo_wasmcontext_storage *storage);
/* Bytes held for the context while suspended. */
size_t llgo_wasmcontext_storage_held_bytes(const llgo_wasmcontext_storage *storage);

/* ---- implemented by wasmcontext_storage.c, for the storage files ---- */

/* The allocator given to llgo_wasmcontext_init. */
extern llgo_wasmcontext_allocator llgo_wasmcontext_storage_allocator;
/* ---- implemented by the selected backend ---- */

/* "asyncify", "emscripten-fiber", "native", "stack-switching". */
extern const char llgo_wasmcontext_backend_name[];
/* What LLGO_WASMCONTEXT_TOO_MANY means for this backend ("" when it has no cap
 * beyond memory). */
extern const char llgo_wasmcontext_backend_limit[];
/* Frees what the backend holds for a context outside its storage (stack
 * switching: the continuation); called by destroy before the storage goes. */
void llgo_wasmcontext_backend_release(llgo_wasmcontext *ctx);

/* How much save space a stack of `stack_size` bytes comes with (Asyncify: as
 * much as the stack; native: none). */
size_t llgo_wasmcontext_backend_save_space_size(size_t stack_size);
/* Prepares a created (or re-armed) context so that the first resume calls
 * entry(arg). */
llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg);

#endif /* LLGO_WASMCONTEXT_STORAGE_H */
