//llgo:build !llgo.context_pthread
/*
 * scheduler.c - the single-worker scheduler: one M, one P, a FIFO run queue of
 * goroutines, each with its own execution context (wasmcontext). It does not
 * know which context backend runs underneath (Asyncify, Emscripten Fiber or
 * ucontext): it only calls llgo_wasmcontext_*.
 *
 * The host (llgo_run_main) stays on the system stack and switches to main,
 * the first goroutine. Goroutines switch cooperatively in Gosched, park and
 * exit. A goroutine that exits is "retired": its context cannot be reused
 * while execution is still on its stack, so the next goroutine to run puts it
 * in the free pool (after_resume). Dead records and their contexts are reused
 * by later llgo_go calls (no allocation when the stack size matches).
 * Every switch checks the contexts' canaries: an overflow is fatal and names
 * the goroutine. Limits: no preemption, timers or host events; the pool keeps
 * as many records as were ever live at once.
 */
#include "scheduler.h"

#include "gstate.h"
#include "runqueue.h"
#include "wasmcontext.h"

#include <stddef.h>
#include <string.h>

/* Main runs package init and user code: give it more room than a goroutine. */
#define LLGO_MAIN_STACK_SIZE ((size_t)256 * 1024)
/* The save area holds the locals of a suspended call chain, which grows with
 * stack use: give it as many bytes as the stack (64 KiB each by default). */
#define LLGO_ASYNCIFY_AREA_SIZE(stack_size) (stack_size)

typedef struct sched_g {
  llgo_g g; /* must be first: an llgo_g* is a sched_g* */
  llgo_runqueue_node run_node;
  llgo_wasmcontext context;
  size_t requested_stack_size;
  struct sched_g *free_next; /* link in the pool of dead records */
  struct sched_g *all_next;  /* link in the list of every record (Go's allgs) */
} sched_g;

static struct {
  int started;                /* llgo_run_main was called */
  llgo_wasmcontext host;      /* the system stack */
  sched_g *current;           /* the running goroutine, NULL on the host */
  uint64_t current_id;        /* its id, kept outside the record: an overflowing
                                 stack may have overwritten the record */
  sched_g *previous;          /* the goroutine that switched to the current one */
  uint64_t previous_id;
  sched_g *retired;           /* exited; its stack may still be in use */
  llgo_runqueue run_queue;
  sched_g *free_pool;
  size_t free_pool_length;
  sched_g *main_g;
  sched_g *all_goroutines; /* every record ever made; records are pooled, never freed */
  uint64_t contexts_created;
  uint64_t m_id;
  int64_t p_id;
  int p_status;
  int (*main_fn)(int, char **);
  int argc;
  char **argv;
  int main_status;
} sched;

static sched_g *sched_g_of(llgo_g *g) { return (sched_g *)(void *)g; }

static sched_g *sched_g_of_node(llgo_runqueue_node *node) {
  return node == NULL ? NULL
                      : (sched_g *)(void *)((char *)node - offsetof(sched_g, run_node));
}

llgo_g *llgo_current_g(void) { return sched.current == NULL ? NULL : &sched.current->g; }

static sched_g *running_or_die(const char *operation) {
  if (sched.current == NULL) {
    llgo_fatalf("%s called outside a goroutine (run the program through llgo_run_main)",
                operation);
  }
  return sched.current;
}

static void check_context(const sched_g *gp, uint64_t id);

/* The running goroutine, after checking its stack canary: done before any
 * scheduling step touches state, so an overflow is reported as such. */
static sched_g *running_checked(const char *operation) {
  sched_g *self = running_or_die(operation);
  check_context(self, sched.current_id);
  return self;
}

static void enqueue(sched_g *gp) {
  llgo_runqueue_result result = llgo_runqueue_push(&sched.run_queue, &gp->run_node);
  if (result != LLGO_RUNQUEUE_OK) {
    llgo_fatalf("run queue refused goroutine %llu: %s", (unsigned long long)gp->g.id,
                llgo_runqueue_result_name(result));
  }
}

