/* select3.c - Go's test/chan/select3.go: the semantics of the select statement for
 * basic empty/non-empty cases.
 *
 * testPanic(signal, f) calls f under a deferred recover and checks that it always
 * or never panics; testBlock(signal, f) runs f in a goroutine and checks,
 * empirically, that it always or never blocks: a second goroutine answers
 * "always" after 10 ms (or after 10 s when f is expected not to block). Go's
 * closures are functions of no arguments here, sharing package-level channels.
 * Goroutines left blocked (or sleeping) when main returns end with the program,
 * as in Go. */
#include "go_chan.h"

#include <string.h>

static const char *const always = "function did not";
static const char *const never = "function did";

static llgo_chan *nilch;    /* var nilch chan int */
static llgo_chan *closedch; /* closed below */

static void unreachable(void) { llgo_panic("control flow shouldn't reach here"); }

/* ---- testPanic ---- */

struct panic_check {
  const char *signal;
};

static void check_panicked(void *arg) {
  const char *signal = ((struct panic_check *)arg)->signal;
  const char *s = never;
  if (llgo_recover() != NULL) {
    s = always; /* f panicked */
  }
  if (strcmp(s, signal) != 0) {
    static char message[64];
    snprintf(message, sizeof message, "%s panic", signal);
    llgo_panic(message);
  }
}

static void test_panic(const char *signal, void (*f)(void)) {
  struct panic_check *check = go_new(sizeof *check);
  check->signal = signal;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, check_panicked, check);
    f();
  }
  llgo_defer_end(&frame);
}

/* ---- testBlock ---- */

struct block_test {
  const char *signal;
  void (*f)(void);
  llgo_chan *c;
};

static void run_f(void *arg) {
  struct block_test *t = arg;
  t->f();
  llgo_chan_send(t->c, &never); /* f didn't block */
}

static void run_timeout(void *arg) {
  struct block_test *t = arg;
  if (t->signal == never) {
    /* Wait a long time to make sure that we don't miss our window by accident on a slow machine. */
    llgo_sleep((int64_t)10 * 1000000000);
  } else {
    /* Wait as short a time as we can without false negatives. */
    llgo_sleep((int64_t)10 * 1000000);
  }
  llgo_chan_send(t->c, &always); /* f blocked always */
}

static void test_block(const char *signal, void (*f)(void)) {
  struct block_test *t = go_new(sizeof *t);
  t->signal = signal;
  t->f = f;
  t->c = llgo_chan_make(sizeof(const char *), 0);
  llgo_go(run_f, t);
  llgo_go(run_timeout, t);
  const char *got;
  llgo_chan_recv(t->c, &got);
  if (got != signal) {
    static char message[64];
    snprintf(message, sizeof message, "%s block", signal);
    llgo_panic(message);
  }
}

/* ---- the functions under test ---- */

static int seven = 7;

static void send_nil(void) { llgo_chan_send(nilch, &seven); }
static void recv_nil(void) { llgo_chan_recv(nilch, NULL); }

static void select_send_nil_default(void) {
  llgo_select_case cas = {nilch, LLGO_SELECT_SEND, &seven};
  if (llgo_select(&cas, 1, 0, NULL) == 0) unreachable();
}
static void select_recv_nil_default(void) {
  llgo_select_case cas = {nilch, LLGO_SELECT_RECV, NULL};
  if (llgo_select(&cas, 1, 0, NULL) == 0) unreachable();
}

static void send_async_with_room(void) {
  llgo_chan *ch = llgo_chan_make(sizeof(int), 1); /* async = 1 */
  llgo_chan_send(ch, &seven);
}

static void recv_closed_ten_times(void) {
  for (int i = 0; i < 10; i++) {
    int x = -1;
    llgo_chan_recv(closedch, &x);
    if (x != 0) llgo_panic("expected zero value when reading from closed channel");
    x = -1;
    int ok = llgo_chan_recv2(closedch, &x);
    if (x != 0 || ok) {
      fprintf(stderr, "closedch: %d %s\n", x, ok ? "true" : "false");
      llgo_panic("expected 0, false from closed channel");
    }
  }
}

static void send_closed(void) { llgo_chan_send(closedch, &seven); }

static void recv_unready(void) {
  llgo_chan *ch = llgo_chan_make(sizeof(int), 0);
  llgo_chan_recv(ch, NULL);
}

static void empty_select(void) { llgo_select(NULL, 0, 1, NULL); }

