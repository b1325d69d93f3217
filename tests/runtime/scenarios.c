/*
 * scenarios.c - the whole runtime through its public API, one named case per process
 * (tests/harness/test_program.h): scheduling (FIFO, park/ready, Goexit), ids and statuses,
 * panic/defer/recover, deadlock and misuse deaths, overflow detection, 5,000 lifecycles and
 * context reuse, and the 1:1 pthread backend's own behaviour.
 *
 * The same program is built for every scheduler backend (native ucontext and pthread, P1,
 * J32/J64 on both context backends, P1T) and each case runs under the variant's real engine.
 * What a case must print and exit with, and on which backends it applies (with the reason where
 * it does not), is in scenarios.json beside this file; tests/harness/check_run.py compares.
 * Output comes in whole lines: Emscripten's stdout on Node writes line by line (it ends a last
 * partial line with a newline when it flushes at exit), so a case ends what it prints with one.
 * Test hooks used beyond llgo_runtime.h: llgo_test_enqueue_unchecked, llgo_test_handoffs and the
 * host-loop entry points llgo_sched_* (scheduler.h, every single-worker build).
 */
#include "llgo_runtime.h"
#include "test_program.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Weak: a backend without the hook links (the cases that use it do not apply there and are
 * skipped; run anyway, they fail the REQUIRE below instead of crashing). */
__attribute__((weak)) void llgo_test_enqueue_unchecked(llgo_g *g);
__attribute__((weak)) void llgo_test_fail_allocations_after(long count);
__attribute__((weak)) uint64_t llgo_test_handoffs(void);

/* The single worker's host loop (scheduler.h), for a host with its own event loop. */
typedef enum { SCHED_MAIN_RETURNED, SCHED_IDLE } sched_state;
/* The runtime's type (tag and names): the hook is called through a pointer of that type, and
 * clang's UBSan (-fsanitize=function) rejects a call through an incompatible function type. */
typedef enum llgo_sched_idle_action {
  LLGO_SCHED_IDLE_DEADLOCK, LLGO_SCHED_IDLE_RUN_AGAIN, LLGO_SCHED_IDLE_RETURN_TO_HOST
} idle_action;
__attribute__((weak)) void llgo_sched_start(int (*main_fn)(int, char **), int argc, char **argv);
__attribute__((weak)) sched_state llgo_sched_run(void);
__attribute__((weak)) int llgo_sched_main_status(void);
__attribute__((weak)) void llgo_sched_set_idle_hook(idle_action (*hook)(void));

/* ---- shared helpers ---- */

static llgo_g *main_g;
static volatile int finished_workers;


static void print_recovered(void *unused) {
  (void)unused;
  const char *message = llgo_recover();
  printf("recovered(%s)", message == NULL ? "nil" : message);
}

static void panic_with(void *message) { llgo_panic((const char *)message); }

/* A deferred call that prints its argument: makes the order of deferred calls visible. */
static void print_text(void *text) { printf("%s", (const char *)text); }

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
  REQUIRE(argc == 1 && strcmp(argv[0], "fifo-order") == 0); /* argv reaches main */
  main_g = llgo_current_g();
  llgo_go(fifo_worker, (void *)(intptr_t)'A');
  llgo_go(fifo_worker, (void *)(intptr_t)'B');
  llgo_go(fifo_worker, (void *)(intptr_t)'C');
  REQUIRE(llgo_test_runqueue_len() == 3);
  llgo_park();
  printf("|done\n");
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
  REQUIRE(llgo_test_context_pool_len() == 1);
  REQUIRE(llgo_test_contexts_created() == 2); /* main + the worker */
  llgo_go(observe_self, NULL);
  REQUIRE(llgo_test_context_pool_len() == 0); /* the record was taken again */
  llgo_gosched();
  REQUIRE(observed_id == 3);
  REQUIRE(llgo_test_contexts_created() == 2); /* ... and its context re-armed */
  printf("ok\n");
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
  printf("main\n");
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
  printf("main\n");
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
  printf("main\n");
  return 0;
}

/* ---- deadlocks and main exit ---- */

static void short_worker(void *text) { printf("%s", (const char *)text); }

static int main_goexit_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(short_worker, "w1,\n");
  llgo_go(short_worker, "w2,\n");
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
  llgo_go(short_worker, "w,\n");
  llgo_park();
  printf("unreachable");
  return 0;
}