static _Noreturn void die_of_deadlock(void) {
  if (llgo_live_g_count() == 0 && llgo_main_called_goexit()) {
    llgo_fatal(LLGO_DEADLOCK_MAIN_GOEXIT);
  }
  llgo_fatal(LLGO_DEADLOCK_ASLEEP);
}

static void check_context(const sched_g *gp, uint64_t id) {
  llgo_wasmcontext_result result = llgo_wasmcontext_check(&gp->context);
  if (result != LLGO_WASMCONTEXT_OK) {
    llgo_fatalf("goroutine %llu: %s", (unsigned long long)id,
                llgo_wasmcontext_result_name(result));
  }
}

/* Runs first on every resumed or newly started goroutine (and on the host
 * when main returns): execution has left the previous goroutine's stack, so
 * its storage can be checked and, if it exited, pooled. */
static void after_resume(void) {
  if (sched.previous != NULL) {
    check_context(sched.previous, sched.previous_id);
    sched.previous = NULL;
  }
  sched_g *dead = sched.retired;
  if (dead != NULL) {
    sched.retired = NULL;
    dead->free_next = sched.free_pool;
    sched.free_pool = dead;
    sched.free_pool_length++;
  }
}

/* Switches from `self` (whose new status is already set, and whose context
 * the caller checked first) to `next`, taken from the run queue. Returns when
 * `self` is resumed. */
static void switch_to(sched_g *self, sched_g *next) {
  if (llgo_test_g_status(&next->g) == LLGO_G_DEAD) {
    llgo_fatalf("attempt to resume dead goroutine %llu", (unsigned long long)next->g.id);
  }
  llgo_casgstatus(&next->g, LLGO_G_RUNNABLE, LLGO_G_RUNNING);
  sched.previous = self;
  sched.previous_id = sched.current_id;
  sched.current = next;
  sched.current_id = next->g.id;
  llgo_wasmcontext_result result = llgo_wasmcontext_switch(&self->context, &next->context);
  if (result != LLGO_WASMCONTEXT_OK) {
    llgo_fatalf("switch from goroutine %llu: %s", (unsigned long long)self->g.id, // LCOV_EXCL_LINE
                llgo_wasmcontext_result_name(result)); // LCOV_EXCL_LINE
  }
  after_resume();
}

static sched_g *dequeue(void) { return sched_g_of_node(llgo_runqueue_pop(&sched.run_queue)); }

static void goroutine_entry(void *arg);

/* Gives `gp` a context of `stack_size`, reusing the one it has if it fits. */
static void prepare_context(sched_g *gp, size_t stack_size, int reused) {
  if (reused && gp->requested_stack_size == stack_size) {
    if (llgo_wasmcontext_rearm(&gp->context, goroutine_entry, gp) == LLGO_WASMCONTEXT_OK) {
      return;
    }
  }
  if (reused) {
    llgo_wasmcontext_destroy(&gp->context, llgo_platform_free, NULL);
  }
  llgo_wasmcontext_result result =
      llgo_wasmcontext_create(&gp->context, goroutine_entry, gp, stack_size,
                              LLGO_ASYNCIFY_AREA_SIZE(stack_size), llgo_platform_alloc,
                              llgo_platform_free, NULL);
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
  prepare_context(gp, stack_size, reused);
  llgo_live_g_started();
  llgo_casgstatus(&gp->g, LLGO_G_IDLE, LLGO_G_RUNNABLE);
  enqueue(gp);
  return gp;
}

void llgo_go(llgo_go_fn fn, void *arg) { newproc(fn, arg, LLGO_DEFAULT_STACK_SIZE, 0); }

void llgo_go_stack(llgo_go_fn fn, void *arg, size_t stack_size) {
  newproc(fn, arg, stack_size, 0);
}