static void select_recv_nil(void) {
  llgo_select_case cas = {nilch, LLGO_SELECT_RECV, NULL};
  llgo_select(&cas, 1, 1, NULL);
  unreachable();
}
static void select_send_nil(void) {
  llgo_select_case cas = {nilch, LLGO_SELECT_SEND, &seven};
  llgo_select(&cas, 1, 1, NULL);
  unreachable();
}
static void select_recv_send_nil(void) {
  llgo_select_case cases[2] = {{nilch, LLGO_SELECT_RECV, NULL}, {nilch, LLGO_SELECT_SEND, &seven}};
  llgo_select(cases, 2, 1, NULL);
  unreachable();
}

static void select_recv_unready(void) {
  llgo_chan *ch = llgo_chan_make(sizeof(int), 0);
  llgo_select_case cas = {ch, LLGO_SELECT_RECV, NULL};
  llgo_select(&cas, 1, 1, NULL);
  unreachable();
}

static void select_default_only(void) { llgo_select(NULL, 0, 0, NULL); }

static void select_ready_send(void) {
  llgo_chan *ch = llgo_chan_make(sizeof(int), 1);
  llgo_select_case cas = {ch, LLGO_SELECT_SEND, &seven};
  if (llgo_select(&cas, 1, 0, NULL) != 0) unreachable();
}
static void select_ready_recv(void) {
  llgo_chan *ch = llgo_chan_make(sizeof(int), 1);
  llgo_chan_send(ch, &seven);
  llgo_select_case cas = {ch, LLGO_SELECT_RECV, NULL};
  if (llgo_select(&cas, 1, 0, NULL) != 0) unreachable();
}

static void select_recv_closed(void) {
  llgo_select_case cas = {closedch, LLGO_SELECT_RECV, NULL};
  llgo_select(&cas, 1, 1, NULL);
}
static void select_recv_closed_value(void) {
  int x;
  llgo_select_case cas = {closedch, LLGO_SELECT_RECV, &x};
  llgo_select(&cas, 1, 1, NULL);
  (void)x;
}
static void select_recv_closed_value_ok(void) {
  int x, ok;
  llgo_select_case cas = {closedch, LLGO_SELECT_RECV, &x};
  llgo_select(&cas, 1, 1, &ok);
  (void)x;
  (void)ok;
}
static void select_send_closed(void) {
  llgo_select_case cas = {closedch, LLGO_SELECT_SEND, &seven};
  llgo_select(&cas, 1, 1, NULL);
}

/* select should not get confused if it sees itself */
static void select_sees_itself(void) {
  llgo_chan *c = llgo_chan_make(sizeof(int), 0);
  int one = 1;
  llgo_select_case cases[2] = {{c, LLGO_SELECT_SEND, &one}, {c, LLGO_SELECT_RECV, NULL}};
  llgo_select(cases, 2, 1, NULL);
}

int go_chan_select3(int argc, char **argv) {
  (void)argc;
  (void)argv;
  int checks = 0;
  closedch = llgo_chan_make(sizeof(int), 0);
  llgo_chan_close(closedch);

  /* sending/receiving from a nil channel blocks */
  test_block(always, send_nil), checks++;
  test_block(always, recv_nil), checks++;
  /* sending/receiving from a nil channel inside a select is never selected */
  test_panic(never, select_send_nil_default), checks++;
  test_panic(never, select_recv_nil_default), checks++;
  /* sending to an async channel with free buffer space never blocks */
  test_block(never, send_async_with_room), checks++;
  /* receiving from a closed channel never blocks */
  test_block(never, recv_closed_ten_times), checks++;
  /* sending to a closed channel panics. */
  test_panic(always, send_closed), checks++;
  /* receiving from a non-ready channel always blocks */
  test_block(always, recv_unready), checks++;
  /* empty selects always block */
  test_block(always, empty_select), checks++;
  /* selects with only nil channels always block */
  test_block(always, select_recv_nil), checks++;
  test_block(always, select_send_nil), checks++;
  test_block(always, select_recv_send_nil), checks++;
  /* selects with non-ready non-nil channels always block */
  test_block(always, select_recv_unready), checks++;
  /* selects with default cases don't block */
  test_block(never, select_default_only), checks++;
  test_block(never, select_recv_nil_default), checks++;
  test_block(never, select_send_nil_default), checks++;
  /* selects with ready channels don't block */
  test_block(never, select_ready_send), checks++;
  test_block(never, select_ready_recv), checks++;
  /* selects with closed channels behave like ordinary operations */
  test_block(never, select_recv_closed), checks++;
  test_block(never, select_recv_closed_value), checks++;
  test_block(never, select_recv_closed_value_ok), checks++;
  test_panic(always, select_send_closed), checks++;
  /* select should not get confused if it sees itself */
  test_block(always, select_sees_itself), checks++;
  printf("select3: ok, %d checks\n", checks);
  return 0;
}