static void park_forever(void *unused) {
  (void)unused;
  printf("parking,\n");
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
  printf("main-returns\n");
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
  printf(",after\n");
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
  printf(",after\n");
  return 0;
}

static int unrecovered_panic_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_text, "d1\n");
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
  printf("done\n");
  return 0;
}

/* ---- Go's rules for nested panics (Go 1.19 prints the same; see scenarios.json) ---- */

static void print_recovered_line(void *unused) {
  (void)unused;
  const char *message = llgo_recover();
  printf("recovered(%s)\n", message == NULL ? "nil" : message);
}

/* A function with its own defer frame that panics and recovers inside itself. */
static void recovering_helper(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_recovered_line, NULL);
    llgo_panic("P2");
  }
  llgo_defer_end(&frame);
  printf("helper returned\n");
}

static void call_recovering_helper(void *unused) {
  (void)unused;
  recovering_helper();
  printf("deferred call returned\n");
}

/* P2 is recovered inside the helper; P1, started before the helper's frame, goes on. */
static int inner_recovery_keeps_outer_panic_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, call_recovering_helper, NULL);
    llgo_panic("P1");
  }
  llgo_defer_end(&frame);
  printf("unreachable\n");
  return 0;
}

/* P1 is recovered; the next deferred call runs as for a normal return and panics P2:
 * only P2 is printed. */
static int panic_after_recovery_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, panic_with, "P2");
    llgo_defer(&frame, print_recovered_line, NULL);
    llgo_panic("P1");
  }
  llgo_defer_end(&frame);
  printf("unreachable\n");
  return 0;
}

/* Recovering and panicking again in the same deferred call: Go prints the chain. */
static void recover_and_panic_again(void *unused) {
  (void)unused;
  llgo_panic(llgo_recover());
}

static int repanic_after_recover_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, recover_and_panic_again, NULL);
    llgo_panic("P1");
  }
  llgo_defer_end(&frame);
  return 0;
}

/* A deferred call (run for a panic) calls a function that has deferred calls of its own:
 * that function returns normally and the deferred call goes on. */
static void cleanup_with_defer(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_text, "cleanup-deferred,");
    printf("cleanup,");
  }
  llgo_defer_end(&frame);
}

static void call_cleanup(void *unused) {
  (void)unused;
  cleanup_with_defer();
  printf("after-cleanup\n");
}

static int deferred_call_calls_function_with_defers_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, call_cleanup, NULL);
    llgo_panic("P");
  }
  llgo_defer_end(&frame);
  printf("unreachable\n");
  return 0;
}

/* recover in a deferred call that a normal return runs (the helper's), while an outer panic
 * runs the deferred call that called the helper: nil, as in Go. */
static void helper_with_recovering_defer(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_recovered_line, NULL);
  }
  llgo_defer_end(&frame);
}

static void call_helper_with_recovering_defer(void *unused) {
  (void)unused;
  helper_with_recovering_defer();
  printf("deferred call returned\n");
}

static int recover_in_normal_return_defer_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, call_helper_with_recovering_defer, NULL);
    llgo_panic("P1");
  }
  llgo_defer_end(&frame);
  printf("unreachable\n");
  return 0;
}

/* recover called by a function that the deferred call calls (no defer frame of its own):
 * Go returns nil here; this runtime recovers (the documented difference, llgo_runtime.h). */
static void recover_from_helper(void) {
  const char *message = llgo_recover();
  printf("helper: recovered(%s)\n", message == NULL ? "nil" : message);
}

static void call_recover_from_helper(void *unused) {
  (void)unused;
  recover_from_helper();
}

static int recover_in_called_function_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, call_recover_from_helper, NULL);
    llgo_panic("P1");
  }
  llgo_defer_end(&frame);
  printf("main returns normally\n");
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
  REQUIRE(llgo_test_contexts_created() == 2); /* main + one context reused 4,999 times */
  REQUIRE(llgo_test_context_pool_len() == 1);
  printf("%d\n", lifecycle_count);
  return 0;
}

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
  printf("ok\n");
  return 0;
}

