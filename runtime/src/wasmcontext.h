//llgo:build !llgo.context_pthread
/*
 * wasmcontext.h - execution contexts: run a call stack, suspend it, resume it.
 *
 * The model is asymmetric, so that every backend fits it: the host - the
 * scheduler's loop, on the system stack - resumes a context and gets control
 * back when the context suspends itself, exits, or its entry function returns.
 * Contexts switch to each other directly only where the backend offers a
 * hand-off (llgo_wasmcontext_handoff, below: jspi, where every pass through
 * the host costs an engine stack switch and a microtask). Backends, chosen at build time
 * by source selection (the //llgo:build line of each file):
 *   wasmcontext_asyncify.c          raw in-module Asyncify (P1; also J32/J64): the
 *                                   host calls the entry directly and rewinds it
 *   wasmcontext_emscripten_fiber.c  emscripten_fiber_t (J32/J64)
 *   wasmcontext_native.c (+ .S)     a few-instruction stack switch (x86-64, aarch64)
 *   wasmcontext_stack_switching.c   typed continuations (cont.new / resume / suspend,
 *                                   glue in .wat merged at link time): resume is
 *                                   `resume`, suspend and exit are `suspend` with tags
 *   wasmcontext_jspi.c              JavaScript Promise Integration (J32/J64; glue in
 *                                   runtime/emscripten/jspi_glue.js): the host loop
 *                                   suspends on a promise the context settles
 *
 * Storage is chosen the same way, independently of the backend (a target
 * capability, `llgo-wasm resolve`'s capabilities.stacks, build tag
 * llgo.stacks_shared or llgo.stacks_separate):
 *   separate  every context owns a C stack (and, for Asyncify, a save area) of
 *             fixed size, allocated when it is created;
 *   shared    every context runs on one shared C stack, at the same addresses;
 *             when it suspends, the used part of that stack and its Asyncify data
 *             are copied into a buffer of the context sized to fit (grown as
 *             needed), and copied back before it resumes. Rule: no context may
 *             dereference a pointer into another context's stack while that one
 *             is suspended (its bytes are elsewhere; another context's are there).
 * llgo_wasmcontext_describe() says which backend and storage a build has.
 *
 * Allocation goes through the callbacks given to llgo_wasmcontext_init (kept:
 * a suspended context's copy grows when it suspends deeper). A C stack overflow
 * is caught when it happens (wasmcontext_stack_guard.h: the link's check on
 * wasm, guard pages natively) and reported as Go reports it; the checks at every
 * switch stay as a second line: a suspend or return past the stack's limit, a
 * damaged canary, or a suspended call chain larger than the save space, is a
 * result the caller turns into a fatal error naming the owner.
 *
 * Limits: one thread; contexts are resumed by the host (or handed off to), one at a time.
 * This layer knows nothing about goroutines; it is its own library
 * (llgo_wasmcontext) and includes only its own headers.
 */
