/* sieve1.c - Go's test/chan/sieve1.go: the classical inefficient concurrent prime
 * sieve. Generate primes up to 100 using channels, checking the results. The
 * sieve is a linear chain of divisibility filters, equivalent to trial-dividing
 * each n by all primes p <= n. Goroutines still running when main returns end
 * with the program, as in Go. */
#include "go_chan.h"

/* Send the sequence 2, 3, 4, ... to channel 'ch'. */
static void generate(void *ch) {
  for (int i = 2;; i++) {
    llgo_chan_send(ch, &i); /* Send 'i' to channel 'ch'. */
  }
}

struct filter_args {
  llgo_chan *in, *out;
  int prime;
};

/* Copy the values from channel 'in' to channel 'out', removing those divisible by 'prime'. */
static void filter(void *arg) {
  struct filter_args *f = arg;
  int i;
  while (llgo_chan_recv2(f->in, &i)) { /* Loop over values received from 'in'. */
    if (i % f->prime != 0) {
      llgo_chan_send(f->out, &i); /* Send 'i' to channel 'out'. */
    }
  }
}

/* The prime sieve: Daisy-chain Filter processes together. */
static void sieve(void *primes) {
  llgo_chan *ch = llgo_chan_make(sizeof(int), 0); /* Create a new channel. */
  llgo_go(generate, ch);                          /* Start Generate() as a subprocess. */
  for (;;) {
    /* Note that ch is different on each iteration. */
    int prime;
    llgo_chan_recv(ch, &prime);
    llgo_chan_send(primes, &prime);
    llgo_chan *ch1 = llgo_chan_make(sizeof(int), 0);
    struct filter_args *f = go_new(sizeof *f);
    *f = (struct filter_args){ch, ch1, prime};
    llgo_go(filter, f);
    ch = ch1;
  }
}

int go_chan_sieve1(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_chan *primes = llgo_chan_make(sizeof(int), 0);
  llgo_go(sieve, primes);
  static const int a[] = {2,  3,  5,  7,  11, 13, 17, 19, 23, 29, 31, 37, 41,
                          43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97};
  int n = (int)(sizeof a / sizeof a[0]);
  for (int i = 0; i < n; i++) {
    int x;
    llgo_chan_recv(primes, &x);
    if (x != a[i]) {
      fprintf(stderr, "%d  !=  %d\n", x, a[i]);
      llgo_panic("fail");
    }
  }
  printf("sieve1: ok, the first %d primes\n", n);
  return 0;
}
