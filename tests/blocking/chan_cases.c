/* chan_cases.c - channel semantics (Go's runtime/chan.go): the panics of send and
 * close, zero values from a closed channel, the nil channel, FIFO order of
 * waiting receivers and senders, len/cap, large and zero-size elements, and the
 * rule that values never cross goroutine stacks. */
#include "blocking_test.h"

#include <stdint.h>

static int seven = 7;

static int send_on_closed(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *c = llgo_chan_make(sizeof(int), 1);
  llgo_chan_close(c);
  printf("sending\n");
  llgo_chan_send(c, &seven);
  printf("not reached\n");
  return 0;
}

static int close_of_closed(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *c = llgo_chan_make(sizeof(int), 0);
  llgo_chan_close(c);
  llgo_chan_close(c);
  return 0;
}

static int close_of_nil(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan_close(NULL);
  return 0;
}

static _Atomic(llgo_g *) sender_g;

static void blocked_sender(void *c) {
  sender_g = llgo_current_g();
  llgo_chan_send(c, &seven);
  printf("not reached\n");
}

/* A sender waiting on a channel that is closed panics (in its own goroutine). */
static int close_wakes_sender_to_panic(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *c = llgo_chan_make(sizeof(int), 0);
  llgo_go(blocked_sender, c);
  wait_parked(&sender_g);
  printf("closing\n");
  fflush(stdout);
  llgo_chan_close(c);
  /* A nil channel blocks forever: the sender's panic ends the program however late
   * it runs (a sender that does not panic leaves a deadlock, a failure too). */
  llgo_chan_recv(NULL, NULL);
  return 0;
}

static void recover_and_report(void *unused) {
  (void)unused;
  const char *message = llgo_recover();
  printf("recovered: %s\n", message ? message : "nil");
}

static int send_on_closed_recovered(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *c = llgo_chan_make(sizeof(int), 0);
  llgo_chan_close(c);
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, recover_and_report, NULL);
    llgo_chan_send(c, &seven);
  }
  llgo_defer_end(&frame);
  printf("after\n");
  return 0;
}

static llgo_chan *receivers_done, *receivers_finished;
static int receiver_results[2][2];
static _Atomic(llgo_g *) receiver_g[2];

static void blocked_receiver(void *id) {
  int i = (int)(intptr_t)id;
  receiver_g[i] = llgo_current_g();
  int v = -1;
  int ok = llgo_chan_recv2(receivers_done, &v);
  receiver_results[i][0] = v;
  receiver_results[i][1] = ok;
  llgo_chan_send(receivers_finished, NULL);
}

/* Buffered values survive a close; then zero values with ok = false, also for
 * receivers that were waiting when it closed. */
static int closed_drains_then_zero(int argc, char **argv) {
  (void)argc, (void)argv;
  receivers_done = llgo_chan_make(sizeof(int), 0);
  receivers_finished = llgo_chan_make(0, 2);
  for (intptr_t i = 0; i < 2; i++) {
    llgo_go(blocked_receiver, (void *)i);
    wait_parked(&receiver_g[i]);
  }
  llgo_chan_close(receivers_done);
  llgo_chan *c = llgo_chan_make(sizeof(int), 3);
  for (int i = 1; i <= 3; i++) {
    llgo_chan_send(c, &i);
  }
  llgo_chan_close(c);
  for (int i = 0; i < 5; i++) {
    int v = -1;
    int ok = llgo_chan_recv2(c, &v);
    event("%d %s", v, ok ? "true" : "false");
  }
  int v = -1;
  int ok = 1;
  EXPECT(llgo_chan_try_recv(c, &v, &ok) == 1 && v == 0 && ok == 0, "a non-blocking receive from a closed channel proceeds");
  llgo_chan_recv(receivers_finished, NULL);
  llgo_chan_recv(receivers_finished, NULL);
  for (int i = 0; i < 2; i++) {
    event("waiting receiver %d woke with %d %s", i, receiver_results[i][0], receiver_results[i][1] ? "true" : "false");
  }
  printf("%s\n", events());
  return 0;
}

static int nil_channel_blocks_forever(int argc, char **argv) {
  (void)argc, (void)argv;
  EXPECT(llgo_chan_try_send(NULL, &seven) == 0, "a non-blocking send on nil does not proceed");
  EXPECT(llgo_chan_try_recv(NULL, NULL, NULL) == 0, "a non-blocking receive on nil does not proceed");
  printf("receiving from nil\n");
  fflush(stdout);
  llgo_chan_recv(NULL, NULL);
  printf("not reached\n");
  return 0;
}

static llgo_chan *fifo_channel, *fifo_done;
static _Atomic(llgo_g *) parked[5];
static int received_by[5];

static void numbered_receiver(void *id) {
  parked[(intptr_t)id] = llgo_current_g();
  llgo_chan_recv(fifo_channel, &received_by[(intptr_t)id]);
  llgo_chan_send(fifo_done, NULL);
}

