/* select_cases.c - select (Go's runtime/select.go): a uniformly random choice among
 * ready cases, a non-blocking select that never parks, a blocking select woken by
 * the first ready case that leaves no waiter behind on the others, close while
 * waiting, many cases. */
#include "blocking_test.h"

#include <math.h>
#include <stdint.h>

#define READY_CASES 4
#define SELECTS 40000

/* 40,000 selects over 4 always-ready buffered channels: each case is chosen
 * 10,000 +- 500 times (5.8 standard deviations) and the chi-square statistic (3
 * degrees of freedom) stays below 30 (p < 1e-5), as with Go's fastrandn. */
static int uniform_choice(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *channels[READY_CASES];
  llgo_select_case cases[READY_CASES];
  int values[READY_CASES];
  long counts[READY_CASES] = {0};
  for (int i = 0; i < READY_CASES; i++) {
    channels[i] = llgo_chan_make(sizeof(int), 1);
    llgo_chan_send(channels[i], &i);
    cases[i] = (llgo_select_case){channels[i], LLGO_SELECT_RECV, &values[i]};
  }
  for (int n = 0; n < SELECTS; n++) {
    int chosen = llgo_select(cases, READY_CASES, 1, NULL);
    EXPECT(chosen >= 0 && chosen < READY_CASES && values[chosen] == chosen, "case %d", chosen);
    counts[chosen]++;
    llgo_chan_send(channels[chosen], &chosen);
  }
  double expected = SELECTS / (double)READY_CASES, chi_square = 0;
  for (int i = 0; i < READY_CASES; i++) {
    EXPECT(fabs(counts[i] - expected) <= 500, "case %d chosen %ld times of %d", i, counts[i], SELECTS);
    chi_square += (counts[i] - expected) * (counts[i] - expected) / expected;
  }
  EXPECT(chi_square < 30, "chi-square %.1f", chi_square);
  printf("4 ready cases chosen uniformly over %d selects\n", SELECTS);
  return 0;
}

static void other_goroutine(void *unused) {
  (void)unused;
  event("other runs");
}

/* A select with a default never parks: the runnable goroutine does not get the
 * processor until main yields. */
static int nonblocking_never_parks(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *a = llgo_chan_make(sizeof(int), 0), *b = llgo_chan_make(sizeof(int), 0);
  llgo_go(other_goroutine, NULL);
  int v = 0;
  llgo_select_case cases[3] = {{a, LLGO_SELECT_RECV, &v}, {b, LLGO_SELECT_SEND, &v}, {NULL, LLGO_SELECT_RECV, &v}};
  for (int i = 0; i < 1000; i++) {
    EXPECT(llgo_select(cases, 3, 0, NULL) == -1, "no case is ready");
  }
  event("main did 1000 selects");
  llgo_gosched();
  printf("%s\n", events());
  return 0;
}

static llgo_chan *c1, *c2, *c3, *selector_done;
static _Atomic(llgo_g *) selector_g;

static void selector(void *unused) {
  (void)unused;
  selector_g = llgo_current_g();
  int v = 0, ok = 0;
  llgo_select_case cases[3] = {{c1, LLGO_SELECT_RECV, &v}, {c2, LLGO_SELECT_RECV, &v}, {c3, LLGO_SELECT_RECV, &v}};
  int chosen = llgo_select(cases, 3, 1, &ok);
  event("selector: case %d got %d ok=%d", chosen, v, ok);
  llgo_chan_recv(c1, &v); /* waits again, on c1 alone */
  event("selector: c1 got %d", v);
  llgo_chan_close(selector_done);
}

/* A blocking select waits on every case; the first ready one wins and the select
 * removes its waiters from the others (a later send there finds no receiver). */
static int first_ready_wins(int argc, char **argv) {
  (void)argc, (void)argv;
  c1 = llgo_chan_make(sizeof(int), 0);
  c2 = llgo_chan_make(sizeof(int), 0);
  c3 = llgo_chan_make(sizeof(int), 0);
  selector_done = llgo_chan_make(0, 0);
  llgo_go(selector, NULL);
  wait_parked(&selector_g);
  int v = 22;
  llgo_chan_send(c2, &v);
  wait_parked(&selector_g); /* on c1 now */
  v = 33;
  EXPECT(llgo_chan_try_send(c3, &v) == 0, "a stale waiter of the select took a value on c3");
  v = 11;
  llgo_chan_send(c1, &v);
  llgo_chan_recv(selector_done, NULL);
  printf("%s\n", events());
  return 0;
}

