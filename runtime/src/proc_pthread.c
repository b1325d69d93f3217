//llgo:build llgo.context_pthread
/*
 * proc_pthread.c - the 1:1 scheduler backend (P1T with wasi-threads, and
 * native): every goroutine is its own thread, with its own M and P ids, so
 * goroutines run in parallel when the host allows it.
 *
 * Park and ready use a mutex and condition variable per goroutine; a ready
 * that arrives before the matching park is remembered, so park returns at
 * once. Gosched is sched_yield(): backend-dependent, a hint to the OS, not a
 * handoff. Deadlock detection counts goroutines that are neither dead nor
 * parked: when the last one parks or exits, it is the same fatal error as on
 * the single-worker scheduler; pending timers count as one more running
 * goroutine (llgo_pthread_hold_activity).
 * Stacks (stack_size.h, wasmcontext_stack_guard.h): a goroutine's thread gets the
 * size it asked for (main: at least the target's default-stack-size) plus room for
 * the floor, the guard and what the thread's start used; the lowest part of the
 * thread's stack is the floor, natively followed by guard pages, and an overflow
 * is reported as Go's stack overflow when it happens (wasi-threads: the link's
 * check against the thread's guard global; natively: a fault in the guard pages).
 * The report names the size the goroutine asked for.
 * Limits: thread stacks are at least 128 KiB; a finished goroutine's record is
 * freed, so readying it afterwards is a bug (as in Go); there is no run queue and
 * no context pool.
 */
#define _GNU_SOURCE
#include "blocking.h"
#include "gstate.h"
#include "runtime_alloc.h"
#include "stack_size.h"
#include "wasmcontext_stack_guard.h"

#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define LLGO_PTHREAD_MIN_STACK_SIZE ((size_t)128 * 1024)
/* Larger requests are refused outright: no address space can hold them. */
#define LLGO_PTHREAD_MAX_STACK_SIZE ((SIZE_MAX / 4) & ~(size_t)15)
/* Bytes of a thread's stack above the first frame of thread_main (wasi-libc's thread start), at
 * most; the stack's low end is found from there under wasi-threads. */
#define LLGO_PTHREAD_START_FRAMES ((size_t)4096)

typedef struct pthread_g {
  llgo_g g; /* must be first */
  pthread_mutex_t lock;
  pthread_cond_t wake;
  int wake_pending; /* a ready arrived while the goroutine was still running */
  jmp_buf exit_jump; /* where llgo_goroutine_exit leaves the goroutine's frames */
  uint64_t m_id;
  int64_t p_id;
  size_t stack_size;    /* what the goroutine asked for (the overflow report names it) */
  size_t thread_stack;  /* what its thread was given */
  unsigned char *guard; /* natively: its guard pages, or NULL */
  struct pthread_g *all_previous, *all_next; /* the list of live records (Go's allgs) */
} pthread_g;

static _Thread_local pthread_g *current;
static _Atomic long active_goroutines; /* live and not parked */
static pthread_mutex_t main_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t main_returned = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t all_goroutines_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_g *all_goroutines;
static int main_done;
static int main_status;
static int started;
static int (*program_main)(int, char **);
static int program_argc;
static char **program_argv;

llgo_g *llgo_current_g(void) { return current == NULL ? NULL : &current->g; }

static _Noreturn void die_of_deadlock(void) {
  if (llgo_live_g_count() == 0 && llgo_main_called_goexit()) {
    llgo_fatal(LLGO_DEADLOCK_MAIN_GOEXIT);
  }
  llgo_fatal(LLGO_DEADLOCK_ASLEEP);
}

/* Timers count as one running goroutine while any is pending (blocking_pthread.c):
 * goroutines parked on a timer are not a deadlock. */
void llgo_pthread_hold_activity(void) { atomic_fetch_add(&active_goroutines, 1); }

void llgo_pthread_release_activity(void) {
  if (atomic_fetch_sub(&active_goroutines, 1) == 1) {
    die_of_deadlock();
  }
}

static pthread_g *running_or_die(const char *operation) {
  if (current == NULL) {
    llgo_fatalf("%s called outside a goroutine (run the program through llgo_run_main)",
                operation);
  }
  return current;
}

