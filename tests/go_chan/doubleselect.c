/* doubleselect.c - Go's test/chan/doubleselect.go: the situation in which two cases
 * of a select can both end up running (http://codereview.appspot.com/180068).
 *
 * A sender sends a counter to one of four channels through a select, four muxes
 * forward to one channel, and the receiver checks that no value arrives twice.
 * Differences: runtime.GOMAXPROCS(2) has no equivalent (the single worker has one
 * P; on the pthread backend every goroutine is a thread); the -n flag is the
 * optional argument; Go's map of seen values is an array. */
#include "go_chan.h"

#include <string.h>

static long iterations = 100000;

struct four_chans {
  llgo_chan *c1, *c2, *c3, *c4;
};

static void close_chan(void *c) { llgo_chan_close(c); }

/* sender sends a counter to one of four different channels. If two cases both end
 * up running in the same iteration, the same value will be sent to two channels. */
static void sender(void *arg) {
  struct four_chans *cs = arg;
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, close_chan, cs->c1);
    llgo_defer(&frame, close_chan, cs->c2);
    llgo_defer(&frame, close_chan, cs->c3);
    llgo_defer(&frame, close_chan, cs->c4);
    for (long i = 0; i < iterations; i++) {
      long value = i;
      llgo_select_case cases[4] = {
          {cs->c1, LLGO_SELECT_SEND, &value},
          {cs->c2, LLGO_SELECT_SEND, &value},
          {cs->c3, LLGO_SELECT_SEND, &value},
          {cs->c4, LLGO_SELECT_SEND, &value},
      };
      llgo_select(cases, 4, 1, NULL);
    }
  }
  llgo_defer_end(&frame);
}

struct mux_args {
  llgo_chan *out, *in, *done;
};

/* mux receives the values from sender and forwards them onto another channel. */
static void mux(void *arg) {
  struct mux_args *m = arg;
  long v;
  while (llgo_chan_recv2(m->in, &v)) {
    llgo_chan_send(m->out, &v);
  }
  int yes = 1;
  llgo_chan_send(m->done, &yes);
}

/* recver gets a stream of values from the four muxes and checks for duplicates. */
static long recver(llgo_chan *in) {
  unsigned char *seen = go_new((size_t)iterations);
  long count = 0;
  long v;
  while (llgo_chan_recv2(in, &v)) {
    if (v < 0 || v >= iterations || seen[v]) {
      fprintf(stderr, "got duplicate value:  %ld\n", v);
      llgo_panic("fail");
    }
    seen[v] = 1;
    count++;
  }
  free(seen);
  return count;
}

static llgo_chan *cmux_for_closer, *done_for_closer;

static void closer(void *unused) {
  (void)unused;
  for (int i = 0; i < 4; i++) {
    llgo_chan_recv(done_for_closer, NULL);
  }
  llgo_chan_close(cmux_for_closer);
}

int go_chan_doubleselect(int argc, char **argv) {
  if (argc > 1) {
    iterations = strtol(argv[1], NULL, 10);
  }
  struct four_chans *cs = go_new(sizeof *cs);
  cs->c1 = llgo_chan_make(sizeof(long), 0);
  cs->c2 = llgo_chan_make(sizeof(long), 0);
  cs->c3 = llgo_chan_make(sizeof(long), 0);
  cs->c4 = llgo_chan_make(sizeof(long), 0);
  llgo_chan *done = llgo_chan_make(sizeof(int), 0);
  llgo_chan *cmux = llgo_chan_make(sizeof(long), 0);
  llgo_go(sender, cs);
  llgo_chan *ins[4] = {cs->c1, cs->c2, cs->c3, cs->c4};
  for (int i = 0; i < 4; i++) {
    struct mux_args *m = go_new(sizeof *m);
    *m = (struct mux_args){cmux, ins[i], done};
    llgo_go(mux, m);
  }
  cmux_for_closer = cmux;
  done_for_closer = done;
  llgo_go(closer, NULL);
  /* We keep the recver because it might catch more bugs in the future. */
  long received = recver(cmux);
  printf("doubleselect: ok, %ld values, no duplicates\n", received);
  return received == iterations ? 0 : 1;
}
