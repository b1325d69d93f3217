//llgo:build !llgo.context_pthread
/*
 * scheduler.c - the single-worker scheduler: one M, one P, a FIFO run queue of
 * goroutines, each with its own execution context (wasmcontext). It does not
 * know which context backend or storage runs underneath: it only calls
 * llgo_wasmcontext_*.
 *
 * The host loop (llgo_sched_run, on the system stack) is the scheduler: it pops
 * the next runnable goroutine and resumes its context, which calls the
 * goroutine's function directly the first time. A goroutine gives control back
 * only by suspending itself (Gosched: requeued; park: waiting), by Goexit (its
 * stack is abandoned) or by returning; the loop then pools a finished record
 * and picks the next. So a switch passes through the user's frames, one
 * scheduler frame (llgo_gosched or llgo_park, which under the raw Asyncify
 * backend starts the unwind itself: see wasmcontext.h) and the context layer,
 * nothing else. When the queue is empty the idle hook may wait or send the host back
 * to its event loop; otherwise it is a deadlock. All loop state lives in
 * `sched`, so the loop can be left and entered again.
 * Where the context backend offers a direct hand-off (LLGO_WASMCONTEXT_HANDOFF,
 * which the build defines where the capability context-handoff holds:
 * wasmcontext.h), a goroutine that yields or parks does the host loop's next
 * dispatch itself when it is a plain one - the next goroutine of the queue, no
 * collection pending, the tick not due - and resumes that goroutine directly
 * (counted: llgo_test_handoffs); everything else (an empty queue, the tick, a
 * collection, a goroutine that returns or exits) still goes through the host
 * loop, so the order of runs, the ticks and the idle and deadlock checks are the
 * same either way.
 * Dead records and their contexts are reused by later llgo_go calls (re-armed
 * without allocation when the stack size matches).
 * Limits: no preemption; the pool keeps as many records as were ever live.
 */
#include "scheduler.h"

#include "blocking.h"
#include "gc.h"
#include "gstate.h"
#include "runqueue.h"
#include "stack_size.h"
#include "wasmcontext.h"

#include <stddef.h>
#include <string.h>


typedef struct sched_g {
  llgo_g g; /* must be first: an llgo_g* is a sched_g* */
  llgo_runqueue_node run_node;
  llgo_wasmcontext context;
  size_t requested_stack_size;
  struct sched_g *free_next; /* link in the pool of dead records */
  struct sched_g *all_next;  /* link in the list of every record (Go's allgs) */
} sched_g;

static struct {
  int started;           /* llgo_sched_start was called */
  int main_returned;
  sched_g *current;      /* the running goroutine, NULL on the host */
  llgo_runqueue run_queue;
  sched_g *free_pool;
  size_t free_pool_length;
  sched_g *all_goroutines; /* every record ever made; records are pooled, never freed */
  uint64_t contexts_created;
  uint64_t handoffs;     /* switches made by a direct hand-off (llgo_test_handoffs) */
  llgo_sched_idle_hook idle_hook;
  llgo_sched_tick_hook tick_hook;
  unsigned dispatches_to_tick; /* counts down to the next tick_hook call */
  uint64_t m_id;
  int64_t p_id;
  int p_status;
  int (*main_fn)(int, char **);
  int argc;
  char **argv;
  int main_status;
  size_t goroutine_stack_size; /* what llgo_go gives (stack_size.h) */
  void (*gc_pending)(void);    /* a collection to run at the next switch (llgo_gc_at_safepoint) */
  struct sched_g *resume_first; /* switched out for a collection: runs before the queue */
} sched;

static sched_g *sched_g_of(llgo_g *g) { return (sched_g *)(void *)g; }

static sched_g *sched_g_of_node(llgo_runqueue_node *node) {
  return node == NULL ? NULL
                      : (sched_g *)(void *)((char *)node - offsetof(sched_g, run_node));
}

llgo_g *llgo_current_g(void) { return sched.current == NULL ? NULL : &sched.current->g; }

