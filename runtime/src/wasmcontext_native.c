//llgo:build llgo.context_ucontext && !wasm
/*
 * wasmcontext_native.c - the native context backend (context name "ucontext":
 * native user-mode contexts): a few-instruction stack switch in assembly
 * (wasmcontext_native_<arch>.S, after minicoro and Boost.Context) instead of
 * swapcontext, which makes a system call per switch to save the signal mask.
 * It exists so the single-worker scheduler runs natively, with coverage and
 * sanitizers, on both storages (separate and shared stacks).
 *
 * llgo_wasmcontext_native_switch(&save, load) pushes the callee-saved
 * registers, stores the stack pointer in *save, loads `load` and pops the
 * other side's registers. A fresh context gets a hand-made first frame whose
 * return address is llgo_wasmcontext_native_start, which calls
 * context_main(self) with the registers that frame provided.
 * A fault in the guard pages below the running context's stack is reported as
 * Go's stack overflow (wasmcontext_stack_guard_native.c; resume names the
 * running stack's guard). Under AddressSanitizer every switch is announced
 * (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber) and a
 * stack about to be reused is unpoisoned.
 * Limits: x86-64 and aarch64 (System V / AAPCS64, ELF); one thread.
 */
#include "wasmcontext_storage.h"

#include <stddef.h>
#include <string.h>

#ifdef LLGO_WASMCONTEXT_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

void llgo_wasmcontext_native_switch(void **save_stack_pointer, void *load_stack_pointer);
void llgo_wasmcontext_native_start(void);

const char llgo_wasmcontext_backend_name[] = "native";
const char *llgo_wasmcontext_backend_limit(void) { return ""; } /* no cap beyond memory */

void llgo_wasmcontext_backend_release(llgo_wasmcontext *ctx) {
  (void)ctx; /* everything it holds is in its storage */
}

typedef struct native_backend {
  llgo_wasmcontext_storage storage; /* must be first (see wasmcontext_storage.h) */
  llgo_wasmcontext_entry_fn entry;
  void *arg;
  int started;
} native_backend;

LLGO_WASMCONTEXT_BACKEND_LAYOUT(native_backend, LLGO_WASMCONTEXT_WORDS_UCONTEXT);

enum { STILL_RUNNING, ENDED };

static void *host_stack_pointer; /* saved while a context runs */
static int outcome;              /* set by a context before it switches back for good */
#ifdef LLGO_WASMCONTEXT_ASAN
static const void *host_stack_bottom; /* learned on the first switch into a context */
static size_t host_stack_size;
#endif

static native_backend *backend_of(llgo_wasmcontext *ctx) {
  return (native_backend *)(void *)ctx->opaque;
}

size_t llgo_wasmcontext_backend_save_space_size(size_t stack_size) {
  (void)stack_size;
  return 0; /* no Asyncify data natively */
}

#ifdef LLGO_WASMCONTEXT_ASAN
/* Where the stack of `self` begins, for AddressSanitizer. */
static const void *stack_bottom(const native_backend *self) { return self->storage.stack_limit; }
#endif

static void announce_switch_to_context(void **fake_stack, const native_backend *self) {
#ifdef LLGO_WASMCONTEXT_ASAN
  const void *bottom = stack_bottom(self);
  __sanitizer_start_switch_fiber(fake_stack, bottom,
                                 (size_t)(self->storage.stack_top - (const unsigned char *)bottom));
#else
  (void)fake_stack;
  (void)self;
#endif
}

static void announce_switch_to_host(void **fake_stack) {
#ifdef LLGO_WASMCONTEXT_ASAN
  __sanitizer_start_switch_fiber(fake_stack, host_stack_bottom, host_stack_size);
#else
  (void)fake_stack;
#endif
}

static void finish_switch(void *fake_stack, int learn_host_stack) {
#ifdef LLGO_WASMCONTEXT_ASAN
  const void *old_bottom = NULL;
  size_t old_size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &old_bottom, &old_size);
  if (learn_host_stack) {
    host_stack_bottom = old_bottom;
    host_stack_size = old_size;
  }
#else
  (void)fake_stack;
  (void)learn_host_stack;
#endif
}

/* First function on a fresh context's stack (called by llgo_wasmcontext_native_start). */
static void context_main(native_backend *self) {
  finish_switch(NULL, 1);
  self->entry(self->arg);
  outcome = ENDED;
  void *ignored;
  announce_switch_to_host(NULL);
  llgo_wasmcontext_native_switch(&ignored, host_stack_pointer);
  __builtin_unreachable(); /* nothing resumes an ended context */ /* LCOV_EXCL_LINE */
}

llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg) {
  native_backend *self = backend_of(ctx);
  self->entry = entry;
  self->arg = arg;
  self->started = 0;
  return LLGO_WASMCONTEXT_OK;
}

