/*
 * test_scheduler.c - the whole runtime through its public API: scheduling
 * (FIFO, park/ready, Goexit), ids and statuses, panic/defer/recover, deadlock
 * and misuse deaths, overflow detection, 5,000 lifecycles and context reuse.
 *
 * llgo_run_main runs once per process, so each scenario runs in a forked child
 * (run_in_child) whose exit status, stdout and stderr are checked. The same
 * file runs against both scheduler backends; scenarios that only make sense
 * on the single worker (queue order, pools, canaries) are skipped on pthread
 * (built with LLGO_TEST_PTHREAD_BACKEND).
 */
#include "llgo_runtime.h"
#include "scenario.h"
#include "test_harness.h"

#include <stdint.h>

#ifndef LLGO_TEST_PTHREAD_BACKEND
#include "scheduler.h"
#include "wasmcontext.h"
void llgo_test_fail_allocations_after(long count);
static int shared_stacks(void) {
  return llgo_wasmcontext_describe()->stacks == LLGO_WASMCONTEXT_SHARED_STACKS;
}
#endif


/* ---- shared helpers ---- */

static llgo_g *main_g;
static volatile int finished_workers;


static void print_recovered(void *unused) {
  (void)unused;
  const char *message = llgo_recover();
  printf("recovered(%s)", message == NULL ? "nil" : message);
}

static void panic_with(void *message) { llgo_panic((const char *)message); }

/* ---- FIFO order ---- */

static void fifo_worker(void *arg) {
  char letter = (char)(intptr_t)arg;
  printf("%c", letter);
  llgo_gosched();
  printf("%c", letter - 'A' + 'a');
  if (++finished_workers == 3) {
    llgo_ready(main_g);
  }
}

static int fifo_main(int argc, char **argv) {
  REQUIRE(argc == 1 && strcmp(argv[0], "scenario") == 0);
  main_g = llgo_current_g();
  llgo_go(fifo_worker, (void *)(intptr_t)'A');
  llgo_go(fifo_worker, (void *)(intptr_t)'B');
  llgo_go(fifo_worker, (void *)(intptr_t)'C');
  REQUIRE(llgo_test_runqueue_len() == 3);
  llgo_park();
  printf("|done");
  return 0;
}

/* ---- ids, statuses, pool ---- */

static llgo_g *observed_g;
static uint64_t observed_id;
static int observed_status;

static void observe_self(void *unused) {
  (void)unused;
  observed_g = llgo_current_g();
  observed_id = llgo_test_g_id(observed_g);
  observed_status = llgo_test_g_status(observed_g);
}

static int ids_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_g *self = llgo_current_g();
  REQUIRE(llgo_test_g_id(self) == 1);
  REQUIRE(llgo_test_m_id() == 1);
  REQUIRE(llgo_test_p_id() == 0);
  REQUIRE(llgo_test_p_status() == LLGO_P_RUNNING);
  REQUIRE(llgo_test_g_status(self) == LLGO_G_RUNNING);
  REQUIRE(llgo_test_runqueue_len() == 0);
  REQUIRE(llgo_test_live_g_count() == 1);
  llgo_gosched(); /* nothing else to run: returns at once */
  llgo_go(observe_self, NULL);
  REQUIRE(llgo_test_live_g_count() == 2);
  REQUIRE(llgo_test_runqueue_len() == 1);
  llgo_gosched();
  REQUIRE(observed_id == 2 && observed_status == LLGO_G_RUNNING);
  REQUIRE(llgo_test_g_status(observed_g) == LLGO_G_DEAD);
  REQUIRE(llgo_test_live_g_count() == 1);
#ifndef LLGO_TEST_PTHREAD_BACKEND
  REQUIRE(llgo_test_context_pool_len() == 1);
  REQUIRE(llgo_test_contexts_created() == 2); /* main + the worker */
  llgo_go(observe_self, NULL);
  REQUIRE(llgo_test_context_pool_len() == 0); /* the record was taken again */
  llgo_gosched();
  REQUIRE(observed_id == 3);
  REQUIRE(llgo_test_contexts_created() == 2); /* ... and its context re-armed */
