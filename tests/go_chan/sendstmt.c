/* sendstmt.c - Go's test/chan/sendstmt.go: parsing cases of the send statement.
 *
 * chanchan: `case <-cc <- 2:` sends 2 on the channel received from cc; the
 * receive is the case's channel expression, evaluated on entering the select.
 * sendprec: `c <- false || true` sends true. Both are about Go's grammar; the port
 * keeps their run-time behaviour. */
#include "go_chan.h"

static void chanchan(void) {
  llgo_chan *cc = llgo_chan_make(sizeof(llgo_chan *), 1);
  llgo_chan *c = llgo_chan_make(sizeof(int), 1);
  llgo_chan_send(cc, &c);
  llgo_chan *target; /* <-cc, evaluated on entering the select */
  llgo_chan_recv(cc, &target);
  int two = 2;
  llgo_select_case cas = {target, LLGO_SELECT_SEND, &two};
  if (llgo_select(&cas, 1, 0, NULL) != 0) {
    llgo_panic("nonblock");
  }
  int v;
  llgo_chan_recv(c, &v);
  if (v != 2) {
    llgo_panic("bad receive");
  }
}

static void sendprec(void) {
  llgo_chan *c = llgo_chan_make(sizeof(_Bool), 1);
  _Bool value = 0 || 1; /* not a syntax error: same as c <- (false || true) */
  llgo_chan_send(c, &value);
  _Bool got;
  llgo_chan_recv(c, &got);
  if (!got) {
    llgo_panic("sent false");
  }
}

int go_chan_sendstmt(int argc, char **argv) {
  (void)argc;
  (void)argv;
  chanchan();
  sendprec();
  printf("sendstmt: ok\n");
  return 0;
}