static void numbered_sender(void *id) {
  parked[(intptr_t)id] = llgo_current_g();
  int v = 10 + (int)(intptr_t)id;
  llgo_chan_send(fifo_channel, &v);
}

/* Waiting receivers are served, and waiting senders deliver, in arrival order. */
static int waiters_are_fifo(int argc, char **argv) {
  (void)argc, (void)argv;
  fifo_channel = llgo_chan_make(sizeof(int), 0);
  fifo_done = llgo_chan_make(0, 5);
  for (intptr_t i = 0; i < 5; i++) {
    llgo_go(numbered_receiver, (void *)i);
    wait_parked(&parked[i]); /* it waits before the next one starts */
  }
  for (int i = 0; i < 5; i++) {
    llgo_chan_send(fifo_channel, &i);
  }
  for (int i = 0; i < 5; i++) {
    llgo_chan_recv(fifo_done, NULL);
  }
  for (int i = 0; i < 5; i++) {
    event("r%d=%d", i, received_by[i]);
  }
  for (intptr_t i = 0; i < 5; i++) {
    parked[i] = NULL;
    llgo_go(numbered_sender, (void *)i);
    wait_parked(&parked[i]);
  }
  for (int i = 0; i < 5; i++) {
    int v;
    llgo_chan_recv(fifo_channel, &v);
    event("got %d", v);
  }
  printf("%s\n", events());
  return 0;
}

static int len_and_cap(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *c = llgo_chan_make(sizeof(int), 4);
  llgo_chan_send(c, &seven);
  llgo_chan_send(c, &seven);
  printf("len=%zu cap=%zu nil: len=%zu cap=%zu unbuffered cap=%zu\n", llgo_chan_len(c), llgo_chan_cap(c),
         llgo_chan_len(NULL), llgo_chan_cap(NULL), llgo_chan_cap(llgo_chan_make(8, 0)));
  return 0;
}

#define BIG 4096
typedef struct big {
  unsigned char bytes[BIG];
} big;

static void fill(big *b, int seed) {
  for (int i = 0; i < BIG; i++) b->bytes[i] = (unsigned char)(seed * 31 + i * 7);
}

static int check(const big *b, int seed) {
  for (int i = 0; i < BIG; i++)
    if (b->bytes[i] != (unsigned char)(seed * 31 + i * 7)) return 0;
  return 1;
}

static llgo_chan *big_unbuffered, *big_buffered;

static void big_sender(void *unused) {
  (void)unused;
  big *b = test_new(sizeof *b); /* not a local: 4 KiB; the value is copied by the send anyway */
  for (int seed = 0; seed < 6; seed++) {
    fill(b, seed);
    llgo_chan_send(seed % 2 ? big_buffered : big_unbuffered, b);
  }
  free(b);
}

/* 4 KiB elements through parked receivers, parked senders and a buffer. */
static int large_elements(int argc, char **argv) {
  (void)argc, (void)argv;
  big_unbuffered = llgo_chan_make(sizeof(big), 0);
  big_buffered = llgo_chan_make(sizeof(big), 2);
  llgo_go(big_sender, NULL);
  big *b = test_new(sizeof *b);
  for (int seed = 0; seed < 6; seed++) {
    if (seed == 3) llgo_sleep(5 * MS); /* the sender parks on the buffered channel meanwhile */
    llgo_chan_recv(seed % 2 ? big_buffered : big_unbuffered, b);
    EXPECT(check(b, seed), "element %d arrived intact", seed);
  }
  printf("6 elements of %d bytes intact\n", BIG);
  return 0;
}

static llgo_chan *zero_size;

static void zero_size_sender(void *unused) {
  (void)unused;
  for (int i = 0; i < 3; i++) llgo_chan_send(zero_size, NULL);
  llgo_chan_close(zero_size);
}

static int zero_size_elements(int argc, char **argv) {
  (void)argc, (void)argv;
  zero_size = llgo_chan_make(0, 0);
  llgo_go(zero_size_sender, NULL);
  int received = 0;
  while (llgo_chan_recv2(zero_size, NULL)) received++;
  printf("received %d empty values, then closed\n", received);
  return 0;
}

/* ---- values never cross stacks (a parked goroutine's stack may be copied away) ----
 * These two cases look into a parked goroutine's locals through a pointer it
 * published, which is only meaningful while every goroutine keeps its own stack
 * in place: they pin *when* the copies happen, the behaviour that makes
 * shared-stack contexts safe. */

static llgo_chan *handoff;
static volatile int *published_local;
static _Atomic(llgo_g *) other;

static void receiver_publishing_its_destination(void *unused) {
  (void)unused;
  int destination = -1;
  published_local = &destination;
  other = llgo_current_g();
  llgo_chan_recv(handoff, &destination);
  event("receiver has %d", destination);
}

/* A sender that finds a parked receiver leaves the value in the receiver's heap
 * waiter: the receiver's variable changes only once the receiver runs. */
