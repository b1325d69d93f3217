/*
 * llgo_runtime.h - the public C API of the llgo-wasm goroutine runtime.
 *
 * Every public name starts with `llgo_` (types, functions) or `LLGO_` (macros).
 * Generated code and hand-written C use only this header.
 *
 * Which scheduler runs underneath is chosen at build time by source selection
 * (the `//llgo:build` line of each runtime/src file):
 *   - single worker (wasm P1/J32/J64 and native ucontext): one M, one P, a FIFO of
 *     runnable goroutines; goroutines switch only at llgo_gosched, llgo_park,
 *     llgo_goexit and when a goroutine ends (cooperative, no preemption);
 *   - pthread (P1T and native default): one thread per goroutine (1:1).
 * Behaviour that differs between the two is marked "backend-dependent" below.
 *
 * THE SHARED-STACK RULE. On the single worker, goroutines may share one C stack
 * (the target's `stacks` capability, "shared" by default where the context
 * backend allows it): a goroutine that is switched out keeps a copy of the part
 * of the stack it used, and another goroutine's frames occupy the same
 * addresses until it is switched back in. So no goroutine may dereference a
 * pointer into another goroutine's stack while that one is switched out (parked,
 * yielded, or runnable in the queue). Data handed between goroutines must live
 * in heap (or static) memory; every primitive of this runtime does so (goroutine
 * records, run queue, panic records are heap-owned; a defer frame is only ever
 * used by its own goroutine). Go code keeps this rule by construction: anything
 * that escapes to another goroutine escapes to the heap. C code that breaks it
 * must be built with separate stacks (llgo-wasm --stacks separate).
 *
 * Limits: not thread-safe on the single-worker scheduler (there is one thread);
 * no timers, channels or host async I/O.
 */
#ifndef LLGO_RUNTIME_H
#define LLGO_RUNTIME_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A goroutine. Opaque; obtain one with llgo_current_g(). */
typedef struct llgo_g llgo_g;

/* The function a goroutine runs. When it returns, the goroutine exits. */
typedef void (*llgo_go_fn)(void *arg);

/* ---- Host entry --------------------------------------------------------- */

/*
 * Runs `main_fn(argc, argv)` (package init + main) as the first goroutine while
 * the caller stays on the system stack, and returns main's status as soon as
 * main_fn returns - even if other goroutines are still runnable or parked (as
 * Go does). Under Emscripten (J32, J64) it ends the program with that status
 * instead of returning it: after a goroutine switch the C `main` may no longer
 * be on the JavaScript stack to return to. Call it once per process, e.g. from
 * the C `main`:
 *     int main(int argc, char **argv) { return llgo_run_main(program_main, argc, argv); }
 * Deadlocks, unrecovered panics and broken invariants do not return: they print
 * to stderr and exit the process with status 2.
 */
int llgo_run_main(int (*main_fn)(int argc, char **argv), int argc, char **argv);

/* ---- Goroutines ---------------------------------------------------------- */

/* Starts `fn(arg)` as a new goroutine with the target's default stack size (the
 * descriptor's default-stack-size: the most C stack it may use). It runs later,
 * when the scheduler reaches it (FIFO). Out of memory is fatal. */
void llgo_go(llgo_go_fn fn, void *arg);

/* Like llgo_go with an explicit C stack size in bytes (rounded up to 16; at
 * least 4 KiB). With shared stacks it is a limit within the shared stack, which
 * is as large as main's (256 KiB) or the default if larger; a larger size is a
 * fatal error, as is any size no allocation could satisfy. Pthread backend: the
 * thread's stack size. */
void llgo_go_stack(llgo_go_fn fn, void *arg, size_t stack_size);

/* Yields the processor: the current goroutine goes to the back of the run
 * queue and the next runnable one runs. Backend-dependent: on the pthread
 * backend this is sched_yield(), a hint to the OS scheduler, not a handoff. */
void llgo_gosched(void);

