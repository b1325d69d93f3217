/* select6.c - Go's test/chan/select6.go: Issue 2075. A bug in select corrupted
 * the channel queues of failed cases if there were multiple waiters on those
 * channels and the select was the last in the queue. If further waits are made on
 * the channel without draining it first, those waiters would never wake up. In
 * the code below c1 is such a channel. */
#include "go_chan.h"

static llgo_chan *c1, *c2, *c3;

static void recv_c1(void *unused) {
  (void)unused;
  llgo_chan_recv(c1, NULL);
}

static void select_then_recv_c1(void *unused) {
  (void)unused;
  _Bool v;
  llgo_select_case cases[2] = {{c1, LLGO_SELECT_RECV, &v}, {c2, LLGO_SELECT_RECV, &v}};
  if (llgo_select(cases, 2, 1, NULL) == 0) {
    llgo_panic("dummy");
  }
  _Bool yes = 1;
  llgo_chan_send(c3, &yes);
  llgo_chan_recv(c1, NULL);
}

static void send_c2(void *unused) {
  (void)unused;
  _Bool yes = 1;
  llgo_chan_send(c2, &yes);
}

int go_chan_select6(int argc, char **argv) {
  (void)argc;
  (void)argv;
  c1 = llgo_chan_make(sizeof(_Bool), 0);
  c2 = llgo_chan_make(sizeof(_Bool), 0);
  c3 = llgo_chan_make(sizeof(_Bool), 0);
  llgo_go(recv_c1, NULL);
  llgo_go(select_then_recv_c1, NULL);
  llgo_go(send_c2, NULL);
  llgo_chan_recv(c3, NULL);
  _Bool yes = 1;
  llgo_chan_send(c1, &yes);
  llgo_chan_send(c1, &yes);
  printf("select6: ok, both receivers of c1 woke\n");
  return 0;
}
