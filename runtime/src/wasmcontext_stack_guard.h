//llgo:build llgo
/*
 * wasmcontext_stack_guard.h - a C stack overflow is caught when it happens, before anything is
 * written past the stack's limit, and reported as Go reports it:
 *     runtime: goroutine stack exceeds <N>-byte limit
 *     fatal error: stack overflow
 * with exit status 2 (N: the usable size of the stack that overflowed).
 *
 * WebAssembly (wasmcontext_stack_guard_wasm.c + wasmcontext_stack_wasm.S): the module has no
 * guard pages, so the link adds a check to every write of __stack_pointer that can lower it
 * (`llgo-wasm link`'s stack-check step, docs/link-pipeline.md): a value below the global
 * __llgo_stack_guard calls llgo_stack_overflow_trap before the stack pointer moves, and so
 * before the frame is written. The guard is the running stack's limit plus the red zone LLVM
 * lets a leaf function use below the stack pointer without moving it (128 bytes). Whoever moves
 * the stack pointer to another stack moves the guard with it (llgo_wasmcontext_enter_stack), and
 * the guard of the system stack is set before main. 0 turns the check off (while Emscripten's
 * Fiber code switches stacks).
 *
 * Native (wasmcontext_stack_guard_native.c): a stack this runtime sets up has inaccessible guard
 * pages below its limit; a write there raises SIGSEGV, which a handler on an alternate signal
 * stack reports as above when the fault is in the guard of the running stack (anything else dies
 * of the signal as before). Frames larger than the guard are probed page by page
 * (-fstack-clash-protection in the native descriptors' cflags).
 *
 * Below the limit (and below the guard pages natively) every stack has a floor, memory this layer
 * owns and nothing writes while the stack runs: the canary word checked at every switch sits at
 * its top, and tests put a canary of their own there (llgo_test_stack_floor).
 * This header is shared by the context layer and the pthread backend; it includes nothing of
 * either.
 */
#ifndef LLGO_WASMCONTEXT_STACK_GUARD_H
#define LLGO_WASMCONTEXT_STACK_GUARD_H

#include <stddef.h>
#include <stdint.h>

/* Bytes below a stack's limit that belong to it (the canary word included). */
#define LLGO_STACK_FLOOR_BYTES 256
/* Bytes LLVM's WebAssembly leaf functions use below the stack pointer without moving it. */
#define LLGO_STACK_RED_ZONE 128

/* Prints Go's report for a stack of `limit_bytes` and exits with status 2. */
_Noreturn void llgo_stack_overflow_exit(size_t limit_bytes);

#if defined(__wasm__)
/* The running stack's usable size, for the report (per thread under wasi-threads). */
extern _Thread_local size_t llgo_wasmcontext_running_stack_size;

/* wasmcontext_stack_wasm.S. */
void *llgo_wasmcontext_get_stack_pointer(void);
void llgo_wasmcontext_set_stack_pointer(void *stack_pointer);
void *llgo_wasmcontext_get_stack_guard(void);
void llgo_wasmcontext_set_stack_guard(void *guard);
/* Sets the guard, then the stack pointer: no write of the stack pointer in between. */
void llgo_wasmcontext_switch_stack(void *stack_pointer, void *guard);

/* The guard of a stack whose lowest usable byte is `limit`. */
static inline void *llgo_wasmcontext_guard_for(const unsigned char *limit) {
  return (void *)(limit + LLGO_STACK_RED_ZONE);
}

/* Moves execution's stack pointer to `stack_pointer`, on the stack whose limit is `limit` and
 * usable size `size`. Inline: a helper with a frame of its own would put back the stack pointer
 * it found when it returned. */
static inline __attribute__((always_inline)) void llgo_wasmcontext_enter_stack(void *stack_pointer,
                                                                              const unsigned char *limit,
                                                                              size_t size) {
  llgo_wasmcontext_running_stack_size = size;
  llgo_wasmcontext_switch_stack(stack_pointer, llgo_wasmcontext_guard_for(limit));
}

/* The system stack (where the C main and the host loop run): its limit and size, from the
 * linker's __stack_low/__stack_high or Emscripten's stack bounds. */
const unsigned char *llgo_wasmcontext_system_stack_limit(void);
size_t llgo_wasmcontext_system_stack_size(void);

/* Guards the calling thread's own stack, [low + LLGO_STACK_FLOOR_BYTES, high): the pthread
 * backend's goroutine threads under wasi-threads. */
void llgo_stack_guard_thread_stack(unsigned char *low, size_t size);
#else
/* The page size, and how many bytes of guard pages a stack gets (16 KiB rounded up to pages). */
size_t llgo_stack_guard_page_size(void);
size_t llgo_stack_guard_bytes(void);
/* Makes [guard, guard + llgo_stack_guard_bytes()) inaccessible, or accessible again; the address
 * is page-aligned. 0 on success. */
int llgo_stack_guard_protect(unsigned char *guard);
void llgo_stack_guard_unprotect(unsigned char *guard);
/* Installs the process's overflow handler (once) and gives the calling thread an alternate
 * signal stack to run it on. 0 on success. */
int llgo_stack_guard_thread_start(void);
/* Takes the calling thread's alternate signal stack back (before the thread ends). */
void llgo_stack_guard_thread_end(void);
/* The running stack of the calling thread: its guard pages start at `guard` and the usable stack,
 * `size` bytes, above them. NULL: none (the thread's own stack, guarded by the system). */
void llgo_stack_guard_enter(const unsigned char *guard, size_t size);
#endif

#endif /* LLGO_WASMCONTEXT_STACK_GUARD_H */