/* The failure paths are out of line (noinline, cold), so the switch points
 * stay small: fewer locals for Asyncify to save and no C stack frame. */
#define LLGO_COLD __attribute__((noinline, cold))

static LLGO_COLD _Noreturn void die_outside_a_goroutine(const char *operation) {
  llgo_fatalf("%s called outside a goroutine (run the program through llgo_run_main)",
              operation);
}

static sched_g *running_or_die(const char *operation) {
  if (sched.current == NULL) {
    die_outside_a_goroutine(operation);
  }
  return sched.current;
}

static LLGO_COLD _Noreturn void die_of_refused_enqueue(sched_g *gp, llgo_runqueue_result result) {
  llgo_fatalf("run queue refused goroutine %llu: %s", (unsigned long long)gp->g.id,
              llgo_runqueue_result_name(result));
}

static void enqueue(sched_g *gp) {
  llgo_runqueue_result result = llgo_runqueue_push(&sched.run_queue, &gp->run_node);
  if (result != LLGO_RUNQUEUE_OK) {
    die_of_refused_enqueue(gp, result);
  }
}

static sched_g *dequeue(void) { return sched_g_of_node(llgo_runqueue_pop(&sched.run_queue)); }

static LLGO_COLD _Noreturn void die_of_deadlock(void) {
  if (llgo_live_g_count() == 0 && llgo_main_called_goexit()) {
    llgo_fatal(LLGO_DEADLOCK_MAIN_GOEXIT);
  }
  llgo_fatal(LLGO_DEADLOCK_ASLEEP);
}

static LLGO_COLD _Noreturn void die_of_context_failure(uint64_t id,
                                                       llgo_wasmcontext_result result) {
  llgo_fatalf("goroutine %llu: %s", (unsigned long long)id, llgo_wasmcontext_result_name(result));
}

static LLGO_COLD _Noreturn void die_resuming_dead(sched_g *gp) {
  llgo_fatalf("attempt to resume dead goroutine %llu", (unsigned long long)gp->g.id);
}

#ifdef LLGO_WASMCONTEXT_HANDOFF
/* The goroutine the host loop would resume next, taken from the queue, when the host loop would
 * do nothing else in between: no collection pending (gc_switch_out's goroutine then runs first),
 * and the dispatch that `self` ends is not the one that fires the tick (count_dispatch). It
 * counts that dispatch, as the host loop does after a goroutine gives control back. NULL: give
 * control back to the host loop. */
static inline __attribute__((always_inline)) sched_g *handoff_target(void) {
  if (sched.gc_pending != NULL || sched.resume_first != NULL || sched.run_queue.head == NULL) {
    return NULL;
  }
  if (sched.tick_hook != NULL) {
    if (sched.dispatches_to_tick <= 1) {
      return NULL;
    }
    sched.dispatches_to_tick--;
  }
  return dequeue();
}
#endif

/* Gives control back to the host loop, or with a hand-off to the next goroutine; returns when
 * the loop (or a hand-off) resumes `self` (under Asyncify it returns at once, unwinding: the
 * switch point that called it returns, and is called again by the rewind - see wasmcontext.h's
 * "a switch point's own frame"). The last thing a switch point does. */
static inline __attribute__((always_inline)) void suspend(sched_g *self) {
#ifdef LLGO_WASMCONTEXT_HANDOFF
  sched_g *next = handoff_target();
  if (next != NULL) {
    /* What run() does to the goroutine it resumes. */
    if (llgo_g_status_of(&next->g) == LLGO_G_DEAD) {
      die_resuming_dead(next);
    }
    llgo_casgstatus(&next->g, LLGO_G_RUNNABLE, LLGO_G_RUNNING);
    sched.current = next;
    if (next != self) {
      sched.handoffs++;
      llgo_wasmcontext_result result = llgo_wasmcontext_handoff(&self->context, &next->context);
      if (result != LLGO_WASMCONTEXT_OK) {
        die_of_context_failure(self->g.id, result);
      }
    }
    return;
  }
#endif
  llgo_wasmcontext_result result = llgo_wasmcontext_suspend_here(&self->context);
  if (result != LLGO_WASMCONTEXT_OK) {
    die_of_context_failure(self->g.id, result);
  }
}