#endif
  printf("ok");
  return 0;
}

/* ---- park / ready ---- */

static llgo_g *parked_worker;

static void parking_worker(void *unused) {
  (void)unused;
  parked_worker = llgo_current_g();
  printf("park,");
  llgo_park();
  printf("woken,");
}

static int park_ready_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(parking_worker, NULL);
  llgo_gosched();
  REQUIRE(llgo_test_g_status(parked_worker) == LLGO_G_WAITING);
  REQUIRE(llgo_test_runqueue_len() == 0);
  printf("ready,");
  llgo_ready(parked_worker);
  REQUIRE(llgo_test_g_status(parked_worker) == LLGO_G_RUNNABLE);
  REQUIRE(llgo_test_runqueue_len() == 1);
  llgo_gosched();
  printf("main");
  return 0;
}

/* ---- Goexit ---- */

static void check_recover_is_nil_during_goexit(void *unused) {
  (void)unused;
  printf("recover=%s,", llgo_recover() == NULL ? "nil" : "non-nil");
}

static void goexit_inner(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_text, "inner,");
    llgo_defer(&frame, check_recover_is_nil_during_goexit, NULL);
    llgo_goexit();
  }
  llgo_defer_end(&frame);
  printf("unreachable-inner,");
}

static void goexit_worker(void *unused) {
  (void)unused;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_text, "d1,");
    llgo_defer(&frame, print_text, "d2,");
    goexit_inner();
    printf("unreachable-worker,");
  }
  llgo_defer_end(&frame);
  printf("unreachable-after-defers,");
}

static int goexit_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(goexit_worker, NULL);
  llgo_gosched();
  REQUIRE(llgo_test_live_g_count() == 1);
  printf("main");
  return 0;
}

/* Goexit continues after a deferred call panics and another recovers. */
static void goexit_recover_inner(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_recovered, NULL);
    llgo_defer(&frame, panic_with, "x");
    llgo_goexit();
  }
  llgo_defer_end(&frame);
  printf("unreachable,");
}

static void goexit_recover_worker(void *unused) {
  (void)unused;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_text, "outer,");
    goexit_recover_inner();
  }
  llgo_defer_end(&frame);
  printf("unreachable,");
}

static int goexit_recover_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(goexit_recover_worker, NULL);
  llgo_gosched();
  printf("main");
  return 0;
}

/* ---- deadlocks and main exit ---- */

static void short_worker(void *text) { printf("%s", (const char *)text); }

static int main_goexit_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(short_worker, "w1,");
  llgo_go(short_worker, "w2,");
  llgo_goexit();
}

static int main_parks_alone_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_park();
  printf("unreachable");
  return 0;
}

static int worker_exits_while_main_parked_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(short_worker, "w,");
  llgo_park();
  printf("unreachable");
  return 0;
}

static void park_forever(void *unused) {
  (void)unused;
  printf("parking,");
  llgo_park();
  printf("unreachable");
}

static int main_goexit_worker_parked_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(park_forever, NULL);
  llgo_goexit();
}

static int main_returns_status_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(park_forever, NULL);
  llgo_gosched(); /* park_forever runs and parks */
  llgo_go(short_worker, "never-runs");
  printf("main-returns");
  return 7;
}

/* ---- panic / defer / recover ---- */

static int recovering_function(void) {
  volatile int result = 1;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_recovered, NULL);
    llgo_defer(&frame, print_text, "d2,");
    llgo_panic("boom");
    result = 2;
  }
  llgo_defer_end(&frame);
  return result;
}

static void outer_function(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_text, ",outer-deferred");
    printf(",returned %d", recovering_function());
  }
  llgo_defer_end(&frame);
}

static int panic_recover_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  REQUIRE(llgo_recover() == NULL); /* not panicking */
  outer_function();
  printf(",after");
  return 0;
}

static void replacing_function(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_recovered, NULL);
    llgo_defer(&frame, print_recovered, NULL); /* runs first: recovers "second" */
    llgo_defer(&frame, panic_with, "second");
    llgo_panic("first");
  }
  llgo_defer_end(&frame);
}

static int panic_in_defer_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  replacing_function();
  printf(",after");
  return 0;
}

