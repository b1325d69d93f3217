/* fifo.c - Go's test/chan/fifo.go: unbuffered channels act as pure FIFOs.
 *
 * AsynchFifo fills a buffered channel and drains it in order; SynchFifo threads a
 * daisy chain of goroutines that each take the next value of one unbuffered
 * channel, which only works if blocked senders are served in FIFO order. */
#include "go_chan.h"

#define N 10

static void asynch_fifo(void) {
  llgo_chan *ch = llgo_chan_make(sizeof(int), N);
  for (int i = 0; i < N; i++) {
    llgo_chan_send(ch, &i);
  }
  for (int i = 0; i < N; i++) {
    int v;
    llgo_chan_recv(ch, &v);
    if (v != i) {
      fprintf(stderr, "bad receive\n");
      exit(1);
    }
  }
}

struct chain_args {
  llgo_chan *ch, *in, *out;
  int val;
};

static void chain(void *arg) {
  struct chain_args *a = arg;
  llgo_chan_recv(a->in, NULL);
  int v;
  llgo_chan_recv(a->ch, &v);
  if (v != a->val) {
    static char message[32];
    snprintf(message, sizeof message, "%d", a->val);
    llgo_panic(message);
  }
  int one = 1;
  llgo_chan_send(a->out, &one);
}

/* thread together a daisy chain to read the elements in sequence */
static void synch_fifo(void) {
  llgo_chan *ch = llgo_chan_make(sizeof(int), 0);
  llgo_chan *in = llgo_chan_make(sizeof(int), 0);
  llgo_chan *start = in;
  for (int i = 0; i < N; i++) {
    llgo_chan *out = llgo_chan_make(sizeof(int), 0);
    struct chain_args *a = go_new(sizeof *a);
    *a = (struct chain_args){ch, in, out, i};
    llgo_go(chain, a);
    in = out;
  }
  int zero = 0;
  llgo_chan_send(start, &zero);
  for (int i = 0; i < N; i++) {
    llgo_chan_send(ch, &i);
  }
  llgo_chan_recv(in, NULL);
}

int go_chan_fifo(int argc, char **argv) {
  (void)argc;
  (void)argv;
  asynch_fifo();
  synch_fifo();
  printf("fifo: ok, %d values in order through a buffered channel and a chain of %d goroutines\n", N, N);
  return 0;
}
