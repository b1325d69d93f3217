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
 * Blocking (channels, select, sync, sleep) parks only the waiting goroutine, with
 * Go's semantics (runtime/chan.go, select.go, sema.go, time.go and package sync of
 * Go 1.19); see docs/runtime.md for the Go name of every function.
 * Backend-dependent: on the pthread backend blocking operations serialise on one
 * runtime lock, timers fire on a timer thread, and the order between goroutines is
 * the OS scheduler's; on the single worker timers fire when it would otherwise be
 * idle and at channel, select, semaphore and sleep calls, and the idle wait blocks
 * the worker (P1: poll_oneoff; native: clock_nanosleep or poll) or, on J32/J64,
 * returns to the JavaScript event loop (a setTimeout) and resumes from there.
 *
 * The sync types below (llgo_mutex, ...) are the caller's memory: by the rule
 * above, put them in static or heap memory, never in a local another goroutine
 * uses. Channels, timers and waiter records are heap objects of the runtime.
 *
 * Limits: not thread-safe on the single-worker scheduler (there is one thread).
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

/* Starts `fn(arg)` as a new goroutine. It runs later, when the scheduler reaches it (FIFO).
 * Out of memory is fatal. Its C stack (docs/runtime.md, "Stacks"): with shared stacks the one
 * shared stack, the target's default-stack-size (8 MiB on every wasm target), of which a parked
 * goroutine keeps only what it used; with separate stacks (and threads) a stack of its own, the
 * target's separate-stack-size. A program may choose its own size (LLGO_STACK_SIZE below). Going
 * past the stack's limit is caught when it happens and ends the program like Go:
 * "runtime: goroutine stack exceeds N-byte limit" and "fatal error: stack overflow", status 2. */
void llgo_go(llgo_go_fn fn, void *arg);

/* Like llgo_go with an explicit C stack size in bytes (rounded up to 16; at
 * least 4 KiB). With shared stacks it is a minimum: every goroutine may use the
 * whole shared stack, and a size larger than that stack is a fatal error; with
 * separate stacks the goroutine's own stack, of any size an allocation can
 * satisfy. Pthread backend: the thread's usable stack (at least 128 KiB). */
void llgo_go_stack(llgo_go_fn fn, void *arg, size_t stack_size);

/* A program's own stack size, written once at file scope: `LLGO_STACK_SIZE(16 << 20);`. With
 * shared stacks the running stack of every goroutine and main; with separate stacks each
 * goroutine's (main gets at least the target's default-stack-size). The same as linking with
 * `llgo-wasm link --stack-size BYTES` (or LLGO_WASM_STACK_SIZE=BYTES), which compiles this
 * definition into the link; both at once is a duplicate definition. */
#define LLGO_STACK_SIZE(bytes) \
  extern const size_t llgo_stack_size; \
  const size_t llgo_stack_size = (size_t)(bytes)

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

/* ---- Channels (Go's chan; runtime/chan.go) ------------------------------- */

/* A channel of fixed-size elements. NULL is the nil channel: sending to or
 * receiving from it blocks forever, closing it panics. */
typedef struct llgo_chan llgo_chan;

/* make(chan T, capacity) with sizeof(T) == elem_size (0 is allowed, e.g.
 * struct{}). Panics "makechan: size out of range" when the buffer size
 * overflows; an element of 64 KiB or more is fatal, as in Go. */
llgo_chan *llgo_chan_make(size_t elem_size, size_t capacity);

/* Frees a channel nobody uses any more (Go has a garbage collector instead).
 * Freeing a channel that goroutines wait on is fatal; NULL is ignored. */
void llgo_chan_free(llgo_chan *c);

/* c <- *elem. Blocks until a receiver takes the value or buffer space is
 * free. The value is copied when the call starts (into the channel's buffer or
 * the runtime's heap), so `elem` may be reused at once. Panics "send on closed
 * channel" (also when the channel is closed while the sender waits). */
void llgo_chan_send(llgo_chan *c, const void *elem);

