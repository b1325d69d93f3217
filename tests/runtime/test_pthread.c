/*
 * test_pthread.c - the 1:1 pthread backend (P1T and native): goroutines are
 * threads, so ordering comes only from park/ready. Covers ids, park/ready in
 * both orders (a ready before the park is remembered), Goexit, recover,
 * deadlock detection, and main's status ending the program.
 */
#include "llgo_runtime.h"
#include "scenario.h"
#include "test_harness.h"

#include <stdint.h>


static llgo_g *main_g;
static uint64_t worker_id, worker_m;
static int64_t worker_p;


static void print_recovered(void *unused) {
  (void)unused;
  const char *message = llgo_recover();
  printf("recovered(%s),", message == NULL ? "nil" : message);
}

static void identify_then_ready_main(void *unused) {
  (void)unused;
  llgo_g *self = llgo_current_g();
  worker_id = llgo_test_g_id(self);
  worker_m = llgo_test_m_id();
  worker_p = llgo_test_p_id();
  REQUIRE(llgo_test_g_status(self) == LLGO_G_RUNNING);
  REQUIRE(llgo_test_p_status() == LLGO_P_RUNNING);
  llgo_gosched(); /* a yield hint only */
  llgo_ready(main_g);
}

static int ids_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  main_g = llgo_current_g();
  REQUIRE(llgo_test_g_id(main_g) == 1 && llgo_test_m_id() == 1 && llgo_test_p_id() == 0);
  REQUIRE(llgo_test_runqueue_len() == 0 && llgo_test_context_pool_len() == 0);
  REQUIRE(llgo_test_contexts_created() == 0);
  llgo_test_smash_stack_canary();   /* no canaries on this backend */
  llgo_test_overflow_asyncify_area();
  llgo_go(identify_then_ready_main, NULL);
  llgo_park(); /* whichever comes first, park or ready, this returns */
  REQUIRE(worker_id == 2 && worker_m == 2 && worker_p == 1);
  printf("ok");
  return 0;
}

static void ready_main(void *unused) {
  (void)unused;
  llgo_ready(main_g);
}

static void goexit_worker(void *unused) {
  (void)unused;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, ready_main, NULL);
    llgo_defer(&frame, print_text, "deferred,");
    llgo_goexit();
  }
  llgo_defer_end(&frame);
  printf("unreachable");
}

static int goexit_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  main_g = llgo_current_g();
  llgo_go_stack(goexit_worker, NULL, 4096);
  llgo_park();
  printf("main");
  return 0;
}

static void panicking_worker(void *unused) {
  (void)unused;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_recovered, NULL);
    llgo_panic("worker");
  }
  llgo_defer_end(&frame);
  llgo_ready(main_g);
}

static int recover_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  main_g = llgo_current_g();
  llgo_go(panicking_worker, NULL);
  llgo_park();
  printf("main");
  return 0;
}

static int deadlock_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_park();
  return 0;
}

static void exit_quietly(void *unused) { (void)unused; }

static int main_goexit_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(exit_quietly, NULL);
  llgo_goexit();
}

static void park_forever(void *unused) {
  (void)unused;
  llgo_park();
}

static int main_status_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(park_forever, NULL);
  return 5;
}

static int misuse_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_ready(NULL);
  return 0;
}

static int twice_main(int argc, char **argv) { return llgo_run_main(twice_main, argc, argv); }

static void go_outside(void) { llgo_go(exit_quietly, NULL); }
static void park_outside(void) { llgo_park(); }

int main(void) {
  expect_scenario("pthread: ids and park/ready", ids_main,
                  (child_expectation){0, NULL, "fatal error", "ok"});
  expect_scenario("pthread: Goexit runs deferred calls", goexit_main,
                  (child_expectation){0, NULL, "fatal error", "deferred,main"});
  expect_scenario("pthread: recover in a worker", recover_main,
                  (child_expectation){0, NULL, "fatal error", "recovered(worker),main"});
  expect_scenario("pthread: main parks alone", deadlock_main,
                  (child_expectation){2, "fatal error: all goroutines are asleep - deadlock!\n",
                                      NULL, ""});
  expect_scenario("pthread: main calls Goexit", main_goexit_main,
                  (child_expectation){2, "fatal error: no goroutines (main called "
                                         "runtime.Goexit) - deadlock!\n", NULL, ""});
  expect_scenario("pthread: main's status ends the program", main_status_main,
                  (child_expectation){5, NULL, "fatal error", ""});
  expect_scenario("pthread: ready(NULL)", misuse_main,
                  (child_expectation){2, "fatal error: llgo_ready: NULL goroutine", NULL, ""});
  expect_scenario("pthread: llgo_run_main twice", twice_main,
                  (child_expectation){2, "fatal error: llgo_run_main called twice", NULL, ""});
  run_in_child("pthread: llgo_go before llgo_run_main", go_outside,
               (child_expectation){2, "fatal error: llgo_go called before llgo_run_main", NULL,
                                   ""});
  run_in_child("pthread: llgo_park outside", park_outside,
               (child_expectation){2, "fatal error: llgo_park called outside a goroutine", NULL,
                                   ""});
  return test_harness_exit_status();
}