/* ---- the direct hand-off (scheduler.c, LLGO_WASMCONTEXT_HANDOFF) ----
 *
 * Main and a worker take turns: HANDOFF_ROUNDS Gosched each, then HANDOFF_ROUNDS round trips of
 * a value over two unbuffered channels, where each goroutine parks once per round. Each of those
 * 4 * HANDOFF_ROUNDS switches leaves exactly one other goroutine runnable, so with a hand-off the
 * goroutine that gives control resumes the other itself, except where the host loop has its own
 * work first (the timers' tick, every LLGO_SCHED_TICK_DISPATCHES dispatches: at most 1 in 64).
 * The order of the turns is the same either way; what differs is only llgo_test_handoffs. */
#define HANDOFF_ROUNDS 200
#define HANDOFF_SWITCHES (4 * HANDOFF_ROUNDS)

static char handoff_trace[2 * HANDOFF_ROUNDS + 1];
static int handoff_trace_length;
static llgo_chan *handoff_ping, *handoff_pong;

static void handoff_turn(char who) {
  REQUIRE(handoff_trace_length < 2 * HANDOFF_ROUNDS);
  handoff_trace[handoff_trace_length++] = who;
  llgo_gosched();
}

static void handoff_worker(void *unused) {
  (void)unused;
  for (int i = 0; i < HANDOFF_ROUNDS; i++) {
    handoff_turn('w');
  }
  for (int i = 0; i < HANDOFF_ROUNDS; i++) {
    int value = 0;
    llgo_chan_recv(handoff_ping, &value);
    value++;
    llgo_chan_send(handoff_pong, &value);
  }
}

static int handoff_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  REQUIRE(llgo_test_handoffs != NULL);
  handoff_ping = llgo_chan_make(sizeof(int), 0);
  handoff_pong = llgo_chan_make(sizeof(int), 0);
  uint64_t before = llgo_test_handoffs();
  llgo_go(handoff_worker, NULL);
  for (int i = 0; i < HANDOFF_ROUNDS; i++) {
    handoff_turn('m');
  }
  for (int i = 0; i < HANDOFF_ROUNDS; i++) {
    int value = 2 * i;
    llgo_chan_send(handoff_ping, &value);
    llgo_chan_recv(handoff_pong, &value);
    REQUIRE(value == 2 * i + 1);
  }
  uint64_t handoffs = llgo_test_handoffs() - before;
  int alternated = handoff_trace_length == 2 * HANDOFF_ROUNDS;
  for (int i = 0; alternated && i < handoff_trace_length; i++) {
    alternated = handoff_trace[i] == (i % 2 == 0 ? 'm' : 'w');
  }
  printf("turns %s, %d round trips; ", alternated ? "alternate" : "out of order", HANDOFF_ROUNDS);
  if (handoffs == 0) {
    printf("hand-offs: none\n");
  } else if (handoffs <= HANDOFF_SWITCHES && handoffs * 10 >= (uint64_t)HANDOFF_SWITCHES * 9) {
    printf("hand-offs: nearly every switch\n");
  } else {
    printf("hand-offs: %llu of %d switches\n", (unsigned long long)handoffs, HANDOFF_SWITCHES);
  }
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
  REQUIRE(llgo_test_enqueue_unchecked != NULL);
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
  REQUIRE(llgo_test_enqueue_unchecked != NULL);
  llgo_test_enqueue_unchecked(llgo_current_g());
  llgo_test_enqueue_unchecked(llgo_current_g());
  return 0;
}

static int record_alloc_fails_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  REQUIRE(llgo_test_fail_allocations_after != NULL);
  llgo_test_fail_allocations_after(0);
  llgo_go(count_lifecycle, NULL);
  return 0;
}

static int stack_alloc_fails_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  REQUIRE(llgo_test_fail_allocations_after != NULL);
  llgo_test_fail_allocations_after(1);
  /* An explicit size, so that the message is the same on every target (the default differs). */
  llgo_go_stack(count_lifecycle, NULL, 65536);
  return 0;
}

/* Shared stacks: the copy of main's stack, made when main first yields. */
static int stack_copy_alloc_fails_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  REQUIRE(llgo_test_fail_allocations_after != NULL);
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

/* More than the shared stack (main's 256 KiB), fine with separate stacks. */
static int large_stack_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go_stack(count_lifecycle, NULL, (size_t)16 * 1024 * 1024); /* twice the default-stack-size */
  llgo_gosched();
  printf("%d\n", lifecycle_count);
  return 0;
}