/* Parks the current goroutine until another goroutine calls llgo_ready on it.
 * Parking the last runnable goroutine is the fatal error
 * "all goroutines are asleep - deadlock!". */
void llgo_park(void);

/* Makes a parked goroutine runnable again (appended to the run queue).
 * Readying a goroutine that is not parked is fatal. On the pthread backend a
 * ready that arrives before the park is remembered (the park returns at once). */
void llgo_ready(llgo_g *g);

/* The goroutine that is running, or NULL outside llgo_run_main. */
llgo_g *llgo_current_g(void);

/* Runs all deferred calls of the current goroutine, then ends it (Go's
 * runtime.Goexit). If main calls it, the program keeps running the other
 * goroutines; when none is left it dies with
 * "no goroutines (main called runtime.Goexit) - deadlock!". */
_Noreturn void llgo_goexit(void);

/* ---- panic / defer / recover ------------------------------------------- */

/* Starts a panic with `msg` (copied by pointer: it must stay valid). Deferred
 * calls run in LIFO order; if none recovers, prints Go's panic chain to stderr
 * ("panic: <msg>" per active panic, oldest first, later ones after a tab,
 * " [recovered]" after one recovered and panicked over), then
 * "\ngoroutine <id> [running]\n", and exits with status 2.
 * Go's own trace line ends in ':' and is followed by the stack trace; this
 * runtime has none, so its line has no ':'.
 * Nested panics follow Go: a panic started inside a deferred call and recovered
 * before it leaves that call does not affect the panic that runs the call (a
 * deferred call may run a helper that panics and recovers by itself); one that
 * leaves the deferred call aborts the older panic, which stays in the printed
 * chain. */
_Noreturn void llgo_panic(const char *msg);

/* Inside a deferred call that a panic runs: stops that panic (the newest) and
 * returns its message. When the deferred call returns, the panic and the ones
 * it aborted are gone, and the function whose frame ran the call returns
 * normally after its remaining deferred calls (which run as for a return, so a
 * later panic among them is printed alone). NULL anywhere else: outside a
 * deferred call, in a deferred call that a normal return runs (even while an
 * outer panic is active), during Goexit, or once the panic is recovered.
 * Difference from Go: it also recovers when called from a function that the
 * deferred call calls, not only directly by the deferred function (Go returns
 * nil there). The runtime cannot tell the two apart soundly from C: on wasm no
 * frame or return address identifies the caller. A compiler could: the
 * runtime would mark the deferred call it is about to run, and a function
 * containing recover() would take the mark at its entry only when it is that
 * call's own function (a new entry point for generated code; not provided). */
const char *llgo_recover(void);

/* Prints "fatal error: <msg>" to stderr and exits with status 2. Never returns. */
_Noreturn void llgo_fatal(const char *msg);

/* One deferred call (internal to the defer frame; do not touch). */
typedef struct llgo_defer_record llgo_defer_record;

/*
 * A defer frame: the state of one function that has deferred calls. It lives in
 * that function's stack frame. The pattern ("a function with defers"):
 *
 *     void f(void) {
 *         llgo_defer_frame frame;
 *         if (llgo_defer_begin(&frame)) {
 *             llgo_defer(&frame, unlock, mu);   // defer unlock(mu)
 *             ... body; may call llgo_panic, llgo_goexit, llgo_gosched ...
 *         }
 *         llgo_defer_end(&frame);               // runs deferred calls (LIFO)
 *         ... reached on normal return and when a deferred call recovered ...
 *     }
 *
 * llgo_defer_begin returns nonzero when the body should run; a panic or Goexit
 * inside the body longjmps back to it and it then returns zero, so control goes
 * straight to llgo_defer_end. llgo_defer_end runs the deferred calls; if a panic
 * is still active afterwards, it continues unwinding to the caller's frame and
 * does not return. Rules (as for any setjmp): do not `return` from inside the
 * `if` body (set a result and fall through), and locals changed in the body and
 * read after llgo_defer_end must be `volatile`. Frames nest with the call
 * stack and belong to one goroutine; a longjmp never crosses goroutines.
 */