/* ---- goroutine records ---- */

static void pool(sched_g *gp) {
  gp->free_next = sched.free_pool;
  sched.free_pool = gp;
  sched.free_pool_length++;
}

/* Gives `gp` a context of `stack_size` running fn(arg), reusing the one it has
 * if the size matches. */
static void prepare_context(sched_g *gp, llgo_go_fn fn, void *arg, size_t stack_size, int reused) {
  if (reused && gp->requested_stack_size == stack_size &&
      llgo_wasmcontext_rearm(&gp->context, fn, arg) == LLGO_WASMCONTEXT_OK) {
    return;
  }
  if (reused) {
    llgo_wasmcontext_destroy(&gp->context);
  }
  llgo_wasmcontext_result result = llgo_wasmcontext_create(&gp->context, fn, arg, stack_size);
  if (result != LLGO_WASMCONTEXT_OK) {
    llgo_fatalf("cannot create goroutine %llu (stack %zu bytes): %s",
                (unsigned long long)gp->g.id, stack_size, llgo_wasmcontext_result_name(result));
  }
  gp->requested_stack_size = stack_size;
  sched.contexts_created++;
}

static sched_g *newproc(llgo_go_fn fn, void *arg, size_t stack_size, int is_main) {
  if (!sched.started) {
    llgo_fatal("llgo_go called before llgo_run_main (goroutines need the scheduler)");
  }
  if (stack_size < LLGO_WASMCONTEXT_MIN_STACK_SIZE) {
    stack_size = LLGO_WASMCONTEXT_MIN_STACK_SIZE;
  }
  if (stack_size > llgo_wasmcontext_max_stack_size()) {
    llgo_fatalf("llgo_go_stack: a %zu-byte stack is more than a goroutine can have here "
                "(at most %zu bytes)",
                stack_size, llgo_wasmcontext_max_stack_size());
  }
  sched_g *gp = sched.free_pool;
  int reused = gp != NULL;
  if (reused) {
    sched.free_pool = gp->free_next;
    sched.free_pool_length--;
    llgo_casgstatus(&gp->g, LLGO_G_DEAD, LLGO_G_IDLE);
  } else {
    gp = llgo_platform_alloc(sizeof *gp, NULL);
    if (gp == NULL) {
      llgo_fatal("out of memory allocating a goroutine");
    }
    memset(gp, 0, sizeof *gp);
    gp->all_next = sched.all_goroutines;
    sched.all_goroutines = gp;
  }
  llgo_g_init(&gp->g, fn, arg, is_main);
  prepare_context(gp, fn, arg, stack_size, reused);
  llgo_live_g_started();
  llgo_casgstatus(&gp->g, LLGO_G_IDLE, LLGO_G_RUNNABLE);
  enqueue(gp);
  return gp;
}

void llgo_go(llgo_go_fn fn, void *arg) { newproc(fn, arg, sched.goroutine_stack_size, 0); }

void llgo_go_stack(llgo_go_fn fn, void *arg, size_t stack_size) {
  newproc(fn, arg, stack_size, 0);
}

/* ---- switch points (the one scheduler frame of a switch) ---- */

/* One more dispatch toward the tick; the hook every LLGO_SCHED_TICK_DISPATCHES. */
static void count_dispatch(void) {
  if (sched.tick_hook != NULL && --sched.dispatches_to_tick == 0) {
    sched.dispatches_to_tick = LLGO_SCHED_TICK_DISPATCHES;
    sched.tick_hook();
  }
}

/* A Gosched with nobody else to run counts as a dispatch too, so a goroutine
 * that only yields, alone, still lets the tick fire its timers. Out of line:
 * the hook is an indirect call, kept off the switch path. */
static LLGO_COLD int gosched_alone(void) {
  count_dispatch();
  return sched.run_queue.head == NULL;
}