/* *elem = <-c (elem may be NULL to discard). A closed, drained channel gives the
 * zero value. The value is written by the receiver itself once it runs again. */
void llgo_chan_recv(llgo_chan *c, void *elem);

/* *elem, ok = <-c: returns ok (1: a value sent by a sender; 0: zero value from a
 * closed, drained channel). */
int llgo_chan_recv2(llgo_chan *c, void *elem);

/* select { case c <- *elem: return 1; default: return 0 } (never parks). */
int llgo_chan_try_send(llgo_chan *c, const void *elem);

/* select { case *elem, *ok = <-c: return 1; default: return 0 } (never parks;
 * ok may be NULL). */
int llgo_chan_try_recv(llgo_chan *c, void *elem, int *ok);

/* close(c). Panics "close of nil channel" or "close of closed channel". Waiting
 * receivers get the zero value with ok = 0, waiting senders panic. */
void llgo_chan_close(llgo_chan *c);

/* len(c), cap(c); 0 for the nil channel. */
size_t llgo_chan_len(const llgo_chan *c);
size_t llgo_chan_cap(const llgo_chan *c);

/* ---- select (runtime/select.go) ------------------------------------------ */

typedef enum llgo_select_dir {
  LLGO_SELECT_SEND = 1, /* case chan <- *elem */
  LLGO_SELECT_RECV = 2  /* case *elem = <-chan (elem may be NULL) */
} llgo_select_dir;

typedef struct llgo_select_case {
  llgo_chan *chan; /* NULL: the case is never ready (a nil channel) */
  llgo_select_dir dir;
  void *elem; /* send: the value (copied when the select starts); recv: where the value goes */
} llgo_select_case;

/*
 * Runs one select statement over `count` cases and returns the index of the case
 * that proceeded, or -1 when `block` is 0 (there is a default case) and no case
 * was ready; a non-blocking select never parks. When several cases are ready the
 * choice is uniformly random. A blocking select waits on every case at once and
 * the first that becomes ready wins; with no case (or only nil channels) it
 * blocks forever. For a receive case, *recv_ok (if not NULL) is set like the
 * `ok` of `v, ok := <-c`. A send case on a closed channel panics.
 */
int llgo_select(const llgo_select_case *cases, size_t count, int block, int *recv_ok);

/* ---- Semaphores and notify lists (runtime/sema.go) ----------------------- */

/* Go's runtime_Semacquire: waits until *addr > 0, then decrements it. */
void llgo_semacquire(uint32_t *addr);
/* Go's runtime_SemacquireMutex: like llgo_semacquire; lifo != 0 queues the
 * goroutine at the head of the waiters (it has waited before). */
void llgo_semacquire_mutex(uint32_t *addr, int lifo);
/* Go's runtime_Semrelease: increments *addr and wakes the first waiter. With
 * handoff != 0 the count goes straight to that waiter, and the caller yields. */
void llgo_semrelease(uint32_t *addr, int handoff);

/* A ticket-based notify list (Go's notifyList, what sync.Cond is built on).
 * Zero-initialise it; the waiter pointers are the runtime's. */
typedef struct llgo_notify_list {
  uint32_t wait;   /* next ticket to hand out */
  uint32_t notify; /* next ticket to notify */
  struct llgo_waiter *head, *tail;
} llgo_notify_list;

uint32_t llgo_notify_list_add(llgo_notify_list *l);                /* notifyListAdd */
void llgo_notify_list_wait(llgo_notify_list *l, uint32_t ticket);  /* notifyListWait */
void llgo_notify_list_notify_one(llgo_notify_list *l);             /* notifyListNotifyOne */
void llgo_notify_list_notify_all(llgo_notify_list *l);             /* notifyListNotifyAll */

/* ---- sync (package sync of Go 1.19) -------------------------------------- */
/* All zero-initialised (static storage, calloc, or the *_INIT macros). Misuse is
 * fatal with Go's message, e.g. "fatal error: sync: unlock of unlocked mutex". */