/* Guards the running thread's stack below its limit (see the top of this file). */
static void guard_thread_stack(pthread_g *self) {
#ifdef __wasm__
  /* No pthread_getattr_np in wasi-libc: the stack ends thread_stack bytes below its top, and its
   * top is at most LLGO_PTHREAD_START_FRAMES above this frame. */
  unsigned char *here = __builtin_frame_address(0);
  unsigned char *low = here + LLGO_PTHREAD_START_FRAMES - self->thread_stack;
  llgo_stack_guard_thread_stack(low, self->thread_stack - LLGO_PTHREAD_START_FRAMES);
  llgo_wasmcontext_running_stack_size = self->stack_size;
#else
  pthread_attr_t attributes;
  void *low = NULL;
  size_t size = 0;
  if (llgo_stack_guard_thread_start() != 0 || pthread_getattr_np(pthread_self(), &attributes) != 0) {
    return; /* LCOV_EXCL_LINE: the thread keeps the system's own guard */
  }
  pthread_attr_getstack(&attributes, &low, &size);
  pthread_attr_destroy(&attributes);
  size_t page = llgo_stack_guard_page_size();
  unsigned char *guard = (unsigned char *)(((uintptr_t)low + LLGO_STACK_FLOOR_BYTES + page - 1) & ~(uintptr_t)(page - 1));
  if (llgo_stack_guard_protect(guard) == 0) {
    self->guard = guard;
    llgo_stack_guard_enter(guard, self->stack_size);
  }
#endif
}

static void unguard_thread_stack(pthread_g *self) {
#ifndef __wasm__
  if (self->guard != NULL) {
    llgo_stack_guard_unprotect(self->guard); /* glibc reuses the stacks of ended threads */
  }
  llgo_stack_guard_thread_end();
#else
  (void)self;
#endif
}

static void *thread_main(void *arg) {
  pthread_g *self = arg;
  guard_thread_stack(self);
  current = self;
  self->m_id = llgo_next_m_id();
  self->p_id = llgo_next_p_id();
  llgo_casgstatus(&self->g, LLGO_G_RUNNABLE, LLGO_G_RUNNING);
  volatile int ended_by_goexit = 0;
  if (setjmp(self->exit_jump) == 0) {
    self->g.fn(self->g.arg);
  } else {
    ended_by_goexit = 1;
  }
  if (self->g.is_main && !ended_by_goexit) {
    pthread_mutex_lock(&main_lock);
    main_done = 1;
    pthread_cond_signal(&main_returned);
    pthread_mutex_unlock(&main_lock);
    unguard_thread_stack(self);
    return NULL; /* the host returns main's status; the process ends */
  }
  llgo_casgstatus(&self->g, LLGO_G_RUNNING, LLGO_G_DEAD);
  llgo_live_g_exited(self->g.is_main);
  current = NULL;
  pthread_mutex_lock(&all_goroutines_lock);
  if (self->all_previous != NULL) {
    self->all_previous->all_next = self->all_next;
  } else {
    all_goroutines = self->all_next;
  }
  if (self->all_next != NULL) {
    self->all_next->all_previous = self->all_previous;
  }
  pthread_mutex_unlock(&all_goroutines_lock);
  pthread_mutex_destroy(&self->lock);
  pthread_cond_destroy(&self->wake);
  unguard_thread_stack(self);
  llgo_runtime_free(self);
  if (atomic_fetch_sub(&active_goroutines, 1) == 1) {
    die_of_deadlock();
  }
  return NULL;
}

_Noreturn void llgo_goroutine_exit(llgo_g *g) {
  longjmp(((pthread_g *)(void *)g)->exit_jump, 1);
}

static void newproc(llgo_go_fn fn, void *arg, size_t stack_size, int is_main) {
  if (!started) {
    llgo_fatal("llgo_go called before llgo_run_main (goroutines need the scheduler)");
  }
  if (stack_size > LLGO_PTHREAD_MAX_STACK_SIZE) {
    llgo_fatalf("llgo_go_stack: a %zu-byte stack is more than a goroutine can have here "
                "(at most %zu bytes)",
                stack_size, LLGO_PTHREAD_MAX_STACK_SIZE);
  }
  pthread_g *gp = llgo_runtime_alloc(sizeof *gp);
  if (gp == NULL) {
    llgo_fatal("out of memory allocating a goroutine");
  }
  memset(gp, 0, sizeof *gp);
  llgo_g_init(&gp->g, fn, arg, is_main);
  pthread_mutex_lock(&all_goroutines_lock);
  gp->all_next = all_goroutines;
  if (all_goroutines != NULL) {
    all_goroutines->all_previous = gp;
  }
  all_goroutines = gp;
  pthread_mutex_unlock(&all_goroutines_lock);
  pthread_mutex_init(&gp->lock, NULL);
  pthread_cond_init(&gp->wake, NULL);
  llgo_live_g_started();
  atomic_fetch_add(&active_goroutines, 1);
  llgo_casgstatus(&gp->g, LLGO_G_IDLE, LLGO_G_RUNNABLE);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  if (stack_size < LLGO_PTHREAD_MIN_STACK_SIZE) {
    stack_size = LLGO_PTHREAD_MIN_STACK_SIZE;
  }
  gp->stack_size = stack_size;
  /* Room for the floor and guard below the usable stack and for the thread's start above it. */
#ifdef __wasm__
  gp->thread_stack = stack_size + LLGO_STACK_FLOOR_BYTES + LLGO_PTHREAD_START_FRAMES;
#else
  gp->thread_stack = stack_size + 2 * llgo_stack_guard_page_size() + llgo_stack_guard_bytes() + 64 * 1024;
#endif
  pthread_attr_setstacksize(&attributes, gp->thread_stack);
  pthread_t thread;
  int error = pthread_create(&thread, &attributes, thread_main, gp);
  pthread_attr_destroy(&attributes);
  if (error != 0) {
    llgo_fatalf("cannot start a thread for goroutine %llu (pthread_create error %d)",
                (unsigned long long)gp->g.id, error);
  }
}