void llgo_gosched(void) {
  sched_g *self = running_checked("llgo_gosched");
  sched_g *next = dequeue();
  if (next == NULL) {
    return; /* nothing else to run: keep going */
  }
  llgo_casgstatus(&self->g, LLGO_G_RUNNING, LLGO_G_RUNNABLE);
  enqueue(self);
  switch_to(self, next);
}

void llgo_park(void) {
  sched_g *self = running_checked("llgo_park");
  llgo_casgstatus(&self->g, LLGO_G_RUNNING, LLGO_G_WAITING);
  sched_g *next = dequeue();
  if (next == NULL) {
    die_of_deadlock();
  }
  switch_to(self, next);
}

void llgo_ready(llgo_g *g) {
  if (g == NULL) {
    llgo_fatal("llgo_ready: NULL goroutine");
  }
  llgo_casgstatus(g, LLGO_G_WAITING, LLGO_G_RUNNABLE);
  enqueue(sched_g_of(g));
}

/* Ends the running goroutine and never returns: the next one runs, and this
 * record is pooled once execution has left its stack. */
static _Noreturn void exit_running(sched_g *self, int main_called_goexit) {
  check_context(self, sched.current_id);
  llgo_casgstatus(&self->g, LLGO_G_RUNNING, LLGO_G_DEAD);
  llgo_live_g_exited(main_called_goexit);
  sched_g *next = dequeue();
  if (next == NULL) {
    die_of_deadlock();
  }
  sched.retired = self;
  switch_to(self, next);
  /* Nothing switches to a retired context: it is re-armed before reuse. */
  llgo_fatalf("resumed dead goroutine %llu", (unsigned long long)self->g.id); // LCOV_EXCL_LINE
}

/* The first function on every goroutine's stack. */
static void goroutine_entry(void *arg) {
  sched_g *self = arg;
  after_resume();
  int ended_by_goexit = llgo_g_run_body(&self->g);
  if (self->g.is_main && !ended_by_goexit) {
    /* main returned: the program ends with its status, whatever else is left. */
    check_context(self, sched.current_id);
    sched.previous = self;
    sched.previous_id = sched.current_id;
    sched.current = NULL;
    llgo_wasmcontext_switch(&self->context, &sched.host);
    llgo_fatal("the main goroutine was resumed after it returned"); // LCOV_EXCL_LINE
  }
  exit_running(self, self->g.is_main);
}

static void run_program_main(void *unused) {
  (void)unused;
  sched.main_status = sched.main_fn(sched.argc, sched.argv);
}

int llgo_run_main(int (*main_fn)(int argc, char **argv), int argc, char **argv) {
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
  if (llgo_wasmcontext_init_main(&sched.host) != LLGO_WASMCONTEXT_OK) {
    llgo_fatal("cannot initialise the host execution context"); // LCOV_EXCL_LINE
  }
  sched.main_g = newproc(run_program_main, NULL, LLGO_MAIN_STACK_SIZE, 1);
  sched_g *first = dequeue();
  llgo_casgstatus(&first->g, LLGO_G_RUNNABLE, LLGO_G_RUNNING);
  sched.current = first;
  sched.current_id = first->g.id;
  sched.p_status = LLGO_P_RUNNING;
  llgo_wasmcontext_result result = llgo_wasmcontext_switch(&sched.host, &first->context);
  if (result != LLGO_WASMCONTEXT_OK) {
    llgo_fatalf("cannot start the main goroutine: %s", // LCOV_EXCL_LINE
                llgo_wasmcontext_result_name(result)); // LCOV_EXCL_LINE
  }
  after_resume();
  sched.p_status = LLGO_P_IDLE;
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

void llgo_test_smash_stack_canary(void) {
  llgo_wasmcontext_smash_stack_canary(&running_or_die("llgo_test_smash_stack_canary")->context);
}

void llgo_test_overflow_asyncify_area(void) {
  llgo_wasmcontext_overflow_asyncify_area(
      &running_or_die("llgo_test_overflow_asyncify_area")->context);
}

void llgo_test_enqueue_unchecked(llgo_g *g) { enqueue(sched_g_of(g)); }