/* ---- the host loop's idle hook ---- */

static int idle_calls;
static llgo_g *idle_parked;

static idle_action ready_main_when_idle(void) {
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
  REQUIRE(llgo_sched_set_idle_hook != NULL);
  idle_parked = llgo_current_g();
  llgo_sched_set_idle_hook(ready_main_when_idle);
  llgo_park();
  printf("woken%d,", idle_calls);
  llgo_park();
  printf("woken%d\n", idle_calls);
  llgo_park(); /* the hook now says nothing can happen */
  printf("unreachable");
  return 0;
}

static idle_action return_to_host(void) {
  idle_calls++;
  return LLGO_SCHED_IDLE_RETURN_TO_HOST;
}

static int parks_until_host_event_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  idle_parked = llgo_current_g();
  llgo_park();
  printf("resumed after the host event\n");
  return 3;
}

/* A host with its own event loop: the loop returns when idle and is entered again. */
static void host_event_loop(void) {
  char program[] = "host-loop-returns-to-event-loop";
  char *argv[] = {program, NULL};
  REQUIRE(llgo_sched_start != NULL);
  llgo_sched_set_idle_hook(return_to_host);
  llgo_sched_start(parks_until_host_event_main, 1, argv);
  REQUIRE(llgo_sched_run() == SCHED_IDLE && idle_calls == 1);
  REQUIRE(llgo_test_p_status() == LLGO_P_IDLE);
  printf("host event\n");
  llgo_ready(idle_parked); /* e.g. a JS callback */
  REQUIRE(llgo_sched_run() == SCHED_MAIN_RETURNED);
  fflush(stdout);
  exit(llgo_sched_main_status());
}

static int idle_hook_under_run_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  REQUIRE(llgo_sched_set_idle_hook != NULL);
  llgo_sched_set_idle_hook(return_to_host);
  llgo_park();
  return 0;
}

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
    printf("no-g,\n");
  }
  llgo_panic("lonely");
}

/* ---- the 1:1 pthread backend: goroutines are threads, so order comes from park/ready ---- */

static uint64_t worker_id, worker_m;
static int64_t worker_p;

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

static int pthread_ids_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  main_g = llgo_current_g();
  REQUIRE(llgo_test_g_id(main_g) == 1 && llgo_test_m_id() == 1 && llgo_test_p_id() == 0);
  REQUIRE(llgo_test_runqueue_len() == 0 && llgo_test_context_pool_len() == 0);
  REQUIRE(llgo_test_contexts_created() == 0);
  llgo_test_smash_stack_canary(); /* no canaries on this backend */
  llgo_test_overflow_asyncify_area();
  llgo_go(identify_then_ready_main, NULL);
  llgo_park(); /* whichever comes first, park or ready, this returns */
  REQUIRE(worker_id == 2 && worker_m == 2 && worker_p == 1);
  printf("ok\n");
  return 0;
}

static void ready_main(void *unused) {
  (void)unused;
  llgo_ready(main_g);
}

static void goexit_then_ready_main_worker(void *unused) {
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

static int goexit_small_stack_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  main_g = llgo_current_g();
  llgo_go_stack(goexit_then_ready_main_worker, NULL, 4096);
  llgo_park();
  printf("main\n");
  return 0;
}

static void recovering_worker(void *unused) {
  (void)unused;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, print_recovered, NULL);
    llgo_panic("worker");
  }
  llgo_defer_end(&frame);
  printf(",");
  llgo_ready(main_g);
}

static int recover_in_worker_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  main_g = llgo_current_g();
  llgo_go(recovering_worker, NULL);
  llgo_park();
  printf("main\n");
  return 0;
}

static void exit_quietly(void *unused) { (void)unused; }

static int main_goexit_worker_returns_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(exit_quietly, NULL);
  llgo_goexit();
}

static void park_quietly(void *unused) {
  (void)unused;
  llgo_park();
}

static int main_status_ends_program_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(park_quietly, NULL);
  return 5;
}

/* ---- the cases (expectations: scenarios.json) ---- */

