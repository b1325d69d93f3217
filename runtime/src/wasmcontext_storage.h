//llgo:build !llgo.context_pthread
/*
 * wasmcontext_storage.h - backend-private: where a context's C stack and Asyncify data live, and
 * the hooks between a backend and its storage. Two storages exist (exactly one is selected, by
 * build tag):
 *   wasmcontext_storage_shared.c    one block for all contexts, which all run at the same
 *                                   addresses with the same limit:
 *                                   [scratch save space | floor | guard | C stack ..... top]
 *                                   plus a right-sized copy per suspended context (its used
 *                                   stack and its Asyncify data)
 *   wasmcontext_storage_separate.c  one block per context: [floor | guard | C stack ... top];
 *                                   Asyncify data goes to one scratch space shared by all
 *                                   contexts and is then copied to a right-sized buffer of the
 *                                   context, so a suspended context holds its stack and what it
 *                                   saved, not a save area as large as its stack
 * wasmcontext_storage.c holds what both share (create/destroy, the layout of a stack, the
 * copies, names, checks).
 *
 * The floor (wasmcontext_stack_guard.h) is memory right below the limit that belongs to the
 * stack: its top word is the canary every switch checks. The guard is inaccessible pages natively
 * (an overflow faults there) and absent on WebAssembly (the link's check stops the stack pointer
 * at the limit instead). An Asyncify unwind writes its data into a scratch space with `end` at
 * the end of memory this layer owns, so data running past the space lands in owned memory and is
 * reported after the unwind (Binaryen does not bounds-check while unwinding). Every backend's
 * private context struct starts with an llgo_wasmcontext_storage.
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
/* Below every stack's limit: the floor (LLGO_STACK_FLOOR_BYTES, the canary at its top). */
#include "wasmcontext_stack_guard.h"
#define LLGO_WASMCONTEXT_CANARY_WORD ((uint64_t)0xf00dcafe6f676c6cull)

typedef struct llgo_wasmcontext_storage {
  unsigned char *block;       /* separate: the context's stack block; shared: NULL */
  size_t block_size;          /* bytes allocated for `block` */
  unsigned char *copy;        /* what the context saved while suspended, or NULL: shared: its
                                 used stack, then its Asyncify data; separate: the data */
  size_t copy_size;           /* bytes allocated for `copy` */
  unsigned char *stack_top;   /* where the stack starts (grows down), 16-aligned */
  unsigned char *stack_limit; /* lowest address the stack may reach */
  unsigned char *guard;       /* native: its guard pages, right below stack_limit; else NULL */
  const uint64_t *canary;     /* the top word of the floor, below the limit (and the guard) */
  void *stack_pointer;        /* saved when suspended (the backends set and read it) */
  size_t saved_stack;         /* shared: bytes of stack in the copy */
  size_t saved_data;          /* bytes of Asyncify data saved */
  int save_overflow_injected; /* test hook: the next suspend reports SAVE_OVERFLOW */
} llgo_wasmcontext_storage;

/* Every backend's record lives in llgo_wasmcontext's opaque words, storage first: within its own
 * size (LLGO_WASMCONTEXT_WORDS_<NAME>, what a file compiled for that backend gives the record)
 * and within this file's. */
