//llgo:build llgo.context_stack_switching
/*
 * wasmcontext_stack_switching.c - the context backend on WebAssembly stack
 * switching (typed continuations: cont.new, resume, suspend). No Asyncify:
 * the program is not instrumented, so its size and speed are a plain build's
 * and a switch costs the same at any call depth.
 *
 * Each context is one continuation of the glue module
 * (wasmcontext_stack_switching.wat, merged by the link step), held in the
 * glue's table at the context's slot from its first arm until it is destroyed.
 * resume is the glue's `resume`; suspend is `suspend` on a tag the resume
 * handles; when the entry returns, or exit throws a tag the continuation's first
 * frame catches, the continuation suspends on another tag and waits, with its
 * engine stack, for the next entry: re-arming (the scheduler does so for every
 * pooled goroutine record) allocates nothing, in the engine or here.
 * The engine keeps each continuation's wasm stack; the C shadow stack
 * (__stack_pointer) and its storage (separate or shared) are this layer's, as
 * in the native backend: resume sets the context's stack pointer (and its stack
 * guard, wasmcontext_stack_guard.h) and takes the host's back whatever
 * happened - a suspend, a return, an exit, or an exception that left the
 * context: a longjmp to a jmp_buf none of its frames set is
 * reported as LLGO_WASMCONTEXT_ESCAPED with the host's state intact; any other
 * exception (a host's, such as Node's WASI proc_exit) is thrown on after that.
 *
 * Limits: one thread; wasm32 (the glue passes pointers as i32). The engine maps
 * a stack per continuation (V8: ~4.4 KB resident each, never given back, and the
 * process aborts at about 32,700 on Linux's default vm.max_map_count of 65530),
 * so creating more than LLGO_MAX_GOROUTINES contexts at once
 * fails with LLGO_WASMCONTEXT_TOO_MANY. Engines: Node 26 with
 * --experimental-wasm-wasmfx.
 */
#include "wasmcontext_storage.h"

#include <stddef.h>
#include <stdint.h>

#ifndef LLGO_MAX_GOROUTINES
#error "compile with -DLLGO_MAX_GOROUTINES=<max-goroutines of the target> (llgo-wasm resolve's effective cflags)"
#endif
#define LLGO_STRINGIFY_(x) #x
#define LLGO_STRINGIFY(x) LLGO_STRINGIFY_(x)

#define LLGO_GLUE(name)                                                                          \
  __attribute__((import_module("llgo_stack_switching"), import_name("llgo_stack_switching_" name)))
LLGO_GLUE("arm") int llgo_glue_arm(uint32_t slot);
LLGO_GLUE("drop") void llgo_glue_drop(uint32_t slot);
LLGO_GLUE("resume") int llgo_glue_resume(uint32_t slot, void *self);
LLGO_GLUE("suspend") void llgo_glue_suspend(void);
LLGO_GLUE("exit") void llgo_glue_exit(void);
LLGO_GLUE("rethrow") _Noreturn void llgo_glue_rethrow(void);

enum { GLUE_SUSPENDED = 0, GLUE_RETURNED = 1, GLUE_LONGJMP_LEFT = 2, GLUE_EXCEPTION_LEFT = 3 };

const char llgo_wasmcontext_backend_name[] = "stack-switching";
const char *llgo_wasmcontext_backend_limit(void) {
  return "more than " LLGO_STRINGIFY(LLGO_MAX_GOROUTINES)
         " goroutines alive at once (the stack-switching backend's cap: the engine maps a stack for each)";
}

typedef struct stack_switching_backend {
  llgo_wasmcontext_storage storage; /* must be first (see wasmcontext_storage.h) */
  llgo_wasmcontext_entry_fn entry;
  void *arg;
  uint32_t slot_plus_one; /* its continuation's slot in the glue's table (0: none yet) */
  int armed;              /* has an entry to run or running (not returned, exited, escaped) */
  int started;            /* its entry has been resumed since it was armed */
  int mid_entry;          /* its continuation is suspended inside an entry */
} stack_switching_backend;

LLGO_WASMCONTEXT_BACKEND_LAYOUT(stack_switching_backend, LLGO_WASMCONTEXT_WORDS_STACK_SWITCHING);

static size_t slots_held;
static uint32_t slots_handed_out;
/* Slots of destroyed contexts, for reuse. The scheduler pools contexts and
 * destroys one only when a goroutine asks for another stack size, so a few are
 * enough; past that a slot stays unused (one null table entry). */
#define FREE_SLOTS_KEPT 256
static uint32_t free_slots[FREE_SLOTS_KEPT];
static size_t free_slot_count;

static stack_switching_backend *backend_of(llgo_wasmcontext *ctx) {
  return (stack_switching_backend *)(void *)ctx->opaque;
}

size_t llgo_wasmcontext_backend_save_space_size(size_t stack_size) {
  (void)stack_size;
  return 0; /* the engine keeps the wasm stack */
}