static int unrecovered_panic_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_text, "d1");
    llgo_panic("boom");
  }
  llgo_defer_end(&frame);
  printf("unreachable");
  return 0;
}

static int unrecovered_replaced_panic_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, panic_with, "second");
    llgo_panic("first");
  }
  llgo_defer_end(&frame);
  return 0;
}

static int nil_panic_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_panic(NULL);
}

static void yield_then_recover(void *tag) {
  llgo_gosched();
  const char *message = llgo_recover();
  printf("%s:%s,", (const char *)tag, message == NULL ? "nil" : message);
}

static void yielding_panicker(void *tag) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, yield_then_recover, tag);
    llgo_panic(strcmp(tag, "1") == 0 ? "p1" : "p2");
  }
  llgo_defer_end(&frame);
  printf("%s:after,", (const char *)tag);
  if (++finished_workers == 2) {
    llgo_ready(main_g);
  }
}

static int yield_in_defer_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  main_g = llgo_current_g();
  llgo_go(yielding_panicker, "1");
  llgo_go(yielding_panicker, "2");
  llgo_park();
  printf("done");
  return 0;
}

/* ---- many lifecycles, pool reuse ---- */

static volatile int lifecycle_count;

static void count_lifecycle(void *unused) {
  (void)unused;
  lifecycle_count++;
}

static int lifecycles_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (int i = 0; i < 5000; i++) {
    llgo_go(count_lifecycle, NULL);
    llgo_gosched();
    REQUIRE(lifecycle_count == i + 1);
  }
  REQUIRE(llgo_test_live_g_count() == 1);
#ifndef LLGO_TEST_PTHREAD_BACKEND
  REQUIRE(llgo_test_contexts_created() == 2); /* main + one context reused 4,999 times */
  REQUIRE(llgo_test_context_pool_len() == 1);
#endif
  printf("%d", lifecycle_count);
  return 0;
}

#ifndef LLGO_TEST_PTHREAD_BACKEND
static int pool_sizes_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(count_lifecycle, NULL);
  llgo_gosched();
  REQUIRE(llgo_test_contexts_created() == 2 && llgo_test_context_pool_len() == 1);
  llgo_go_stack(count_lifecycle, NULL, 32 * 1024); /* another size: replaced */
  REQUIRE(llgo_test_contexts_created() == 3 && llgo_test_context_pool_len() == 0);
  llgo_gosched();
  llgo_go_stack(count_lifecycle, NULL, 32 * 1024); /* same size: re-armed */
  llgo_go_stack(count_lifecycle, NULL, 100);       /* rounded up to the minimum */
  REQUIRE(llgo_test_contexts_created() == 4);
  llgo_gosched();
  REQUIRE(lifecycle_count == 4);
  REQUIRE(llgo_test_context_pool_len() == 2);
  printf("ok");
  return 0;
}

/* ---- overflow detection ---- */

static void smash_then_yield(void *unused) {
  (void)unused;
  llgo_test_smash_stack_canary();
  llgo_gosched();
  printf("unreachable");
}

static void overflow_asyncify_then_yield(void *unused) {
  (void)unused;
  llgo_test_overflow_asyncify_area();
  llgo_gosched();
  printf("unreachable");
}

static int stack_overflow_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(smash_then_yield, NULL);
  llgo_gosched();
  printf("unreachable");
  return 0;
}

static int asyncify_overflow_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(overflow_asyncify_then_yield, NULL);
  llgo_gosched();
  printf("unreachable");
  return 0;
}

/* ---- misuse that must be fatal ---- */

static int resume_dead_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(observe_self, NULL);
  llgo_gosched();
  REQUIRE(llgo_test_g_status(observed_g) == LLGO_G_DEAD);
  llgo_test_enqueue_unchecked(observed_g);
  llgo_gosched();
  printf("unreachable");
  return 0;
}

static int double_enqueue_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(observe_self, NULL);
  llgo_go(observe_self, NULL); /* record 3 */
  llgo_gosched();              /* both ran */
  llgo_go(park_forever, NULL);
  llgo_test_enqueue_unchecked(llgo_current_g());
  llgo_test_enqueue_unchecked(llgo_current_g());
  return 0;
}