static const test_case cases[] = {
    {"fifo-order", fifo_main, NULL},
    {"ids-statuses-record-reuse", ids_main, NULL},
    {"park-ready", park_ready_main, NULL},
    {"goexit-runs-deferred-calls", goexit_main, NULL},
    {"goexit-continues-after-recovered-panic", goexit_recover_main, NULL},
    {"recover-stops-panic", panic_recover_main, NULL},
    {"panic-in-deferred-call-replaces-first", panic_in_defer_main, NULL},
    {"recover-after-yield-in-deferred-call", yield_in_defer_main, NULL},
    {"serial-lifecycles-5000", lifecycles_main, NULL},
    {"main-returns-status-while-others-remain", main_returns_status_main, NULL},
    {"main-goexit-others-finish", main_goexit_main, NULL},
    {"main-goexit-worker-returns", main_goexit_worker_returns_main, NULL},
    {"main-parks-alone", main_parks_alone_main, NULL},
    {"worker-exits-while-main-parked", worker_exits_while_main_parked_main, NULL},
    {"main-goexit-worker-parked", main_goexit_worker_parked_main, NULL},
    {"main-status-ends-program", main_status_ends_program_main, NULL},
    {"unrecovered-panic", unrecovered_panic_main, NULL},
    {"unrecovered-panic-replaced-in-deferred-call", unrecovered_replaced_panic_main, NULL},
    {"panic-nil", nil_panic_main, NULL},
    {"recover-in-worker", recover_in_worker_main, NULL},
    {"inner-recovery-keeps-outer-panic", inner_recovery_keeps_outer_panic_main, NULL},
    {"panic-after-recovery-prints-only-new", panic_after_recovery_main, NULL},
    {"repanic-after-recover", repanic_after_recover_main, NULL},
    {"deferred-call-calls-function-with-defers", deferred_call_calls_function_with_defers_main,
     NULL},
    {"recover-in-normal-return-deferred-call", recover_in_normal_return_defer_main, NULL},
    {"recover-in-function-called-by-deferred-call", recover_in_called_function_main, NULL},
    {"ready-null", ready_null_main, NULL},
    {"ready-running", ready_running_main, NULL},
    {"run-main-twice", run_main_twice_main, NULL},
    {"defer-on-outer-frame", defer_misuse_main, NULL},
    {"context-pool-stack-sizes", pool_sizes_main, NULL},
    {"switches-hand-off", handoff_main, NULL},
    {"switches-go-through-host-loop", handoff_main, NULL},
    {"stack-overflow-detected", stack_overflow_main, NULL},
    {"asyncify-area-overflow-detected", asyncify_overflow_main, NULL},
    {"resume-dead-goroutine", resume_dead_main, NULL},
    {"queued-goroutine-queued-again", double_enqueue_main, NULL},
    {"record-allocation-fails", record_alloc_fails_main, NULL},
    {"stack-allocation-fails", stack_alloc_fails_main, NULL},
    {"stack-copy-allocation-fails", stack_copy_alloc_fails_main, NULL},
    {"absurd-stack-size", absurd_stack_main, NULL},
    {"stack-larger-than-shared-stack", large_stack_main, NULL},
    {"large-stack-with-separate-stacks", large_stack_main, NULL},
    {"idle-hook-readies-then-deadlock", idle_hook_main, NULL},
    {"host-loop-returns-to-event-loop", NULL, host_event_loop},
    {"idle-hook-cannot-return-under-run-main", idle_hook_under_run_main, NULL},
    {"idle-hook-returns-to-empty-event-loop", idle_hook_under_run_main, NULL},
    {"pthread-ids-park-ready", pthread_ids_main, NULL},
    {"pthread-goexit-small-stack", goexit_small_stack_main, NULL},
    {"go-before-run-main", NULL, go_outside},
    {"gosched-outside", NULL, gosched_outside},
    {"park-outside", NULL, park_outside},
    {"goexit-outside", NULL, goexit_outside},
    {"defer-frame-outside", NULL, defer_outside},
    {"panic-outside", NULL, panic_outside},
    {"canary-hook-outside", NULL, llgo_test_smash_stack_canary},
    {"asyncify-area-hook-outside", NULL, llgo_test_overflow_asyncify_area},
};

int main(int argc, char **argv) { return TEST_PROGRAM_MAIN(argc, argv, cases); }
