//llgo:build llgo.context_jspi
/*
 * wasmcontext_jspi.c - the context backend on JavaScript Promise Integration
 * (WebAssembly.Suspending / WebAssembly.promising; J32, J64 under Emscripten's
 * -sJSPI; P1 on a JavaScript host: Node's WASI through tests/runners/run-wasi.mjs). No Asyncify: nothing is instrumented, so the module and CPU-bound
 * code cost what a plain build does, and a switch costs the same at any depth.
 *
 * The engine keeps each context's wasm stack: a context is one call of the
 * export llgo_jspi_run, wrapped in WebAssembly.promising, so it runs on a stack
 * of its own. The host loop itself runs inside a promising export (main, or the
 * scheduler's re-entry llgo_host_resume), so it can suspend too: resume calls
 * the Suspending import llgo_jspi_switch, which starts the context (from a
 * microtask, once the host has suspended) or resolves the promise it suspended
 * on, and suspends the host until the context gives control back. suspend is
 * the Suspending import llgo_jspi_suspend (the context's promise, kept by the
 * glue under its id; the host is woken); exit throws a sentinel that unwinds the
 * context to its promising boundary. The hand-off (llgo_wasmcontext_handoff) is the
 * Suspending import llgo_jspi_handoff: the context keeps its own promise and
 * resolves (or starts) the next one's, so a yield costs one engine switch and one
 * microtask job instead of two switches and two jobs through the host. Both
 * suspending imports are called through wasmcontext_jspi_guard.S, whose catch_all
 * stops every stack synchronously when the engine refuses the suspension
 * (SuspendError), before the context that was handed control can run. The glue is runtime/emscripten/jspi_glue.js (an Emscripten
 * library), on P1 runtime/wasi/jspi_glue.mjs (an ES module; the host loop's entry is _start).
 *
 * The C shadow stack (__stack_pointer) and its storage are this layer's, as in
 * the stack-switching backend: resume sets the context's stack pointer and
 * guard before switching - so the context's first frame already runs on its own
 * stack - and takes the host's back afterwards; a suspending context leaves
 * __stack_pointer at its own, which the host saves. Only separate stacks.
 * What a garbage collector scanning linear memory sees of a suspended context:
 * its C stack [stack pointer, top); the locals of its wasm frames live in the
 * engine's stack, outside linear memory, invisible to a memory scan.
 *
 * A longjmp to a jmp_buf none of the context's frames set leaves its stack as a
 * wasm exception: the glue reports it and resume returns LLGO_WASMCONTEXT_ESCAPED.
 *
 * Limits: one thread; a context cannot suspend below a JavaScript frame (JS that
 * called an export, which then blocks): the engine throws SuspendError and the
 * glue ends the program with a fatal error saying how to restructure.
 * Engines: Node >= 24 and Chromium, without flags. V8 14 (Node 26) maps memory
 * for every suspended stack and aborts the process ("StackMemory ... out of
 * memory", uncatchable) at about 32,600 of them under Linux's default
 * vm.max_map_count of 65530; the glue computes a cap from the engine and that
 * setting (llgo_jspi_engine_cap), and arming more contexts than the cap fails with
 * LLGO_WASMCONTEXT_TOO_MANY, a fatal error naming it. Node 24 (V8 13.6) has none.
 */
#include "wasmcontext_storage.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __EMSCRIPTEN__
/* J32, J64: the glue is an Emscripten library (runtime/emscripten/jspi_glue.js), -sJSPI wraps. */
#include <emscripten/emscripten.h>
#define JSPI_IMPORT(name)
#define JSPI_EXPORT(name) EMSCRIPTEN_KEEPALIVE
#else
/* P1 on a JavaScript host: the glue is the ES module runtime/wasi/jspi_glue.mjs, whose imports
 * (module "llgo_jspi") the runner (tests/runners/run-wasi.mjs) wraps in WebAssembly.Suspending,
 * and which calls the exports below through WebAssembly.promising. */
#define JSPI_IMPORT(name) __attribute__((import_module("llgo_jspi"), import_name(#name)))
#define JSPI_EXPORT(name) __attribute__((export_name(#name)))
#endif

/* The glue: llgo_jspi_switch suspends the host; a context suspends through the guards of
 * wasmcontext_jspi_guard.S, which call the glue's llgo_jspi_suspend and llgo_jspi_handoff and,
 * should the engine refuse the suspension (a JavaScript frame below: SuspendError), call the
 * glue's llgo_jspi_refused, which stops every stack (llgo_jspi_stop) and throws the error on. */