/* The first frame of a fresh context, as llgo_wasmcontext_native_switch pops it. */
static void *first_frame(native_backend *self) {
  void **top = (void **)(void *)self->storage.stack_top;
#if defined(__x86_64__)
  /* [mxcsr | x87 cw] r15 r14 r13 r12 rbx rbp, return address */
  void **frame = top - 8;
  uint32_t *control = (uint32_t *)(void *)frame;
  control[0] = 0x1f80; /* MXCSR default */
  control[1] = 0x037f; /* x87 control word default */
  frame[1] = frame[2] = NULL;                  /* r15 r14 */
  frame[3] = self;                             /* r13: the argument */
  frame[4] = (void *)context_main; /* r12: the function */
  frame[5] = frame[6] = NULL;                  /* rbx rbp */
  frame[7] = (void *)llgo_wasmcontext_native_start;
#elif defined(__aarch64__)
  /* x19..x28, x29, x30, d8..d15, fpcr, padding (16-byte aligned) */
  void **frame = top - 22;
  memset(frame, 0, 22 * sizeof *frame); /* x29 0 ends the frame chain; FPCR 0 is the default */
  frame[0] = (void *)context_main;                   /* x19: the function */
  frame[1] = self;                                   /* x20: the argument */
  frame[11] = (void *)llgo_wasmcontext_native_start; /* x30 */
#else
#error "the native context backend supports x86-64 and aarch64"
#endif
  return frame;
}

llgo_wasmcontext_result llgo_wasmcontext_resume(llgo_wasmcontext *ctx) {
  native_backend *self = backend_of(ctx);
  void *stack_pointer;
  if (self->started) {
    llgo_wasmcontext_storage_resuming(&self->storage);
    stack_pointer = self->storage.stack_pointer;
  } else {
#ifdef LLGO_WASMCONTEXT_ASAN
    /* A reused stack still carries the redzones of frames that never returned. */
    ASAN_UNPOISON_MEMORY_REGION(stack_bottom(self),
                                (size_t)(self->storage.stack_top -
                                         (const unsigned char *)stack_bottom(self)));
#endif
    self->started = 1;
    stack_pointer = first_frame(self);
  }
  outcome = STILL_RUNNING;
  void *fake_stack = NULL;
  llgo_stack_guard_enter(self->storage.guard, (size_t)(self->storage.stack_top - self->storage.stack_limit));
  announce_switch_to_context(&fake_stack, self);
  llgo_wasmcontext_native_switch(&host_stack_pointer, stack_pointer);
  finish_switch(fake_stack, 0);
  llgo_stack_guard_enter(NULL, 0);
  if (outcome == ENDED) {
    llgo_wasmcontext_result result =
        llgo_wasmcontext_storage_check(&self->storage, self->storage.stack_top);
    return result == LLGO_WASMCONTEXT_OK ? LLGO_WASMCONTEXT_RETURNED : result;
  }
  return llgo_wasmcontext_storage_suspended(&self->storage, self->storage.stack_pointer, 0);
}

llgo_wasmcontext_result llgo_wasmcontext_suspend(llgo_wasmcontext *ctx) {
  native_backend *self = backend_of(ctx);
  llgo_wasmcontext_result result =
      llgo_wasmcontext_storage_check(&self->storage, __builtin_frame_address(0));
  if (result != LLGO_WASMCONTEXT_OK) {
    return result;
  }
  void *fake_stack = NULL;
  announce_switch_to_host(&fake_stack);
  llgo_wasmcontext_native_switch(&self->storage.stack_pointer, host_stack_pointer);
  finish_switch(fake_stack, 0);
  return LLGO_WASMCONTEXT_OK;
}

void llgo_wasmcontext_exit(llgo_wasmcontext *ctx) {
  (void)ctx;
  outcome = ENDED;
  void *ignored;
  announce_switch_to_host(NULL);
  llgo_wasmcontext_native_switch(&ignored, host_stack_pointer);
  __builtin_unreachable(); /* LCOV_EXCL_LINE: never returns */
}

/* The switch pushed the callee-saved registers onto the context's stack before it saved the
 * stack pointer, and the compiler keeps no live value in a caller-saved one across the call: so
 * [stack pointer, top) holds every register value of a suspended context. */
void llgo_wasmcontext_for_each_range(const llgo_wasmcontext *ctx, llgo_wasmcontext_range_fn fn,
                                     void *arg) {
  const native_backend *self = (const native_backend *)(const void *)ctx->opaque;
  llgo_wasmcontext_storage_for_each_range(&self->storage, self->started ? self->storage.stack_pointer : NULL,
                                          fn, arg);
}