LLGO_WASMCONTEXT_SWITCH_POINT void llgo_gosched(void) {
  LLGO_WASMCONTEXT_RETURN_IF_RESUMED();
  sched_g *self = running_or_die("llgo_gosched");
  if (sched.run_queue.head == NULL && gosched_alone()) {
    return; /* nothing else to run: keep going */
  }
  llgo_casgstatus(&self->g, LLGO_G_RUNNING, LLGO_G_RUNNABLE);
  enqueue(self);
  suspend(self);
}

/* Inlined into both switch points below, so each is one frame. */
static inline __attribute__((always_inline)) void park_running(void) {
  LLGO_WASMCONTEXT_RETURN_IF_RESUMED();
  sched_g *self = running_or_die("llgo_park");
  llgo_casgstatus(&self->g, LLGO_G_RUNNING, LLGO_G_WAITING);
  suspend(self);
}

LLGO_WASMCONTEXT_SWITCH_POINT void llgo_park(void) { park_running(); }

/* blocking.h: on one worker the runtime lock is nothing, so this is llgo_park,
 * inlined rather than called: a goroutine parked on a channel, select or
 * semaphore has one scheduler frame on its stack, not two. */
LLGO_WASMCONTEXT_SWITCH_POINT void llgo_park_unlock(void) { park_running(); }

void llgo_ready(llgo_g *g) {
  if (g == NULL) {
    llgo_fatal("llgo_ready: NULL goroutine");
  }
  llgo_casgstatus(g, LLGO_G_WAITING, LLGO_G_RUNNABLE);
  enqueue(sched_g_of(g));
}

/* panic.c: a Goexit ran every deferred call of the running goroutine. */
_Noreturn void llgo_goroutine_exit(llgo_g *g) {
  sched_g *self = sched_g_of(g);
  llgo_casgstatus(&self->g, LLGO_G_RUNNING, LLGO_G_DEAD);
  llgo_live_g_exited(self->g.is_main);
  llgo_wasmcontext_exit(&self->context);
  llgo_fatalf("resumed dead goroutine %llu", (unsigned long long)self->g.id); // LCOV_EXCL_LINE
}

/* ---- garbage collection: the safepoint (gc.h, docs/gc.md) ---- */

/* The running goroutine switches out so that the host loop can collect: under Asyncify the
 * unwind stores every instrumented frame's locals in its save area, natively the switch pushes
 * the callee-saved registers. It is runnable again at once and resumed before the queue. */
static LLGO_WASMCONTEXT_SWITCH_POINT void gc_switch_out(void) {
  LLGO_WASMCONTEXT_RETURN_IF_RESUMED();
  sched_g *self = sched.current;
  llgo_casgstatus(&self->g, LLGO_G_RUNNING, LLGO_G_RUNNABLE);
  sched.resume_first = self;
  suspend(self);
}

int llgo_gc_at_safepoint(void (*collect)(void)) {
  sched.gc_pending = collect;
  if (sched.current == NULL) {
    /* The host (a timer function or a host callback that allocates): after the next switch. No
     * test allocates on the host (a request made before llgo_run_main is dropped when the
     * scheduler starts, so such a case cannot be written yet), hence the exclusion. */
    return 0; /* LCOV_EXCL_LINE */
  }
  gc_switch_out();
  return 1;
}

/* On the host, right after a goroutine gave control back: no goroutine runs. */
static void run_pending_collection(void) {
  void (*collect)(void) = sched.gc_pending;
  if (collect != NULL) {
    sched.gc_pending = NULL;
    collect();
  }
}

void llgo_sched_gc_goroutine_roots(llgo_gc_root_fn fn, void *ctx) {
  for (sched_g *gp = sched.all_goroutines; gp != NULL; gp = gp->all_next) {
    int status = llgo_g_status_of(&gp->g);
    if (status == LLGO_G_DEAD || status == LLGO_G_IDLE) {
      continue; /* pooled: its stack and records hold nothing of the program */
    }
    llgo_wasmcontext_for_each_range(&gp->context, fn, ctx);
    llgo_g_gc_roots(&gp->g, fn, ctx);
  }
}