static int record_alloc_fails_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_test_fail_allocations_after(0);
  llgo_go(count_lifecycle, NULL);
  return 0;
}

static int stack_alloc_fails_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_test_fail_allocations_after(1);
  llgo_go(count_lifecycle, NULL);
  return 0;
}

/* Shared stacks: the copy of main's stack, made when main first yields. */
static int stack_copy_alloc_fails_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_test_fail_allocations_after(1);
  llgo_go(count_lifecycle, NULL);
  llgo_gosched();
  printf("unreachable");
  return 0;
}

static int absurd_stack_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go_stack(count_lifecycle, NULL, SIZE_MAX);
  printf("unreachable");
  return 0;
}

/* Larger than the shared stack (main's 256 KiB), fine with separate stacks. */
static int large_stack_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go_stack(count_lifecycle, NULL, 1024 * 1024);
  llgo_gosched();
  printf("%d", lifecycle_count);
  return 0;
}

/* ---- the idle hook ---- */

static int idle_calls;
static llgo_g *idle_parked;

static llgo_sched_idle_action ready_main_when_idle(void) {
  idle_calls++;
  if (idle_calls <= 2) {
    llgo_ready(idle_parked); /* as a timer would */
    return LLGO_SCHED_IDLE_RUN_AGAIN;
  }
  return LLGO_SCHED_IDLE_DEADLOCK;
}

static int idle_hook_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  idle_parked = llgo_current_g();
  llgo_sched_set_idle_hook(ready_main_when_idle);
  llgo_park();
  printf("woken%d,", idle_calls);
  llgo_park();
  printf("woken%d,", idle_calls);
  llgo_park(); /* the hook now says nothing can happen */
  printf("unreachable");
  return 0;
}

static llgo_sched_idle_action return_to_host(void) {
  idle_calls++;
  return LLGO_SCHED_IDLE_RETURN_TO_HOST;
}

static int parks_until_host_event(int argc, char **argv) {
  (void)argc;
  (void)argv;
  idle_parked = llgo_current_g();
  llgo_park();
  printf("resumed after the host event,");
  return 3;
}

/* A host with its own event loop: the loop returns when idle and is entered again. */
static void host_event_loop(void) {
  char program[] = "scenario";
  char *argv[] = {program, NULL};
  llgo_sched_set_idle_hook(return_to_host);
  llgo_sched_start(parks_until_host_event, 1, argv);
  REQUIRE(llgo_sched_run() == LLGO_SCHED_IDLE && idle_calls == 1);
  REQUIRE(llgo_test_p_status() == LLGO_P_IDLE);
  printf("host event,");
  llgo_ready(idle_parked); /* e.g. a JS callback */
  REQUIRE(llgo_sched_run() == LLGO_SCHED_MAIN_RETURNED);
  exit(llgo_sched_main_status());
}

static int idle_hook_returns_under_run_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_sched_set_idle_hook(return_to_host);
  llgo_park();
  return 0;
}
#endif

static int ready_null_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_ready(NULL);
  printf("unreachable");
  return 0;
}

static int ready_running_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(park_forever, NULL); /* keeps the pthread backend from a deadlock */
  llgo_ready(llgo_current_g());
  printf("unreachable");
  return 0;
}

static int run_main_twice_main(int argc, char **argv) {
  llgo_run_main(run_main_twice_main, argc, argv);
  printf("unreachable");
  return 0;
}

static int defer_misuse_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame outer;
  if (llgo_defer_begin(&outer)) {
    llgo_defer_frame inner;
    if (llgo_defer_begin(&inner)) {
      llgo_defer(&outer, print_text, "wrong frame");
    }
    llgo_defer_end(&inner);
  }
  llgo_defer_end(&outer);
  return 0;
}

/* ---- outside llgo_run_main ---- */

static void go_outside(void) { llgo_go(count_lifecycle, NULL); }
static void gosched_outside(void) { llgo_gosched(); }
static void park_outside(void) { llgo_park(); }
static void goexit_outside(void) { llgo_goexit(); }
static void defer_outside(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    printf("unreachable");
  }
}
static void panic_outside(void) {
  if (llgo_current_g() == NULL && llgo_recover() == NULL) {
    printf("no-g,");
  }
  llgo_panic("lonely");
}