JSPI_IMPORT(llgo_jspi_switch) int llgo_jspi_switch(uint32_t id, int first);
void llgo_jspi_guarded_suspend(uint32_t id);
void llgo_jspi_guarded_handoff(uint32_t from_id, uint32_t to_id, int first);
JSPI_IMPORT(llgo_jspi_finish) void llgo_jspi_finish(void);
JSPI_IMPORT(llgo_jspi_exit) void llgo_jspi_exit(void);
JSPI_IMPORT(llgo_jspi_forget) void llgo_jspi_forget(uint32_t id);
JSPI_IMPORT(llgo_jspi_halt) void llgo_jspi_halt(void); /* never returns: parks the calling stack */
JSPI_IMPORT(llgo_jspi_engine_cap) int32_t llgo_jspi_engine_cap(void);

const char llgo_wasmcontext_backend_name[] = "jspi";
/* The engine's cap on live contexts (0: none beyond memory), asked from the glue once. */
static int32_t engine_cap = -1;
static size_t contexts_armed; /* contexts that hold or may take an engine stack */
static char limit_text[200];

const char *llgo_wasmcontext_backend_limit(void) {
  if (engine_cap <= 0) {
    return "";
  }
  snprintf(limit_text, sizeof limit_text,
           "more than %d goroutines alive at once (the JSPI backend's cap on this engine: it maps "
           "memory for every suspended stack and aborts the process past vm.max_map_count)",
           (int)engine_cap);
  return limit_text;
}

typedef struct jspi_backend {
  llgo_wasmcontext_storage storage; /* must be first (see wasmcontext_storage.h) */
  llgo_wasmcontext_entry_fn entry;
  void *arg;
  uint32_t id;   /* the glue's name for its suspended promise (its index there) */
  int armed;     /* has an entry to run or running (not returned or exited) */
  int started;   /* its entry has been started since it was armed */
  int mid_entry; /* suspended inside an entry: the glue holds its promise */
  int counted;   /* counted in contexts_armed */
} jspi_backend;

LLGO_WASMCONTEXT_BACKEND_LAYOUT(jspi_backend, LLGO_WASMCONTEXT_WORDS_JSPI);

/* What llgo_jspi_switch returns (the glue's SUSPENDED, RETURNED, ESCAPED). */
enum { OUTCOME_SUSPENDED = 0, OUTCOME_RETURNED = 1, OUTCOME_ESCAPED = 2 };

static jspi_backend *starting; /* the context llgo_jspi_run starts */
static jspi_backend *running;  /* the running context (resume and hand-offs set it) */
static uint32_t next_id;
/* The glue saw a context fail (a SuspendError) and is ending the program: no stack goes on. */
static volatile int stopped;

JSPI_EXPORT(llgo_jspi_stop) void llgo_jspi_stop(void) { stopped = 1; }

static inline void halt_if_stopped(void) {
  if (stopped) {
    llgo_jspi_halt();
  }
}

static jspi_backend *backend_of(llgo_wasmcontext *ctx) {
  return (jspi_backend *)(void *)ctx->opaque;
}

size_t llgo_wasmcontext_backend_save_space_size(size_t stack_size) {
  (void)stack_size;
  return 0; /* the engine keeps the wasm stack */
}

/* Every context's first frame, on a stack of its own (the glue calls it through
 * WebAssembly.promising, from a microtask, while the host is suspended). */
JSPI_EXPORT(llgo_jspi_run) void llgo_jspi_run(void) {
  halt_if_stopped(); /* the context that handed it control failed to suspend */
  jspi_backend *self = starting;
  starting = NULL;
  self->entry(self->arg);
  llgo_jspi_finish();
}

static void uncount(jspi_backend *self) {
  if (self->counted) {
    self->counted = 0;
    contexts_armed--;
  }
}

void llgo_wasmcontext_backend_release(llgo_wasmcontext *ctx) {
  jspi_backend *self = backend_of(ctx);
  if (self->mid_entry) {
    llgo_jspi_forget(self->id);
    self->mid_entry = 0;
  }
  uncount(self);
}

llgo_wasmcontext_result llgo_wasmcontext_backend_arm(llgo_wasmcontext *ctx,
                                                     llgo_wasmcontext_entry_fn entry,
                                                     void *arg) {
  jspi_backend *self = backend_of(ctx);
  llgo_wasmcontext_backend_release(ctx); /* a failed context: its old entry never goes on */
  if (engine_cap < 0) {
    engine_cap = llgo_jspi_engine_cap();
  }
  if (engine_cap > 0 && contexts_armed >= (size_t)engine_cap) {
    return LLGO_WASMCONTEXT_TOO_MANY;
  }
  self->counted = 1;
  contexts_armed++;
  if (self->id == 0) {
    self->id = ++next_id; /* one per context, kept when re-armed: the glue's dense index */
  }
  self->entry = entry;
  self->arg = arg;
  self->started = 0;
  self->armed = 1;
  return LLGO_WASMCONTEXT_OK;
}