/* ---- the host loop ---- */

/* Runs `gp` until it (or, after hand-offs, the goroutine it handed control to) gives control
 * back, then settles that goroutine's record. */
static void run(sched_g *gp) {
  if (llgo_g_status_of(&gp->g) == LLGO_G_DEAD) {
    die_resuming_dead(gp);
  }
  llgo_casgstatus(&gp->g, LLGO_G_RUNNABLE, LLGO_G_RUNNING);
  sched.current = gp;
  llgo_wasmcontext_result result = llgo_wasmcontext_resume(&gp->context);
  gp = sched.current; /* the goroutine that gave control back (another after hand-offs) */
  sched.current = NULL;
  int status = llgo_g_status_of(&gp->g);
  if (result == LLGO_WASMCONTEXT_RETURNED && status == LLGO_G_RUNNING) {
    /* Its function returned. */
    if (gp->g.is_main) {
      sched.main_returned = 1; /* the program ends with main's status, whatever is left */
      return;
    }
    llgo_casgstatus(&gp->g, LLGO_G_RUNNING, LLGO_G_DEAD);
    llgo_live_g_exited(0);
    status = LLGO_G_DEAD;
  } else if (result != LLGO_WASMCONTEXT_OK && result != LLGO_WASMCONTEXT_RETURNED) {
    die_of_context_failure(gp->g.id, result);
  }
  if (status == LLGO_G_DEAD) {
    llgo_g_clear_panics(&gp->g);
    pool(gp); /* execution has left its stack */
  }
}

/* dispatch_batch's "not done yet" (every llgo_sched_state is >= 0). */
#define SCHED_KEEP_GOING (-1)

/* Up to LLGO_SCHED_TICK_DISPATCHES dispatches of the host loop; returns
 * SCHED_KEEP_GOING, or the llgo_sched_state llgo_sched_run returns. The loop is
 * cut in batches so that no single call of it lasts the whole program: an engine
 * gives a function its optimised code for later calls only (V8 has no
 * on-stack replacement for wasm, so a loop entered once at start-up would run
 * its baseline-compiled code to the end). It must not be inlined into
 * llgo_sched_run; the two calls there keep Binaryen's inliner from doing so. */
static __attribute__((noinline)) int dispatch_batch(void) {
  for (unsigned n = 0; n < LLGO_SCHED_TICK_DISPATCHES; n++) {
    if (sched.main_returned) {
      return LLGO_SCHED_MAIN_RETURNED;
    }
    sched_g *next = sched.resume_first;
    if (next != NULL) {
      sched.resume_first = NULL;
    } else {
      next = dequeue();
    }
    if (next == NULL) {
      llgo_sched_idle_action action =
          sched.idle_hook == NULL ? LLGO_SCHED_IDLE_DEADLOCK : sched.idle_hook();
      if (action == LLGO_SCHED_IDLE_RUN_AGAIN) {
        continue;
      }
      if (action == LLGO_SCHED_IDLE_RETURN_TO_HOST) {
        return LLGO_SCHED_IDLE;
      }
      die_of_deadlock();
    }
    run(next);
#ifndef LLGO_NO_GC_SAFEPOINT /* bench/corpus's baseline: what the safepoint costs (docs/gc.md) */
    run_pending_collection();
#endif
    if (!sched.main_returned) {
      count_dispatch();
    }
  }
  return SCHED_KEEP_GOING;
}

llgo_sched_state llgo_sched_run(void) {
  sched.p_status = LLGO_P_RUNNING;
  int state = dispatch_batch();
  while (state == SCHED_KEEP_GOING) {
    state = dispatch_batch();
  }
  sched.p_status = LLGO_P_IDLE;
  return (llgo_sched_state)state;
}

void llgo_sched_set_idle_hook(llgo_sched_idle_hook hook) { sched.idle_hook = hook; }