typedef struct llgo_mutex { /* sync.Mutex (with Go's starvation mode) */
  int32_t state;
  uint32_t sema;
} llgo_mutex;
#define LLGO_MUTEX_INIT {0, 0}
void llgo_mutex_lock(llgo_mutex *m);
int llgo_mutex_try_lock(llgo_mutex *m);
void llgo_mutex_unlock(llgo_mutex *m);

typedef struct llgo_rwmutex { /* sync.RWMutex (writers exclude new readers) */
  llgo_mutex w;
  uint32_t writer_sem;
  uint32_t reader_sem;
  int32_t reader_count;
  int32_t reader_wait;
} llgo_rwmutex;
#define LLGO_RWMUTEX_INIT {LLGO_MUTEX_INIT, 0, 0, 0, 0}
void llgo_rwmutex_rlock(llgo_rwmutex *rw);
int llgo_rwmutex_try_rlock(llgo_rwmutex *rw);
void llgo_rwmutex_runlock(llgo_rwmutex *rw);
void llgo_rwmutex_lock(llgo_rwmutex *rw);
int llgo_rwmutex_try_lock(llgo_rwmutex *rw);
void llgo_rwmutex_unlock(llgo_rwmutex *rw);

typedef struct llgo_waitgroup { /* sync.WaitGroup */
  uint64_t state; /* counter in the high 32 bits, waiters in the low 32 */
  uint32_t sema;
} llgo_waitgroup;
#define LLGO_WAITGROUP_INIT {0, 0}
void llgo_waitgroup_add(llgo_waitgroup *wg, int delta);
void llgo_waitgroup_done(llgo_waitgroup *wg);
void llgo_waitgroup_wait(llgo_waitgroup *wg);

typedef struct llgo_once { /* sync.Once */
  uint32_t done;
  llgo_mutex m;
} llgo_once;
#define LLGO_ONCE_INIT {0, LLGO_MUTEX_INIT}
/* Calls fn(arg) if no call of llgo_once_do on `o` has run yet; concurrent
 * callers wait until it returns (or panics: then it counts as done, as in Go). */
void llgo_once_do(llgo_once *o, void (*fn)(void *arg), void *arg);

typedef struct llgo_cond { /* sync.Cond; Go's Locker is an llgo_mutex here */
  llgo_mutex *L;
  llgo_notify_list notify;
} llgo_cond;
void llgo_cond_wait(llgo_cond *c); /* c->L must be locked; it is unlocked while waiting */
void llgo_cond_signal(llgo_cond *c);
void llgo_cond_broadcast(llgo_cond *c);

/* ---- Time (runtime/time.go, package time) -------------------------------- */
/* Times are int64 nanoseconds of the runtime's monotonic clock (llgo_nanotime). */

/* Go's runtime.nanotime: the monotonic clock, in nanoseconds. */
int64_t llgo_nanotime(void);

/* time.Sleep(ns): parks the current goroutine for at least ns nanoseconds
 * (returns at once when ns <= 0). */
void llgo_sleep(int64_t ns);

/* Go's when(d): the deadline d nanoseconds from now (now for d <= 0, saturated
 * instead of overflowing). */
int64_t llgo_when(int64_t d);

/* A runtime timer (Go's runtime.timer). Its function runs when the timer fires,
 * on the scheduler's path (single worker: inside whichever goroutine is waiting
 * or parking; pthread backend: on the runtime's timer thread). It must not block:
 * no blocking channel operation, no lock, no sleep; it may ready goroutines,
 * start goroutines and do non-blocking channel operations. `now` is the time it
 * was fired at. */
typedef struct llgo_timer llgo_timer;
typedef void (*llgo_timer_fn)(void *arg, int64_t now);

/* A stopped timer that calls fn(arg, now). Out of memory is fatal. */
llgo_timer *llgo_timer_new(llgo_timer_fn fn, void *arg);
/* Starts a stopped timer (Go's addtimer): it fires at `when`, then every
 * `period` ns if period > 0 (a tick that is late skips the missed ones). Starting
 * a pending timer is fatal. */
void llgo_timer_start(llgo_timer *t, int64_t when, int64_t period);
/* Go's deltimer: stops the timer; returns 1 if that prevented it from firing, 0
 * if it had already fired (one-shot) or been stopped. */