/* Makes `self` the running context on its own C stack: a first run starts at the top of its
 * stack (llgo_jspi_run, from a microtask), a resume where it suspended. Returns `first`.
 * Always inlined, at -O0 too: it moves __stack_pointer to another stack, so a frame of its own
 * would move it back in its epilogue (the -O0 fixture died of "stack overflow" at once). */
static inline __attribute__((always_inline)) int enter(jspi_backend *self, size_t stack_size) {
  int first = !self->started;
  running = self;
  if (first) {
    self->started = 1;
    starting = self;
    llgo_wasmcontext_enter_stack(self->storage.stack_top, self->storage.stack_limit, stack_size);
  } else {
    llgo_wasmcontext_storage_resuming(&self->storage);
    llgo_wasmcontext_enter_stack(self->storage.stack_pointer, self->storage.stack_limit, stack_size);
  }
  return first;
}

llgo_wasmcontext_result llgo_wasmcontext_resume(llgo_wasmcontext *ctx) {
  jspi_backend *self = backend_of(ctx);
  if (!self->armed) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  void *host_stack_pointer = llgo_wasmcontext_get_stack_pointer();
  void *host_guard = llgo_wasmcontext_get_stack_guard();
  size_t host_stack_size = llgo_wasmcontext_running_stack_size;
  size_t stack_size = (size_t)(self->storage.stack_top - self->storage.stack_limit);
  int first = enter(self, stack_size);
  int outcome = llgo_jspi_switch(self->id, first);
  halt_if_stopped();
  void *stack_pointer = llgo_wasmcontext_get_stack_pointer();
  llgo_wasmcontext_running_stack_size = host_stack_size;
  llgo_wasmcontext_switch_stack(host_stack_pointer, host_guard);
  self = running; /* the context that gave control back: `ctx` or one it handed off to */
  running = NULL;
  self->mid_entry = outcome == OUTCOME_SUSPENDED;
  if (outcome == OUTCOME_SUSPENDED) {
    self->storage.stack_pointer = stack_pointer;
    return llgo_wasmcontext_storage_suspended(&self->storage, stack_pointer, 0);
  }
  self->armed = 0;
  uncount(self);
  if (outcome == OUTCOME_ESCAPED) {
    return LLGO_WASMCONTEXT_ESCAPED;
  }
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_check(&self->storage, stack_pointer);
  return result == LLGO_WASMCONTEXT_OK ? LLGO_WASMCONTEXT_RETURNED : result;
}

llgo_wasmcontext_result llgo_wasmcontext_suspend(llgo_wasmcontext *ctx) {
  jspi_backend *self = backend_of(ctx);
  llgo_wasmcontext_result result =
      llgo_wasmcontext_storage_check(&self->storage, llgo_wasmcontext_get_stack_pointer());
  if (result != LLGO_WASMCONTEXT_OK) {
    return result;
  }
  llgo_jspi_guarded_suspend(self->id); /* the host sets our stack pointer and guard back before resuming us */
  halt_if_stopped();
  return LLGO_WASMCONTEXT_OK;
}

llgo_wasmcontext_result llgo_wasmcontext_handoff(llgo_wasmcontext *from, llgo_wasmcontext *to) {
  jspi_backend *self = backend_of(from);
  jspi_backend *next = backend_of(to);
  if (!next->armed || next == self) {
    return LLGO_WASMCONTEXT_INVALID_ARGUMENT;
  }
  /* What the host does when a context gives control back (resume, above), done here. */
  void *stack_pointer = llgo_wasmcontext_get_stack_pointer();
  self->storage.stack_pointer = stack_pointer;
  llgo_wasmcontext_result result = llgo_wasmcontext_storage_suspended(&self->storage, stack_pointer, 0);
  if (result != LLGO_WASMCONTEXT_OK) {
    return result;
  }
  self->mid_entry = 1;
  int first = enter(next, (size_t)(next->storage.stack_top - next->storage.stack_limit));
  /* Whoever resumes us (the host, or a hand-off's enter) sets our stack pointer and guard. */
  llgo_jspi_guarded_handoff(self->id, next->id, first);
  halt_if_stopped();
  self->mid_entry = 0;
  return LLGO_WASMCONTEXT_OK;
}

void llgo_wasmcontext_exit(llgo_wasmcontext *ctx) {
  (void)ctx;
  llgo_jspi_exit(); /* throws: never comes back */
}

/* The C stack only: JSPI's own wasm stacks belong to the engine, which keeps a suspended
 * goroutine's wasm locals out of linear memory (docs/gc.md: jspi has no gc-roots capability, so
 * no collector is linked here). */
void llgo_wasmcontext_for_each_range(const llgo_wasmcontext *ctx, llgo_wasmcontext_range_fn fn,
                                     void *arg) {
  const jspi_backend *self = (const jspi_backend *)(const void *)ctx->opaque;
  llgo_wasmcontext_storage_for_each_range(&self->storage, self->started ? self->storage.stack_pointer : NULL,
                                          fn, arg);
}