#define LLGO_WASMCONTEXT_BACKEND_LAYOUT(type, words)                                            \
  _Static_assert(sizeof(type) <= (words) * sizeof(void *),                                     \
                 #words " is too small for " #type);                                            \
  _Static_assert(sizeof(type) <= sizeof(llgo_wasmcontext),                                      \
                 "LLGO_WASMCONTEXT_OPAQUE_WORDS is too small for " #type);                      \
  _Static_assert(offsetof(type, storage) == 0, #type ": storage must come first")

static inline llgo_wasmcontext_storage *llgo_wasmcontext_storage_of(llgo_wasmcontext *ctx) {
  return (llgo_wasmcontext_storage *)(void *)ctx->opaque;
}

/* The most Asyncify data a context may keep: as much as its stack (the scratch space an unwind
 * writes into is larger, so data past this limit still lands in owned memory). */
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
/* Bytes held for the context while suspended (its block, less its guard pages, and its copy). */
size_t llgo_wasmcontext_storage_held_bytes(const llgo_wasmcontext_storage *storage);
/* Memory right below the stack's limit (and natively its guard) that belongs to it: the floor. */
unsigned char *llgo_wasmcontext_storage_floor(const llgo_wasmcontext_storage *storage, size_t *bytes);
/* Where an Asyncify unwind of the context writes its data, and the end of the memory this layer
 * owns past it (the unwind's `end`). Valid until the next create. */
unsigned char *llgo_wasmcontext_storage_save_start(const llgo_wasmcontext_storage *storage);
unsigned char *llgo_wasmcontext_storage_save_end(const llgo_wasmcontext_storage *storage);

/* For llgo_wasmcontext_for_each_range: the suspended storage's ranges, given the stack pointer
 * its backend saved (NULL: never resumed since it was armed; nothing on its stack). */
void llgo_wasmcontext_storage_for_each_range(const llgo_wasmcontext_storage *storage,
                                             const void *stack_pointer,
                                             llgo_wasmcontext_range_fn fn, void *arg);

/* ---- implemented by wasmcontext_storage.c, for the storage files ---- */

/* The allocator given to llgo_wasmcontext_init. */
extern llgo_wasmcontext_allocator llgo_wasmcontext_storage_allocator;

/* The size of a block that holds `save_size` bytes of save space, then a stack of `stack_size`
 * bytes with its floor (and natively its guard pages, page-aligned) below it. */
size_t llgo_wasmcontext_storage_block_size(size_t save_size, size_t stack_size);
/* Lays such a block out: sets stack_top, stack_limit, guard and canary, and natively protects the
 * guard pages (BACKEND_FAILED when that fails). The save space is the block's start. */
llgo_wasmcontext_result llgo_wasmcontext_storage_lay_out(llgo_wasmcontext_storage *storage,
                                                         unsigned char *block, size_t save_size,
                                                         size_t stack_size);
/* Makes a laid-out block's guard pages accessible again (before it is freed). */
void llgo_wasmcontext_storage_unprotect(const llgo_wasmcontext_storage *storage);
/* Rewrites the canary word (two words: the floor's top 16 bytes). */
void llgo_wasmcontext_storage_write_canary(const llgo_wasmcontext_storage *storage);
/* Makes the copy buffer hold at least `needed` bytes; a buffer more than four times too large is
 * replaced, so a context that once suspended deep does not keep that memory while suspended
 * shallow. 0 when the allocation failed. */
int llgo_wasmcontext_storage_fit_copy(llgo_wasmcontext_storage *storage, size_t needed);
/* Frees the copy buffer. */
void llgo_wasmcontext_storage_release_copy(llgo_wasmcontext_storage *storage);

static inline size_t llgo_wasmcontext_round_up_16(size_t size) { return (size + 15u) & ~(size_t)15u; }

/* Copies a stack or Asyncify data, rounded up to 16 bytes (both ends are 16-byte aligned and the
 * buffers are sized for it). An inline loop of 8-byte moves beats a call of libc's memcpy for
 * these few hundred bytes on wasm; clang's no_builtin keeps it from being turned back into a
 * memcpy call. The same loop runs natively, so the sanitizer build checks it. */
#if defined(__clang__)
__attribute__((no_builtin("memcpy")))
#endif
static inline __attribute__((always_inline)) void llgo_wasmcontext_copy_words(unsigned char *to,
                                                                             const unsigned char *from,
                                                                             size_t size) {
  uint64_t *words_to = (uint64_t *)(void *)to;
  const uint64_t *words_from = (const uint64_t *)(const void *)from;
  size_t words = (size + 15) / 16 * 2;
  for (size_t i = 0; i < words; i += 2) {
    words_to[i] = words_from[i];
    words_to[i + 1] = words_from[i + 1];
  }
}

/* From this size on, a target with bulk memory (its descriptor's cflags: -mbulk-memory) copies
 * with one memory.copy: a goroutine parked deep on shared stacks saves and restores tens of KiB,
 * which the loop above makes thousands of instructions, and an interpreter runs each of them (the
 * stacks case that parks 10,000 goroutines 80 KiB deep: 14.2 s under WasmEdge 0.14 with the
 * loop, 1.65 s with memory.copy). */
#define LLGO_WASMCONTEXT_BULK_COPY_BYTES 1024u

static inline __attribute__((always_inline)) void llgo_wasmcontext_copy_chunks(unsigned char *to,
                                                                              const unsigned char *from,
                                                                              size_t size) {
#if defined(__wasm_bulk_memory__)
  if (size >= LLGO_WASMCONTEXT_BULK_COPY_BYTES) {
    __builtin_memcpy(to, from, llgo_wasmcontext_round_up_16(size));
    return;
  }
#endif
  llgo_wasmcontext_copy_words(to, from, size);
}

/* ---- implemented by the selected backend ---- */

/* "asyncify", "emscripten-fiber", "native", "stack-switching", "jspi". */
extern const char llgo_wasmcontext_backend_name[];
/* What LLGO_WASMCONTEXT_TOO_MANY means for this backend ("" when it has no cap
 * beyond memory). */
const char *llgo_wasmcontext_backend_limit(void);
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