int llgo_timer_stop(llgo_timer *t);
/* Go's modtimer/resettimer: (re)starts the timer at `when` with `period`; returns
 * whether it was pending before. */
int llgo_timer_reset(llgo_timer *t, int64_t when, int64_t period);
/* Stops and frees the timer (once its function has returned, if it is running).
 * Freeing it again is fatal ("double free"), until llgo_timer_new reuses the
 * record for another timer. */
void llgo_timer_free(llgo_timer *t);

/* time.After(d): a channel of int64_t (capacity 1) that receives the fire time
 * after d ns. The timer frees itself after firing; free the channel only after
 * its value was received (or never). */
llgo_chan *llgo_time_after(int64_t d);
/* time.NewTimer(d): *c receives the fire time (int64_t, capacity 1, sent without
 * blocking). Stop/reset it with llgo_timer_stop / llgo_timer_reset(t, llgo_when(d), 0);
 * free both with llgo_timer_free and llgo_chan_free. */
llgo_timer *llgo_time_new_timer(int64_t d, llgo_chan **c);
/* time.NewTicker(d): like llgo_time_new_timer, every d ns; a tick the reader is
 * not ready for is dropped. Panics "non-positive interval for NewTicker" if d <= 0.
 * Ticker.Reset(d) is llgo_timer_reset(t, llgo_when(d), d). */
llgo_timer *llgo_time_new_ticker(int64_t d, llgo_chan **c);
/* time.AfterFunc(d, f): starts fn(arg) as a new goroutine after d ns. */
llgo_timer *llgo_time_after_func(int64_t d, llgo_go_fn fn, void *arg);

/* ---- Host events (Go's netpoller and syscall/js) ------------------------- */

/* Waits until `fd` is readable (or at end of file, or in error: the read that
 * follows tells), parking only the current goroutine; 0, or -1 with errno
 * (EBADF for a negative or closed fd). Go's netpoller wait (poll.FD.WaitRead).
 * Single worker: the fd is polled when no goroutine is runnable, in the same
 * wait as the next timer (P1: one poll_oneoff with the fd_read subscriptions
 * and a relative clock; native: poll(2)), so a worker that never idles does not
 * look at it. Pthread backend: the goroutine's thread blocks in poll(2).
 * J32/J64: not available (-1, ENOTSUP); wait on a Promise instead. */
int llgo_wait_readable(int fd);

/* J32/J64 only (Emscripten; the functions do not exist elsewhere): waiting for
 * JavaScript without blocking the worker. When no goroutine is runnable the
 * worker returns to the JavaScript event loop (a setTimeout for the next
 * timer), so the page or the Node process stays responsive, and is re-entered
 * on that timer, on llgo_host_wake or on llgo_host_call. Deadlock: with no
 * timer, no unsettled host wait and no live host callback, the program dies at
 * once with Go's "all goroutines are asleep - deadlock!" (exit 2); otherwise
 * under Node it dies so when the event loop runs empty, as Go's js/wasm does; a
 * browser page just keeps waiting.
 *
 * A host wait (what syscall/js code does to await a Promise: a channel that
 * the Promise's then/catch callbacks send on):
 *     llgo_host_wait_id id = llgo_host_wait_begin();
 *     start_fetch(id);  // JavaScript: Module.llgoAwait(id, promise), or its own
 *                       // call of Module._llgo_host_wake(id, ok, value)
 *     double value;
 *     int ok = llgo_host_wait_end(id, &value);  // parks only this goroutine
 * Ids are small positive integers, so JavaScript passes no pointers (J64's
 * would be BigInts). Module.llgoAwait(id, promise) (runtime/emscripten/
 * host_events_pre.js) wakes the wait with (1, Number(value)) when the Promise
 * fulfills and (0, NaN) when it rejects. */
