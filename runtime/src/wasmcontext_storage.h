//llgo:build !llgo.context_pthread
/*
 * wasmcontext_storage.h - backend-private: the storage every context backend
 * shares (C stack + Asyncify save area with canaries) and the hooks each
 * backend implements. Included only by wasmcontext_*.c.
 *
 * Every backend's private context struct starts with an
 * llgo_wasmcontext_storage, so the storage code can find it from the opaque
 * llgo_wasmcontext.
 */
#ifndef LLGO_WASMCONTEXT_STORAGE_H
#define LLGO_WASMCONTEXT_STORAGE_H

#include "wasmcontext.h"

/* Binaryen's Asyncify data layout: where the next save goes, and the end of
 * the area. Emscripten's asyncify_data_t starts with the same two pointers. */
typedef struct llgo_asyncify_bounds {
  void *current;
  void *end;
} llgo_asyncify_bounds;

#define LLGO_WASMCONTEXT_CANARY_BYTES 16
/* Room reserved at the start of the Asyncify area for the raw backend's bounds. */
#define LLGO_WASMCONTEXT_BOUNDS_BYTES 16

typedef struct llgo_wasmcontext_storage {
  unsigned char *stack;      /* allocation; its lowest bytes hold the canary */
  size_t stack_size;         /* allocation size */
  unsigned char *asyncify;   /* allocation: [bounds][save space][canary] */
  size_t asyncify_size;      /* allocation size */
  llgo_asyncify_bounds *bounds; /* where the backend keeps {current, end} */
} llgo_wasmcontext_storage;

/* The storage at the start of a backend context. */
static inline llgo_wasmcontext_storage *llgo_wasmcontext_storage_of(llgo_wasmcontext *ctx) {
  return (llgo_wasmcontext_storage *)(void *)ctx->opaque;
}

/* Highest usable address of the C stack (stacks grow down), 16-byte aligned. */
static inline void *llgo_wasmcontext_stack_top(const llgo_wasmcontext_storage *storage) {
  return storage->stack + storage->stack_size;
}
/* Lowest usable address of the C stack: just above the canary. */
static inline void *llgo_wasmcontext_stack_limit(const llgo_wasmcontext_storage *storage) {
  return storage->stack + LLGO_WASMCONTEXT_CANARY_BYTES;
}
/* The save space the Asyncify bounds point into (after the bounds struct). */
static inline void *llgo_wasmcontext_asyncify_space(const llgo_wasmcontext_storage *storage) {
  return storage->asyncify + LLGO_WASMCONTEXT_BOUNDS_BYTES;
}
/* End of the save space: the canary starts here. */
static inline void *llgo_wasmcontext_asyncify_space_end(const llgo_wasmcontext_storage *storage) {
  return storage->asyncify + storage->asyncify_size - LLGO_WASMCONTEXT_CANARY_BYTES;
}

/* Backend hooks, implemented by exactly one selected wasmcontext_<backend>.c. */

/* Prepares a freshly allocated or reused context so that the first switch to it
 * calls entry(arg). Must set storage->bounds (to the area's start or to its own
 * {current,end} pair) and point them at the save space. */
llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg);

#endif /* LLGO_WASMCONTEXT_STORAGE_H */