int main(void) {
  const child_expectation ok_empty = {0, NULL, "fatal error", NULL};
  child_expectation expect = ok_empty;

  expect.stdout_is = "ABCabc|done";
  expect_scenario("fifo order", fifo_main, expect);
  expect.stdout_is = "ok";
  expect_scenario("ids, statuses and record reuse", ids_main, expect);
  expect.stdout_is = "park,ready,woken,main";
  expect_scenario("park and ready", park_ready_main, expect);
  expect.stdout_is = "recover=nil,inner,d2,d1,main";
  expect_scenario("Goexit runs all deferred calls", goexit_main, expect);
  expect.stdout_is = "recovered(x)outer,main";
  expect_scenario("Goexit continues after a recovered panic", goexit_recover_main, expect);
  expect.stdout_is = "d2,recovered(boom),returned 1,outer-deferred,after";
  expect_scenario("recover stops a panic", panic_recover_main, expect);
  expect.stdout_is = "recovered(second)recovered(nil),after";
  expect_scenario("a panic in a deferred call replaces the first", panic_in_defer_main, expect);
  expect.stdout_is = "1:p1,1:after,2:p2,2:after,done";
  expect_scenario("recover after yielding in a deferred call", yield_in_defer_main, expect);
  expect.stdout_is = "5000";
  expect_scenario("5,000 serial lifecycles", lifecycles_main, expect);

  expect_scenario("main returns its status while others remain", main_returns_status_main,
                  (child_expectation){7, NULL, "fatal error", "parking,main-returns"});

  expect_scenario("main calls Goexit, the rest finish", main_goexit_main,
                  (child_expectation){2,
                                      "fatal error: no goroutines (main called runtime.Goexit) "
                                      "- deadlock!\n",
                                      NULL, "w1,w2,"});
  expect_scenario("main parks alone", main_parks_alone_main,
                  (child_expectation){2, "fatal error: all goroutines are asleep - deadlock!\n",
                                      NULL, ""});
  expect_scenario("a worker exits while main is parked", worker_exits_while_main_parked_main,
                  (child_expectation){2, "fatal error: all goroutines are asleep - deadlock!\n",
                                      NULL, "w,"});
  expect_scenario("main calls Goexit, a worker parks", main_goexit_worker_parked_main,
                  (child_expectation){2, "fatal error: all goroutines are asleep - deadlock!\n",
                                      NULL, "parking,"});
  expect_scenario("unrecovered panic", unrecovered_panic_main,
                  (child_expectation){2, "panic: boom\n", "fatal error", "d1"});
  expect_scenario("unrecovered panic replaced in a deferred call",
                  unrecovered_replaced_panic_main,
                  (child_expectation){2, "panic: first\n\tpanic: second\n", NULL, ""});
  expect_scenario("panic(nil)", nil_panic_main, (child_expectation){2, "panic: nil\n", NULL, ""});
  expect_scenario("ready(NULL)", ready_null_main,
                  (child_expectation){2, "fatal error: llgo_ready: NULL goroutine", NULL, ""});
  expect_scenario("ready of a running goroutine", ready_running_main,
                  (child_expectation){2, "fatal error: casgstatus: goroutine 1 is _Grunning, "
                                         "expected _Gwaiting", NULL, ""});
  expect_scenario("llgo_run_main twice", run_main_twice_main,
                  (child_expectation){2, "fatal error: llgo_run_main called twice", NULL, ""});
  expect_scenario("defer on an outer frame", defer_misuse_main,
                  (child_expectation){2, "llgo_defer: the frame is not the innermost defer frame "
                                         "of goroutine 1", NULL, ""});
#ifndef LLGO_TEST_PTHREAD_BACKEND
  expect.stdout_is = "ok";
  expect_scenario("context pool and stack sizes", pool_sizes_main, expect);
  expect_scenario("C stack overflow is detected", stack_overflow_main,
                  (child_expectation){2, "fatal error: goroutine 2: stack overflow", NULL, ""});
  expect_scenario("Asyncify area overflow is detected", asyncify_overflow_main,
                  (child_expectation){2, "fatal error: goroutine 2: Asyncify save area overflow",
                                      NULL, ""});
  expect_scenario("resuming a dead goroutine", resume_dead_main,
                  (child_expectation){2, "fatal error: attempt to resume dead goroutine 2", NULL,
                                      ""});
  expect_scenario("a queued goroutine queued again", double_enqueue_main,
                  (child_expectation){2, "fatal error: run queue refused goroutine 1: node "
                                         "already queued", NULL, ""});
  expect_scenario("goroutine record allocation fails", record_alloc_fails_main,
                  (child_expectation){2, "fatal error: out of memory allocating a goroutine\n",
                                      NULL, ""});
  if (shared_stacks()) {
    expect_scenario("the copy of a suspended stack cannot be allocated", stack_copy_alloc_fails_main,
                    (child_expectation){2, "fatal error: goroutine 1: out of memory for a goroutine "
                                           "stack", NULL, ""});
    expect_scenario("a stack larger than the shared stack", large_stack_main,
                    (child_expectation){2, "fatal error: llgo_go_stack: a 1048576-byte stack is "
                                           "more than a goroutine can have here (at most 262144 "
                                           "bytes)", NULL, ""});
  } else {
    expect_scenario("stack allocation fails", stack_alloc_fails_main,
                    (child_expectation){2, "fatal error: cannot create goroutine 2 (stack 262144 "
                                           "bytes): out of memory for a goroutine stack",
                                        NULL, ""});
    expect.stdout_is = "1";
    expect_scenario("a 1 MiB stack", large_stack_main, expect);
  }
  expect_scenario("an absurd stack size is refused", absurd_stack_main,
                  (child_expectation){2, "fatal error: llgo_go_stack: a ", "unreachable", ""});
  expect_scenario("the idle hook readies main, then reports a deadlock", idle_hook_main,
                  (child_expectation){2, "fatal error: all goroutines are asleep - deadlock!\n",
                                      NULL, "woken1,woken2,"});
  run_in_child("the host loop returns to the host's event loop and is entered again",
               host_event_loop,
               (child_expectation){3, NULL, "fatal error", "host event,resumed after the host event,"});
  expect_scenario("llgo_run_main cannot return to a host event loop",
                  idle_hook_returns_under_run_main,
                  (child_expectation){2, "fatal error: the idle hook returned to the host, but "
                                         "llgo_run_main cannot wait", NULL, ""});
#endif

  run_in_child("llgo_go before llgo_run_main", go_outside,
               (child_expectation){2, "fatal error: llgo_go called before llgo_run_main", NULL,
                                   ""});
  run_in_child("llgo_gosched outside", gosched_outside,
               (child_expectation){2, "fatal error: llgo_gosched called outside a goroutine",
                                   NULL, ""});
  run_in_child("llgo_park outside", park_outside,
               (child_expectation){2, "fatal error: llgo_park called outside a goroutine", NULL,
                                   ""});
  run_in_child("llgo_goexit outside", goexit_outside,
               (child_expectation){2, "fatal error: llgo_goexit called outside a goroutine",
                                   NULL, ""});
  run_in_child("defer frame outside", defer_outside,
               (child_expectation){2, "fatal error: llgo_defer_begin called outside a goroutine",
                                   NULL, ""});
  run_in_child("panic outside", panic_outside,
               (child_expectation){2, "panic: lonely\n", "goroutine", "no-g,"});
#ifndef LLGO_TEST_PTHREAD_BACKEND
  run_in_child("overflow hooks outside", (void (*)(void))llgo_test_smash_stack_canary,
               (child_expectation){2, "llgo_test_smash_stack_canary called outside", NULL, ""});
  run_in_child("overflow hooks outside (Asyncify)",
               (void (*)(void))llgo_test_overflow_asyncify_area,
               (child_expectation){2, "llgo_test_overflow_asyncify_area called outside", NULL,
                                   ""});
#endif
  return test_harness_exit_status();
}