/* The first C frame of every entry, called by the glue's first frame. */
__attribute__((export_name("llgo_stack_switching_start"))) void llgo_wasmcontext_stack_switching_start(
    void *self_pointer) {
  stack_switching_backend *self = self_pointer;
  self->entry(self->arg);
}

void llgo_wasmcontext_backend_release(llgo_wasmcontext *ctx) {
  stack_switching_backend *self = backend_of(ctx);
  if (self->slot_plus_one != 0) {
    llgo_glue_drop(self->slot_plus_one - 1);
    if (free_slot_count < FREE_SLOTS_KEPT) {
      free_slots[free_slot_count++] = self->slot_plus_one - 1;
    }
    self->slot_plus_one = 0;
    slots_held--;
  }
}

llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg) {
  stack_switching_backend *self = backend_of(ctx);
  if (self->slot_plus_one == 0) {
    if (slots_held >= LLGO_MAX_GOROUTINES) {
      return LLGO_WASMCONTEXT_TOO_MANY;
    }
    uint32_t slot = free_slot_count > 0 ? free_slots[--free_slot_count] : slots_handed_out++;
    self->slot_plus_one = slot + 1;
    slots_held++;
  } else if (self->mid_entry) {
    llgo_glue_drop(self->slot_plus_one - 1); /* a failed context: its old entry never goes on */
  }
  self->armed = self->started = self->mid_entry = 0;
  if (llgo_glue_arm(self->slot_plus_one - 1) != 0) {
    llgo_wasmcontext_backend_release(ctx); /* the table cannot grow: nothing is kept */
    return LLGO_WASMCONTEXT_OUT_OF_MEMORY;
  }
  self->entry = entry;
  self->arg = arg;
  self->armed = 1;
  return LLGO_WASMCONTEXT_OK;
}

llgo_wasmcontext_result llgo_wasmcontext_resume(llgo_wasmcontext *ctx) {
  stack_switching_backend *self = backend_of(ctx);
  if (!self->armed) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  void *host_stack_pointer = llgo_wasmcontext_get_stack_pointer();
  void *host_guard = llgo_wasmcontext_get_stack_guard();
  size_t host_stack_size = llgo_wasmcontext_running_stack_size;
  size_t stack_size = (size_t)(self->storage.stack_top - self->storage.stack_limit);
  if (self->started) {
    llgo_wasmcontext_storage_resuming(&self->storage);
    llgo_wasmcontext_enter_stack(self->storage.stack_pointer, self->storage.stack_limit, stack_size);
  } else {
    self->started = 1;
    llgo_wasmcontext_enter_stack(self->storage.stack_top, self->storage.stack_limit, stack_size);
  }
  int outcome = llgo_glue_resume(self->slot_plus_one - 1, self);
  void *stack_pointer = llgo_wasmcontext_get_stack_pointer();
  llgo_wasmcontext_running_stack_size = host_stack_size;
  llgo_wasmcontext_switch_stack(host_stack_pointer, host_guard);
  self->mid_entry = outcome == GLUE_SUSPENDED;
  if (outcome == GLUE_SUSPENDED) {
    self->storage.stack_pointer = stack_pointer;
    return llgo_wasmcontext_storage_suspended(&self->storage, stack_pointer, 0);
  }
  self->armed = 0;
  if (outcome == GLUE_LONGJMP_LEFT) {
    return LLGO_WASMCONTEXT_ESCAPED;
  }
  if (outcome == GLUE_EXCEPTION_LEFT) {
    llgo_glue_rethrow(); /* not ours (a host's exception, e.g. WASI proc_exit): it goes on */
  }
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_check(&self->storage, stack_pointer);
  return result == LLGO_WASMCONTEXT_OK ? LLGO_WASMCONTEXT_RETURNED : result;
}

llgo_wasmcontext_result llgo_wasmcontext_suspend(llgo_wasmcontext *ctx) {
  stack_switching_backend *self = backend_of(ctx);
  llgo_wasmcontext_result result =
      llgo_wasmcontext_storage_check(&self->storage, llgo_wasmcontext_get_stack_pointer());
  if (result != LLGO_WASMCONTEXT_OK) {
    return result;
  }
  llgo_glue_suspend();
  return LLGO_WASMCONTEXT_OK;
}

void llgo_wasmcontext_exit(llgo_wasmcontext *ctx) {
  (void)ctx;
  llgo_glue_exit();
}

/* The C shadow stack only: the engine keeps the continuation's wasm locals (docs/gc.md: the
 * target has no gc-roots capability, so no collector is linked here). */
void llgo_wasmcontext_for_each_range(const llgo_wasmcontext *ctx, llgo_wasmcontext_range_fn fn,
                                     void *arg) {
  const stack_switching_backend *self = (const stack_switching_backend *)(const void *)ctx->opaque;
  llgo_wasmcontext_storage_for_each_range(&self->storage, self->started ? self->storage.stack_pointer : NULL,
                                          fn, arg);
}
