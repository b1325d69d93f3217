//llgo:build !llgo.context_pthread
/*
 * wasmcontext.h - execution contexts: suspend and resume a whole call stack.
 *
 * One interface, several backends chosen at build time by source selection:
 *   wasmcontext_asyncify.c          raw in-module Asyncify (P1; also J32/J64)
 *   wasmcontext_emscripten_fiber.c  emscripten_fiber_t (J32/J64)
 *   wasmcontext_ucontext.c          getcontext/makecontext/swapcontext (native)
 * This layer knows nothing about goroutines, G/M/P or run queues; it is its own
 * library (llgo_wasmcontext) and includes only its own headers.
 *
 * Storage per context: a C stack and an Asyncify save area, obtained through the
 * caller's allocate/free callbacks only in create and destroy (the callbacks are
 * not retained; switch is a direct call). Both carry canary words at their
 * limits; llgo_wasmcontext_check reports an overflow so the caller can die with
 * a message naming the owner. A context may be re-armed with a new entry and
 * reused without reallocating (pooling).
 *
 * Limits: one thread; a context's entry must never return (switch away instead);
 * the context running llgo_wasmcontext_init_main (the host, on the system stack)
 * is the one every backend returns to last.
 */
#ifndef LLGO_WASMCONTEXT_H
#define LLGO_WASMCONTEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for the largest backend state (ucontext_t is ~1 KiB on glibc). */
#if defined(__wasm__)
#define LLGO_WASMCONTEXT_OPAQUE_SIZE 256
#else
#define LLGO_WASMCONTEXT_OPAQUE_SIZE 2048
#endif

/* A context. Embed it anywhere; its contents are backend-private. */
typedef struct llgo_wasmcontext {
  _Alignas(16) unsigned char opaque[LLGO_WASMCONTEXT_OPAQUE_SIZE];
} llgo_wasmcontext;

typedef enum llgo_wasmcontext_result {
  LLGO_WASMCONTEXT_OK = 0,
  LLGO_WASMCONTEXT_INVALID_ARGUMENT,   /* NULL context/entry/callback, too small a size */
  LLGO_WASMCONTEXT_STACK_ALLOC_FAILED, /* the C stack allocation returned NULL */
  LLGO_WASMCONTEXT_ASYNCIFY_ALLOC_FAILED, /* the save-area allocation returned NULL
                                             (the stack was freed again) */
  LLGO_WASMCONTEXT_STACK_OVERFLOW,     /* the C stack's limit canary was overwritten */
  LLGO_WASMCONTEXT_ASYNCIFY_OVERFLOW,  /* the save area ran past its end */
  LLGO_WASMCONTEXT_BACKEND_FAILED      /* the backend's own primitive failed */
} llgo_wasmcontext_result;

/* Allocation callbacks: `user` is passed through unchanged. Allocations must be
 * 16-byte aligned. */
typedef void *(*llgo_wasmcontext_alloc_fn)(size_t size, void *user);
typedef void (*llgo_wasmcontext_free_fn)(void *memory, size_t size, void *user);
typedef void (*llgo_wasmcontext_entry_fn)(void *arg);

/* Smallest accepted sizes (bytes) for the C stack and the Asyncify area. */
#define LLGO_WASMCONTEXT_MIN_STACK_SIZE ((size_t)4096)
#define LLGO_WASMCONTEXT_MIN_ASYNCIFY_SIZE ((size_t)1024)

/* Makes `ctx` represent the calling, already running stack (the host's). */
llgo_wasmcontext_result llgo_wasmcontext_init_main(llgo_wasmcontext *ctx);

/* Allocates storage (stack first, then the Asyncify area; if the second fails
 * the first is freed) and arms `ctx` so the first switch to it calls entry(arg).
 * Sizes are rounded up to 16 bytes. */
llgo_wasmcontext_result llgo_wasmcontext_create(llgo_wasmcontext *ctx,
                                                llgo_wasmcontext_entry_fn entry, void *arg,
                                                size_t stack_size, size_t asyncify_size,
                                                llgo_wasmcontext_alloc_fn alloc_fn,
                                                llgo_wasmcontext_free_fn free_fn,
                                                void *user);

/* Re-arms a created context that is not running (e.g. whose owner exited)
 * with a new entry, reusing its storage: canaries are rewritten. */
llgo_wasmcontext_result llgo_wasmcontext_rearm(llgo_wasmcontext *ctx,
                                               llgo_wasmcontext_entry_fn entry, void *arg);

/* Frees a created context's storage through `free_fn`. The context must not be
 * running and execution must have left its stack. */
void llgo_wasmcontext_destroy(llgo_wasmcontext *ctx, llgo_wasmcontext_free_fn free_fn,
                              void *user);

/* Suspends `from` (the running context) and resumes or starts `to`. Returns
 * when something switches back to `from`. */
llgo_wasmcontext_result llgo_wasmcontext_switch(llgo_wasmcontext *from, llgo_wasmcontext *to);

/* Checks both canaries and the Asyncify bounds of a created context (OK for a
 * main context). Call it after a context was suspended. */
llgo_wasmcontext_result llgo_wasmcontext_check(const llgo_wasmcontext *ctx);

/* The usable C stack size of a created context (0 for a main context). */
size_t llgo_wasmcontext_stack_size(const llgo_wasmcontext *ctx);

/* A short description of a result, for error messages. */
const char *llgo_wasmcontext_result_name(llgo_wasmcontext_result result);

/* Test hooks: simulate an overflow so llgo_wasmcontext_check must report it. */
void llgo_wasmcontext_smash_stack_canary(llgo_wasmcontext *ctx);
void llgo_wasmcontext_overflow_asyncify_area(llgo_wasmcontext *ctx);

#ifdef __cplusplus
}
#endif

#endif /* LLGO_WASMCONTEXT_H */