#ifndef LLGO_WASMCONTEXT_H
#define LLGO_WASMCONTEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for the backend's state, in pointer-sized words: it is part of every
 * goroutine record, so it is kept tight. A file compiled for one context
 * backend (the target's cflags define LLGO_CONTEXT_<NAME>) gets that backend's
 * size; any other gets the largest (the Fiber's), which holds every backend.
 * The backends' own files check theirs (LLGO_WASMCONTEXT_BACKEND_LAYOUT). */
#define LLGO_WASMCONTEXT_WORDS_ASYNCIFY 15
#define LLGO_WASMCONTEXT_WORDS_UCONTEXT 15
#define LLGO_WASMCONTEXT_WORDS_JSPI 19
#define LLGO_WASMCONTEXT_WORDS_STACK_SWITCHING 19
#define LLGO_WASMCONTEXT_WORDS_EMSCRIPTEN_FIBER 22 /* the largest */
#if defined(LLGO_CONTEXT_ASYNCIFY)
#define LLGO_WASMCONTEXT_OPAQUE_WORDS LLGO_WASMCONTEXT_WORDS_ASYNCIFY
#elif defined(LLGO_CONTEXT_UCONTEXT)
#define LLGO_WASMCONTEXT_OPAQUE_WORDS LLGO_WASMCONTEXT_WORDS_UCONTEXT
#elif defined(LLGO_CONTEXT_JSPI)
#define LLGO_WASMCONTEXT_OPAQUE_WORDS LLGO_WASMCONTEXT_WORDS_JSPI
#elif defined(LLGO_CONTEXT_STACK_SWITCHING)
#define LLGO_WASMCONTEXT_OPAQUE_WORDS LLGO_WASMCONTEXT_WORDS_STACK_SWITCHING
#else
#define LLGO_WASMCONTEXT_OPAQUE_WORDS LLGO_WASMCONTEXT_WORDS_EMSCRIPTEN_FIBER
#endif

/* A context. Embed it anywhere (it must not move while created); its contents
 * are backend-private. */
typedef struct llgo_wasmcontext {
  void *opaque[LLGO_WASMCONTEXT_OPAQUE_WORDS];
} llgo_wasmcontext;

typedef enum llgo_wasmcontext_result {
  LLGO_WASMCONTEXT_OK = 0,             /* resume: the context suspended; others: done */
  LLGO_WASMCONTEXT_RETURNED,           /* resume: its entry returned or it called exit */
  LLGO_WASMCONTEXT_INVALID_ARGUMENT,   /* NULL pointer, not initialised, bad state */
  LLGO_WASMCONTEXT_STACK_TOO_LARGE,    /* a stack size above llgo_wasmcontext_max_stack_size() */
  LLGO_WASMCONTEXT_OUT_OF_MEMORY,      /* the allocation callback returned NULL */
  LLGO_WASMCONTEXT_STACK_OVERFLOW,     /* the C stack went past its limit */
  LLGO_WASMCONTEXT_SAVE_OVERFLOW,      /* the suspended call chain does not fit its save space */
  LLGO_WASMCONTEXT_BACKEND_FAILED,     /* the backend's own primitive failed */
  LLGO_WASMCONTEXT_TOO_MANY,           /* create/rearm: the backend's cap on live contexts */
  LLGO_WASMCONTEXT_ESCAPED             /* resume: a longjmp left the context's stack */
} llgo_wasmcontext_result;

/* Allocation callbacks: `user` is passed through unchanged; memory must be
 * 16-byte aligned. */
typedef void *(*llgo_wasmcontext_alloc_fn)(size_t size, void *user);
typedef void (*llgo_wasmcontext_free_fn)(void *memory, size_t size, void *user);
typedef struct llgo_wasmcontext_allocator {
  llgo_wasmcontext_alloc_fn alloc;
  llgo_wasmcontext_free_fn free;
  void *user;
} llgo_wasmcontext_allocator;

typedef void (*llgo_wasmcontext_entry_fn)(void *arg);

typedef enum llgo_wasmcontext_stacks {
  LLGO_WASMCONTEXT_SEPARATE_STACKS = 0,
  LLGO_WASMCONTEXT_SHARED_STACKS = 1
} llgo_wasmcontext_stacks;

/* What this build is made of (fixed by source selection). */
typedef struct llgo_wasmcontext_description {
  const char *backend;            /* "asyncify", "emscripten-fiber", "native", "stack-switching", "jspi" */
  llgo_wasmcontext_stacks stacks;
} llgo_wasmcontext_description;

/* Smallest stack a context can be given (bytes). */
#define LLGO_WASMCONTEXT_MIN_STACK_SIZE ((size_t)4096)

const llgo_wasmcontext_description *llgo_wasmcontext_describe(void);

/* Once per process, on the host (the system stack), before any other call.
 * max_stack_size is the most C stack a context may be given: with shared stacks
 * the size of the shared stack, allocated here. The allocator is kept. */
llgo_wasmcontext_result llgo_wasmcontext_init(size_t max_stack_size,
                                              const llgo_wasmcontext_allocator *allocator);

/* The largest stack_size llgo_wasmcontext_create accepts (0 before init). */
size_t llgo_wasmcontext_max_stack_size(void);

/* Arms `ctx` so that the first resume calls entry(arg) on a C stack of at least
 * stack_size bytes (rounded up to 16; separate stacks allocate it here; with
 * shared stacks it is checked, and the context gets the whole shared stack). */
llgo_wasmcontext_result llgo_wasmcontext_create(llgo_wasmcontext *ctx,
                                                llgo_wasmcontext_entry_fn entry, void *arg,
                                                size_t stack_size);

/* Re-arms a created context that is not running and not suspended (it returned
 * or exited, or was never resumed) with a new entry, keeping its storage. */
llgo_wasmcontext_result llgo_wasmcontext_rearm(llgo_wasmcontext *ctx,
                                               llgo_wasmcontext_entry_fn entry, void *arg);

/* Frees a created context's storage. It must not be running. */
void llgo_wasmcontext_destroy(llgo_wasmcontext *ctx);

/* Host only: runs `ctx` until it suspends (OK), returns or exits (RETURNED; it
 * may then be re-armed or destroyed), or fails (an overflow or out of memory,
 * detected when it suspended or returned; the context is then unusable). */
llgo_wasmcontext_result llgo_wasmcontext_resume(llgo_wasmcontext *ctx);

/* Inside the running context `ctx`: gives control back to the host's resume and
 * returns OK when the host resumes `ctx` again. Returns an error without
 * suspending when the stack is already past its limit.
 * (Asyncify: the call may return early while unwinding; callers must do nothing
 * after it but return - code after the call runs only once resumed.) */
llgo_wasmcontext_result llgo_wasmcontext_suspend(llgo_wasmcontext *ctx);

/* ---- a switch point's own frame ----
 * A function that suspends its context as the last thing it does (the
 * scheduler's Gosched and park) may be written as
 *
 *   LLGO_WASMCONTEXT_SWITCH_POINT void park(void) {
 *     LLGO_WASMCONTEXT_RETURN_IF_RESUMED();          // first statement
 *     ...                                            // requeue, mark waiting
 *     result = llgo_wasmcontext_suspend_here(ctx);   // last call; then return
 *   }
 *
 * Under the raw Asyncify backend (LLGO_CONTEXT_ASYNCIFY, defined by the
 * target's effective cflags) both are inline: the function starts the unwind
 * itself, so it is the top of the switch and Binaryen does not instrument it -
 * one frame fewer to save and restore on every switch. The rewind that resumes
 * the context calls it again from its start, and llgo_wasmcontext_resumed_here
 * stops the rewind there and returns 1. So such a function must do nothing
 * before that check, must not be inlined into its callers (the macro), and
 * must call nothing after llgo_wasmcontext_suspend_here. On every other
 * backend resumed_here is 0 and suspend_here is llgo_wasmcontext_suspend. */
#define LLGO_WASMCONTEXT_SWITCH_POINT __attribute__((noinline))
/* The first statement of a switch point (one statement, so that a backend
 * where it can never return leaves no dead line in the caller). */
#define LLGO_WASMCONTEXT_RETURN_IF_RESUMED()                                                     \
  do {                                                                                            \
    if (llgo_wasmcontext_resumed_here()) {                                                        \
      return;                                                                                     \
    }                                                                                             \
  } while (0)

#if defined(LLGO_CONTEXT_ASYNCIFY)
/* Binaryen's intrinsics (the pass replaces these imports with its own functions). */
__attribute__((import_module("asyncify"), import_name("start_unwind")))
void llgo_asyncify_start_unwind(void *data);
__attribute__((import_module("asyncify"), import_name("stop_rewind")))
void llgo_asyncify_stop_rewind(void);

/* The backend's state for the inline switch (wasmcontext_asyncify.c). */
extern int llgo_wasmcontext_asyncify_rewinding;        /* a resume's rewind is under way */
extern void *llgo_wasmcontext_asyncify_unwind_data;    /* Binaryen's data header */
/* Checks `ctx`'s stack and sets up its unwind: everything but the unwind itself. */
llgo_wasmcontext_result llgo_wasmcontext_asyncify_prepare_unwind(llgo_wasmcontext *ctx);

static inline __attribute__((always_inline)) int llgo_wasmcontext_resumed_here(void) {
  if (!llgo_wasmcontext_asyncify_rewinding) {
    return 0;
  }
  llgo_asyncify_stop_rewind();
  llgo_wasmcontext_asyncify_rewinding = 0;
  return 1;
}

static inline __attribute__((always_inline)) llgo_wasmcontext_result
llgo_wasmcontext_suspend_here(llgo_wasmcontext *ctx) {
  llgo_wasmcontext_result result = llgo_wasmcontext_asyncify_prepare_unwind(ctx);
  if (result == LLGO_WASMCONTEXT_OK) {
    llgo_asyncify_start_unwind(llgo_wasmcontext_asyncify_unwind_data);
  }
  return result;
}
#else
static inline int llgo_wasmcontext_resumed_here(void) { return 0; }

static inline llgo_wasmcontext_result llgo_wasmcontext_suspend_here(llgo_wasmcontext *ctx) {
  return llgo_wasmcontext_suspend(ctx);
}
#endif

/* Inside the running context `ctx`: abandons its stack; the host's resume
 * returns RETURNED (or an overflow). Never comes back (Asyncify: the call
 * returns while unwinding, like suspend; follow it with a fatal error). */
void llgo_wasmcontext_exit(llgo_wasmcontext *ctx);

#ifdef LLGO_WASMCONTEXT_HANDOFF
/* A direct hand-off, for backends that implement it: the driver defines LLGO_WASMCONTEXT_HANDOFF
 * where the effective capability context-handoff holds (driver/vocabulary/src/
 * target_capabilities.cpp, the one place that says which backend has it: jspi; no backend name is
 * compared here). Inside the running context `from`: suspends it and runs `to` (created, not
 * running: suspended, or armed and never resumed) at once, without the host in between; returns
 * OK when `from` is resumed again, by the host or by another hand-off, or an error without
 * switching (from's stack is past its limit). The host's llgo_wasmcontext_resume that started the
 * chain returns when a context of it gives control back to the host, with that context's result:
 * the caller keeps track of which context runs. */
llgo_wasmcontext_result llgo_wasmcontext_handoff(llgo_wasmcontext *from, llgo_wasmcontext *to);
#endif

/* The usable C stack of a created context (its limit). */
size_t llgo_wasmcontext_stack_size(const llgo_wasmcontext *ctx);

/* Bytes of memory the context holds while suspended (its stack block and its copy). */
size_t llgo_wasmcontext_held_bytes(const llgo_wasmcontext *ctx);

/* Memory right below the context's stack limit that this layer owns and nothing writes while the
 * stack runs (*bytes of it): the floor (wasmcontext_stack_guard.h). */
unsigned char *llgo_wasmcontext_floor(const llgo_wasmcontext *ctx, size_t *bytes);

/* The memory a suspended context's pointers live in, for a garbage collector's roots: calls
 * fn(lo, hi, arg) for its used C stack (separate stacks: [saved stack pointer, top); shared: the
 * copy of it) and its saved Asyncify data (every instrumented frame's locals). Nothing for a
 * context never resumed since it was (re)armed. Valid only while `ctx` is suspended (not
 * running); allocates nothing. Every backend implements it (a new backend too): its save state
 * is its own. Stack switching: the engine keeps each continuation's wasm locals, which no range
 * covers (docs/gc.md). */
typedef void (*llgo_wasmcontext_range_fn)(void *lo, void *hi, void *arg);
void llgo_wasmcontext_for_each_range(const llgo_wasmcontext *ctx, llgo_wasmcontext_range_fn fn,
                                     void *arg);

/* A short description of a result, for error messages. */
const char *llgo_wasmcontext_result_name(llgo_wasmcontext_result result);

/* Test hooks: make the next suspend or return of `ctx` report an overflow, as if
 * its stack had overwritten the limit canary, or its save space had overflowed. */
void llgo_wasmcontext_smash_stack_canary(llgo_wasmcontext *ctx);
void llgo_wasmcontext_inject_save_overflow(llgo_wasmcontext *ctx);

#ifdef __cplusplus
}
#endif

#endif /* LLGO_WASMCONTEXT_H */