typedef int32_t llgo_host_wait_id;
/* Begins a wait of the current goroutine for a host event; returns its id. */
llgo_host_wait_id llgo_host_wait_begin(void);
/* Parks the current goroutine until the wait `id` (which it began) is woken,
 * unless it already was; stores the woken value in *value (if not NULL), frees
 * the id and returns the woken `ok`. Ending a wait this goroutine did not begin
 * is fatal. */
int llgo_host_wait_end(llgo_host_wait_id id, double *value);
/* Called by JavaScript (exported as Module._llgo_host_wake): settles the wait
 * `id` with ok (0 or 1) and value, readies its goroutine and, if the worker is
 * in the event loop, re-enters it from a microtask. Returns 0, or -1 if `id` is
 * not an unsettled wait (nothing happens). */
int llgo_host_wake(llgo_host_wait_id id, int ok, double value);

/* A function JavaScript may call (syscall/js.FuncOf): each
 * Module._llgo_host_call(id) starts fn(arg) as a new goroutine, run by the
 * scheduler (re-entered from a microtask if it is in the event loop).
 * Differences from FuncOf: JavaScript does not wait for fn and gets no result;
 * pass data through memory or a host wait. A live callback keeps a program
 * whose goroutines all wait on channels alive while the event loop has work. */
typedef int32_t llgo_host_callback_id;
llgo_host_callback_id llgo_host_callback_new(llgo_go_fn fn, void *arg);
/* Func.Release: later calls of the id return -1. Releasing an id that is not a
 * live callback is fatal. */
void llgo_host_callback_release(llgo_host_callback_id id);
/* Exported as Module._llgo_host_call: starts the callback's goroutine; 0, or -1
 * if `id` is not a live callback. */
int llgo_host_call(llgo_host_callback_id id);

/* ---- Garbage collection (docs/gc.md) -------------------------------------- */

/* A range of memory [lo, hi) that may hold pointers into the collected heap. */
typedef void (*llgo_gc_root_fn)(void *lo, void *hi, void *ctx);

/* Calls fn(lo, hi, ctx) for every root range: static data, the used stack (or saved copy) and
 * saved Asyncify data of every goroutine that is not dead, and the program values the runtime
 * holds (goroutine arguments, channel buffers, values of blocked senders and woken receivers,
 * timer and host-callback arguments, deferred calls' arguments, panic values). Allocates
 * nothing; O(goroutines + ranges). Only meaningful where no goroutine runs: the collector calls
 * it at a safepoint (docs/gc.md). Built where the target has the `gc-roots` capability. */
void llgo_gc_for_each_root(llgo_gc_root_fn fn, void *ctx);

/* `size` zeroed bytes the collector frees once nothing reachable points into them (interior
 * pointers keep an object alive). The one allocation entry for collected memory. Out of memory
 * is fatal. A collection it needs runs at a safepoint: from a goroutine it switches out first
 * (so every pointer is in linear memory), on the host it is left to the next switch. */
void *llgo_gc_alloc(size_t size);

/* A forced collection (runtime.GC): from a goroutine it has finished when this returns; outside
 * every goroutine it runs at the next safepoint. */
void llgo_gc_collect(void);

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

/* Stacks (tests/stacks): the usable C stack of the running goroutine (bytes: its limit); memory
 * right below that limit which the runtime owns and nothing may write while the goroutine runs
 * (*bytes of it; a test puts a canary there before it overflows the stack); the bytes held for
 * the stacks of parked goroutines (single worker; 0 on pthread). */
size_t llgo_test_stack_size(void);
unsigned char *llgo_test_stack_floor(size_t *bytes);
size_t llgo_test_parked_stack_bytes(void);

/* Collector figures (every collector implements them): collections run since the start, the
 * bytes of collected heap the collector holds from the system (live objects and free space), and
 * the longest collection so far in nanoseconds of llgo_nanotime (the collection itself, timed at
 * the safepoint where every goroutine waits: a pause; bench/binary_trees.c reports it). */
uint64_t llgo_test_gc_collections(void);
size_t llgo_test_gc_heap_bytes(void);
int64_t llgo_test_gc_max_pause_ns(void);

#ifdef __cplusplus
}
#endif

#endif /* LLGO_RUNTIME_H */