static llgo_chan *closing, *never;
static _Atomic(llgo_g *) waiting_g;

static void select_send_until_closed(void *unused) {
  (void)unused;
  waiting_g = llgo_current_g();
  int v = 1;
  llgo_select_case cases[2] = {{never, LLGO_SELECT_RECV, &v}, {closing, LLGO_SELECT_SEND, &v}};
  llgo_select(cases, 2, 1, NULL);
  printf("not reached\n");
}

static int close_while_select_sends(int argc, char **argv) {
  (void)argc, (void)argv;
  closing = llgo_chan_make(sizeof(int), 0);
  never = llgo_chan_make(sizeof(int), 0);
  llgo_go(select_send_until_closed, NULL);
  wait_parked(&waiting_g);
  printf("closing\n");
  fflush(stdout);
  llgo_chan_close(closing);
  /* A nil channel blocks forever: the sender's panic ends the program however late
   * it runs (a sender that does not panic leaves a deadlock, a failure too). */
  llgo_chan_recv(NULL, NULL);
  return 0;
}

static void select_recv_until_closed(void *unused) {
  (void)unused;
  waiting_g = llgo_current_g();
  int v = -1, ok = -1;
  llgo_select_case cases[2] = {{never, LLGO_SELECT_RECV, &v}, {closing, LLGO_SELECT_RECV, &v}};
  int chosen = llgo_select(cases, 2, 1, &ok);
  printf("case %d, value %d, ok %d\n", chosen, v, ok);
  llgo_chan_close(never);
}

static int close_while_select_receives(int argc, char **argv) {
  (void)argc, (void)argv;
  closing = llgo_chan_make(sizeof(int), 0);
  never = llgo_chan_make(sizeof(int), 0);
  llgo_go(select_recv_until_closed, NULL);
  wait_parked(&waiting_g);
  llgo_chan_close(closing);
  llgo_chan_recv(never, NULL); /* until the selector has printed */
  return 0;
}

#define MANY 200

static llgo_chan *many[MANY];

static void send_on_one(void *index) {
  int v = (int)(intptr_t)index;
  llgo_chan_send(many[(intptr_t)index], &v);
}

/* More cases than the select keeps on the stack (64), blocking and not. */
static int many_cases(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_select_case *cases = test_new(MANY * sizeof *cases);
  int *values = test_new(MANY * sizeof *values);
  for (int i = 0; i < MANY; i++) {
    many[i] = llgo_chan_make(sizeof(int), 0);
    cases[i] = (llgo_select_case){many[i], LLGO_SELECT_RECV, &values[i]};
  }
  EXPECT(llgo_select(cases, MANY, 0, NULL) == -1, "nothing is ready yet");
  llgo_go(send_on_one, (void *)(intptr_t)137);
  int chosen = llgo_select(cases, MANY, 1, NULL);
  EXPECT(chosen == 137 && values[137] == 137, "case %d", chosen);
  for (int i = 0; i < MANY; i++) {
    int v = 1;
    EXPECT(llgo_chan_try_send(many[i], &v) == 0, "channel %d still has a waiter", i);
  }
  printf("case 137 of %d\n", MANY);
  return 0;
}

static int bad_direction(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_select_case cas = {llgo_chan_make(1, 1), (llgo_select_dir)0, NULL};
  llgo_select(&cas, 1, 0, NULL);
  return 0;
}

static int empty_select_deadlocks(int argc, char **argv) {
  (void)argc, (void)argv;
  printf("select {}\n");
  fflush(stdout);
  llgo_select(NULL, 0, 1, NULL);
  return 0;
}

const blocking_case select_cases[] = {
    {"select-uniform-choice", uniform_choice},
    {"select-nonblocking-never-parks", nonblocking_never_parks},
    {"select-first-ready-wins", first_ready_wins},
    {"select-close-while-sending", close_while_select_sends},
    {"select-close-while-receiving", close_while_select_receives},
    {"select-many-cases", many_cases},
    {"select-bad-direction", bad_direction},
    {"select-empty-deadlocks", empty_select_deadlocks},
    {NULL, NULL},
};