typedef struct llgo_defer_frame {
  jmp_buf jump;                   /* re-entry point used by panic/Goexit */
  struct llgo_defer_frame *outer; /* the caller's frame in this goroutine */
  llgo_defer_record *records;     /* deferred calls, newest first */
  llgo_g *owner;                  /* the goroutine whose stack holds this frame */
  struct llgo_panic_record *panic; /* the panic/Goexit its deferred calls run for, or NULL */
  int calling;                    /* inside one of its deferred calls */
} llgo_defer_frame;

/* Registers `frame` as the current goroutine's innermost frame. Use only
 * through llgo_defer_begin. */
void llgo_defer_enter(llgo_defer_frame *frame);

#define llgo_defer_begin(frame) (llgo_defer_enter(frame), setjmp((frame)->jump) == 0)

/* Defers `fn(arg)` in `frame` (must be the innermost frame). Out of memory is fatal. */
void llgo_defer(llgo_defer_frame *frame, void (*fn)(void *arg), void *arg);

/* Runs the frame's deferred calls and pops it; see the pattern above. */
void llgo_defer_end(llgo_defer_frame *frame);

/* ---- Test hooks (stable; used by tests and fixtures) --------------------- */

/* Goroutine status values (Go's names). */
typedef enum llgo_g_status {
  LLGO_G_IDLE = 0,     /* allocated, not started */
  LLGO_G_RUNNABLE = 1, /* in the run queue */
  LLGO_G_RUNNING = 2,  /* executing */
  LLGO_G_WAITING = 4,  /* parked */
  LLGO_G_DEAD = 6      /* finished; its storage may be reused */
} llgo_g_status;

/* Processor status values. */
typedef enum llgo_p_status {
  LLGO_P_IDLE = 0,
  LLGO_P_RUNNING = 1
} llgo_p_status;

/* "_Gidle", "_Grunnable", "_Grunning", "_Gwaiting", "_Gdead" or "unknown". */
const char *llgo_g_status_name(int status);
/* "_Pidle", "_Prunning" or "unknown". */
const char *llgo_p_status_name(int status);

uint64_t llgo_test_g_id(const llgo_g *g);          /* first goroutine (main) is 1 */
int llgo_test_g_status(const llgo_g *g);           /* an llgo_g_status */
uint64_t llgo_test_m_id(void);                     /* running M; the first is 1 */
int64_t llgo_test_p_id(void);                      /* running P; the first is 0 */
int llgo_test_p_status(void);                      /* an llgo_p_status */
size_t llgo_test_runqueue_len(void);               /* pthread backend: always 0 */
uint64_t llgo_test_live_g_count(void);             /* goroutines not dead */
size_t llgo_test_context_pool_len(void);           /* exited contexts kept for reuse */
uint64_t llgo_test_contexts_created(void);         /* contexts ever allocated */

/* Allocation failure injection, for every backend: every allocation the runtime makes
 * (goroutine records; goroutine stack storage: a separate stack with its Asyncify save area,
 * the shared stack, the copies suspended goroutines keep of it; deferred calls, panic records) is
 * counted, and each failure ends in a "fatal error: out of memory allocating ..." (status 2).
 * llgo_test_fail_allocation(n): the n-th allocation from now fails, once (n <= 0: none);
 * llgo_test_fail_allocations_after(n): all allocations after the next n fail (n < 0: none);
 * llgo_test_allocation_count(): allocations made since the program started. */
void llgo_test_fail_allocation(long nth);
void llgo_test_fail_allocations_after(long count);
long llgo_test_allocation_count(void);

/* Overflow simulation for tests: overwrite the current goroutine's stack-limit
 * canary, or make its next suspend report an Asyncify save area overflow. The
 * next switch away from the goroutine must die with a fatal error naming it.
 * No-op on pthread. */
void llgo_test_smash_stack_canary(void);
void llgo_test_overflow_asyncify_area(void);

#ifdef __cplusplus
}
#endif

#endif /* LLGO_RUNTIME_H */