void llgo_go(llgo_go_fn fn, void *arg) { newproc(fn, arg, llgo_goroutine_stack_size(0), 0); }

void llgo_go_stack(llgo_go_fn fn, void *arg, size_t stack_size) {
  newproc(fn, arg, stack_size, 0);
}

void llgo_gosched(void) {
  running_or_die("llgo_gosched");
  sched_yield();
}

void llgo_park(void) {
  pthread_g *self = running_or_die("llgo_park");
  pthread_mutex_lock(&self->lock);
  if (self->wake_pending) {
    self->wake_pending = 0;
    pthread_mutex_unlock(&self->lock);
    return;
  }
  llgo_casgstatus(&self->g, LLGO_G_RUNNING, LLGO_G_WAITING);
  if (atomic_fetch_sub(&active_goroutines, 1) == 1) {
    die_of_deadlock();
  }
  while (llgo_test_g_status(&self->g) == LLGO_G_WAITING) {
    pthread_cond_wait(&self->wake, &self->lock);
  }
  llgo_casgstatus(&self->g, LLGO_G_RUNNABLE, LLGO_G_RUNNING);
  pthread_mutex_unlock(&self->lock);
}

void llgo_ready(llgo_g *g) {
  if (g == NULL) {
    llgo_fatal("llgo_ready: NULL goroutine");
  }
  pthread_g *gp = (pthread_g *)(void *)g;
  pthread_mutex_lock(&gp->lock);
  if (llgo_test_g_status(g) == LLGO_G_RUNNING && !gp->wake_pending) {
    gp->wake_pending = 1; /* it has not parked yet */
  } else {
    atomic_fetch_add(&active_goroutines, 1);
    llgo_casgstatus(g, LLGO_G_WAITING, LLGO_G_RUNNABLE);
    pthread_cond_signal(&gp->wake);
  }
  pthread_mutex_unlock(&gp->lock);
}

static void run_program_main(void *unused) {
  (void)unused;
  main_status = program_main(program_argc, program_argv);
}

int llgo_run_main(int (*main_fn)(int argc, char **argv), int argc, char **argv) {
  if (started) {
    llgo_fatal("llgo_run_main called twice (it runs the program once per process)");
  }
  started = 1;
  program_main = main_fn;
  program_argc = argc;
  program_argv = argv;
  newproc(run_program_main, NULL, llgo_main_stack_size(0), 1);
  pthread_mutex_lock(&main_lock);
  while (!main_done) {
    pthread_cond_wait(&main_returned, &main_lock);
  }
  pthread_mutex_unlock(&main_lock);
  return main_status;
}

uint64_t llgo_test_m_id(void) { return current == NULL ? 0 : current->m_id; }
int64_t llgo_test_p_id(void) { return current == NULL ? -1 : current->p_id; }
int llgo_test_p_status(void) { return current == NULL ? LLGO_P_IDLE : LLGO_P_RUNNING; }
size_t llgo_test_runqueue_len(void) { return 0; }
uint64_t llgo_test_live_g_count(void) { return llgo_live_g_count(); }
size_t llgo_test_context_pool_len(void) { return 0; }
uint64_t llgo_test_contexts_created(void) { return 0; }
void llgo_test_smash_stack_canary(void) {}
void llgo_test_overflow_asyncify_area(void) {}
size_t llgo_test_stack_size(void) { return running_or_die("llgo_test_stack_size")->stack_size; }

unsigned char *llgo_test_stack_floor(size_t *bytes) {
  pthread_g *self = running_or_die("llgo_test_stack_floor");
  *bytes = LLGO_STACK_FLOOR_BYTES;
#ifdef __wasm__
  (void)self;
  return (unsigned char *)llgo_wasmcontext_get_stack_guard() - LLGO_STACK_RED_ZONE - LLGO_STACK_FLOOR_BYTES;
#else
  if (self->guard == NULL) {
    *bytes = 0; /* LCOV_EXCL_LINE: the guard pages could not be set up */
    return NULL; /* LCOV_EXCL_LINE */
  }
  return self->guard - LLGO_STACK_FLOOR_BYTES;
#endif
}
size_t llgo_test_parked_stack_bytes(void) { return 0; }