static int receiver_copies_after_waking(int argc, char **argv) {
  (void)argc, (void)argv;
  handoff = llgo_chan_make(sizeof(int), 0);
  llgo_go(receiver_publishing_its_destination, NULL);
  wait_parked(&other);
  int value = 42;
  llgo_chan_send(handoff, &value);
  event("after send, the parked receiver's variable is %d", *published_local);
  llgo_sleep(5 * MS);
  printf("%s\n", events());
  return 0;
}

static void sender_publishing_its_value(void *unused) {
  (void)unused;
  int value = 1;
  published_local = &value;
  other = llgo_current_g();
  llgo_chan_send(handoff, &value);
}

/* A parked sender's value was copied to the heap before it parked: changing the
 * sender's variable afterwards changes nothing. */
static int sender_value_copied_before_parking(int argc, char **argv) {
  (void)argc, (void)argv;
  handoff = llgo_chan_make(sizeof(int), 0);
  llgo_go(sender_publishing_its_value, NULL);
  wait_parked(&other);
  *published_local = 2;
  int got;
  llgo_chan_recv(handoff, &got);
  printf("received %d\n", got);
  return 0;
}

static int make_size_out_of_range(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan_make(1024, SIZE_MAX / 512);
  return 0;
}

/* Item 8 on shared stacks (and everywhere else): two goroutines wait at the same
 * depth, so with shared-stack contexts their frames occupy the same addresses,
 * and a third wakes them by a send and by a select. A runtime that wrote a value
 * into a parked receiver's variable would write into whichever goroutine's
 * frames are on the stack at that moment: the receiver, once its own copy is
 * restored, would still see -1, and the writer's guard words would change. */
static llgo_chan *handoff_plain, *handoff_select, *handoff_never, *handoff_done;

static int guarded_receive(int use_select) {
  volatile uint32_t guard[64];
  for (int i = 0; i < 64; i++) {
    guard[i] = 0x5a5a5a5au;
  }
  int destination = -1;
  if (use_select) {
    llgo_select_case cases[2] = {{handoff_never, LLGO_SELECT_RECV, NULL},
                                 {handoff_select, LLGO_SELECT_RECV, &destination}};
    EXPECT(llgo_select(cases, 2, 1, NULL) == 1, "the select woke on the wrong case");
  } else {
    llgo_chan_recv(handoff_plain, &destination);
  }
  for (int i = 0; i < 64; i++) {
    EXPECT(guard[i] == 0x5a5a5a5au, "guard word %d changed while the goroutine was parked", i);
  }
  return destination;
}

static void handoff_receiver(void *use_select) {
  int got = guarded_receive(use_select != NULL);
  event("%s receiver got %d", use_select != NULL ? "select" : "plain", got);
  int unit = 0;
  llgo_chan_send(handoff_done, &unit);
}

static int values_never_cross_stacks(int argc, char **argv) {
  (void)argc, (void)argv;
  handoff_plain = llgo_chan_make(sizeof(int), 0);
  handoff_select = llgo_chan_make(sizeof(int), 0);
  handoff_never = llgo_chan_make(sizeof(int), 0);
  handoff_done = llgo_chan_make(sizeof(int), 0);
  llgo_go(handoff_receiver, NULL);
  llgo_go(handoff_receiver, handoff_receiver);
  llgo_gosched();
  llgo_gosched();
  int values[2] = {42, 43};
  llgo_chan_send(handoff_plain, &values[0]);
  llgo_chan_send(handoff_select, &values[1]);
  int unit;
  llgo_chan_recv(handoff_done, &unit);
  llgo_chan_recv(handoff_done, &unit);
  printf("%s\n", strcmp(events(), "plain receiver got 42,select receiver got 43") == 0 ||
                         strcmp(events(), "select receiver got 43,plain receiver got 42") == 0
                     ? "both parked receivers got their values, guards intact"
                     : events());
  return 0;
}
const blocking_case chan_cases[] = {
    {"send-on-closed", send_on_closed},
    {"close-of-closed", close_of_closed},
    {"close-of-nil", close_of_nil},
    {"close-wakes-sender-to-panic", close_wakes_sender_to_panic},
    {"send-on-closed-recovered", send_on_closed_recovered},
    {"closed-drains-then-zero", closed_drains_then_zero},
    {"nil-channel-blocks-forever", nil_channel_blocks_forever},
    {"waiters-are-fifo", waiters_are_fifo},
    {"len-and-cap", len_and_cap},
    {"large-elements", large_elements},
    {"zero-size-elements", zero_size_elements},
    {"receiver-copies-after-waking", receiver_copies_after_waking},
    {"sender-value-copied-before-parking", sender_value_copied_before_parking},
    {"make-size-out-of-range", make_size_out_of_range},
    {"values-never-cross-stacks", values_never_cross_stacks},
    {NULL, NULL},
};