void llgo_sched_set_tick_hook(llgo_sched_tick_hook hook) {
  sched.tick_hook = hook;
  sched.dispatches_to_tick = LLGO_SCHED_TICK_DISPATCHES;
}

int llgo_sched_main_status(void) { return sched.main_status; }

static void run_program_main(void *unused) {
  (void)unused;
  sched.main_status = sched.main_fn(sched.argc, sched.argv);
}

void llgo_sched_start(int (*main_fn)(int argc, char **argv), int argc, char **argv) {
  if (sched.started) {
    llgo_fatal("llgo_run_main called twice (it runs the program once per process)");
  }
  sched.started = 1;
  sched.main_fn = main_fn;
  sched.argc = argc;
  sched.argv = argv;
  llgo_runqueue_init(&sched.run_queue);
  sched.m_id = llgo_next_m_id();
  sched.p_id = llgo_next_p_id();
  const int shared = llgo_wasmcontext_describe()->stacks == LLGO_WASMCONTEXT_SHARED_STACKS;
  sched.goroutine_stack_size = llgo_goroutine_stack_size(shared);
  size_t main_stack_size = llgo_main_stack_size(shared);
  llgo_wasmcontext_allocator allocator = {llgo_platform_alloc, llgo_platform_free, NULL};
  llgo_wasmcontext_result result = llgo_wasmcontext_init(main_stack_size, &allocator);
  if (result != LLGO_WASMCONTEXT_OK) {
    /* An allocation failure (tests/harness/check_alloc_faults.py), or a program's size no
     * address space holds. */
    llgo_fatalf("cannot set up goroutine stacks (%zu bytes): %s", main_stack_size,
                llgo_wasmcontext_result_name(result));
  }
  newproc(run_program_main, NULL, main_stack_size, 1);
}

int llgo_run_main(int (*main_fn)(int argc, char **argv), int argc, char **argv) {
  llgo_sched_start(main_fn, argc, argv);
  if (llgo_sched_run() == LLGO_SCHED_IDLE) {
    return llgo_platform_leave_to_host();
  }
  return llgo_platform_main_returned(sched.main_status);
}

/* ---- test hooks ---- */

uint64_t llgo_test_m_id(void) { return sched.m_id; }
int64_t llgo_test_p_id(void) { return sched.p_id; }
int llgo_test_p_status(void) { return sched.p_status; }
size_t llgo_test_runqueue_len(void) { return llgo_runqueue_length(&sched.run_queue); }
uint64_t llgo_test_live_g_count(void) { return llgo_live_g_count(); }
size_t llgo_test_context_pool_len(void) { return sched.free_pool_length; }
uint64_t llgo_test_contexts_created(void) { return sched.contexts_created; }
uint64_t llgo_test_handoffs(void) { return sched.handoffs; }

void llgo_test_smash_stack_canary(void) {
  llgo_wasmcontext_smash_stack_canary(&running_or_die("llgo_test_smash_stack_canary")->context);
}

void llgo_test_overflow_asyncify_area(void) {
  llgo_wasmcontext_inject_save_overflow(
      &running_or_die("llgo_test_overflow_asyncify_area")->context);
}

size_t llgo_test_stack_size(void) {
  return llgo_wasmcontext_stack_size(&running_or_die("llgo_test_stack_size")->context);
}

unsigned char *llgo_test_stack_floor(size_t *bytes) {
  return llgo_wasmcontext_floor(&running_or_die("llgo_test_stack_floor")->context, bytes);
}

size_t llgo_test_parked_stack_bytes(void) {
  size_t held = 0;
  for (sched_g *gp = sched.all_goroutines; gp != NULL; gp = gp->all_next) {
    if (llgo_g_status_of(&gp->g) == LLGO_G_WAITING) held += llgo_wasmcontext_held_bytes(&gp->context);
  }
  return held;
}

void llgo_test_enqueue_unchecked(llgo_g *g) { enqueue(sched_g_of(g)); }
