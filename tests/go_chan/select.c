/* select.c - Go's test/chan/select.go: simple select.
 *
 * Send(a, b) sends, through a select with a default case, to whichever of two
 * buffered channels has room, nils that channel and repeats. As in Go, every send
 * expression (GetValue()) is evaluated once on entering the select, whether or
 * not its case is chosen, so GetValue runs twice per select. */
#include "go_chan.h"

static unsigned counter;
static unsigned shift;

static unsigned get_value(void) {
  counter++;
  return 1u << shift;
}

static int send(llgo_chan *a, llgo_chan *b) {
  int i = 0;
  for (;;) {
    unsigned value_a = get_value(); /* case a <- GetValue() */
    unsigned value_b = get_value(); /* case b <- GetValue() */
    llgo_select_case cases[2] = {{a, LLGO_SELECT_SEND, &value_a}, {b, LLGO_SELECT_SEND, &value_b}};
    int chosen = llgo_select(cases, 2, 0, NULL);
    if (chosen == 0) {
      i++;
      a = NULL;
    } else if (chosen == 1) {
      i++;
      b = NULL;
    } else {
      break; /* default: break LOOP */
    }
    shift++;
  }
  return i;
}

int go_chan_select(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_chan *a = llgo_chan_make(sizeof(unsigned), 1);
  llgo_chan *b = llgo_chan_make(sizeof(unsigned), 1);
  int v = send(a, b);
  if (v != 2) {
    fprintf(stderr, "Send returned %d != 2\n", v);
    llgo_panic("fail");
  }
  unsigned av, bv;
  llgo_chan_recv(a, &av);
  llgo_chan_recv(b, &bv);
  if ((av | bv) != 3) {
    fprintf(stderr, "bad values %u %u\n", av, bv);
    llgo_panic("fail");
  }
  v = send(a, NULL);
  if (v != 1) {
    fprintf(stderr, "Send returned %d != 1\n", v);
    llgo_panic("fail");
  }
  if (counter != 10) {
    fprintf(stderr, "counter is %u != 10\n", counter);
    llgo_panic("fail");
  }
  printf("select: ok, counter=%u\n", counter);
  return 0;
}
