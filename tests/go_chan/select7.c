/* select7.c - Go's test/chan/select7.go: select when discarding a value.
 *
 * Three receivers (plain receive, one-case select, two-case select) against three
 * senders (plain send, one-case select, two-case select), each pair on a fresh
 * unbuffered channel, with the receiver started first and a Gosched before the
 * send. Go's `recv func(<-chan int)` argument is a function pointer here. */
#include "go_chan.h"

static void recv1(void *c) { llgo_chan_recv(c, NULL); }

static void recv2(void *c) {
  llgo_select_case cas = {c, LLGO_SELECT_RECV, NULL};
  llgo_select(&cas, 1, 1, NULL);
}

static void recv3(void *c) {
  llgo_chan *c2 = llgo_chan_make(sizeof(int), 0);
  llgo_select_case cases[2] = {{c, LLGO_SELECT_RECV, NULL}, {c2, LLGO_SELECT_RECV, NULL}};
  llgo_select(cases, 2, 1, NULL);
}

static int one = 1;
static int sends;

static void send1(llgo_go_fn recv) {
  llgo_chan *c = llgo_chan_make(sizeof(int), 0);
  llgo_go(recv, c);
  llgo_gosched();
  llgo_chan_send(c, &one);
  sends++;
}

static void send2(llgo_go_fn recv) {
  llgo_chan *c = llgo_chan_make(sizeof(int), 0);
  llgo_go(recv, c);
  llgo_gosched();
  llgo_select_case cas = {c, LLGO_SELECT_SEND, &one};
  llgo_select(&cas, 1, 1, NULL);
  sends++;
}

static void send3(llgo_go_fn recv) {
  llgo_chan *c = llgo_chan_make(sizeof(int), 0);
  llgo_go(recv, c);
  llgo_gosched();
  llgo_chan *c2 = llgo_chan_make(sizeof(int), 0);
  llgo_select_case cases[2] = {{c, LLGO_SELECT_SEND, &one}, {c2, LLGO_SELECT_SEND, &one}};
  llgo_select(cases, 2, 1, NULL);
  sends++;
}

int go_chan_select7(int argc, char **argv) {
  (void)argc;
  (void)argv;
  send1(recv1);
  send2(recv1);
  send3(recv1);
  send1(recv2);
  send2(recv2);
  send3(recv2);
  send1(recv3);
  send2(recv3);
  send3(recv3);
  printf("select7: ok, %d sends received\n", sends);
  return 0;
}
