/* goroutines.c - Go's test/chan/goroutines.go: a torture test for goroutines. Make
 * a lot of goroutines, threaded together, and tear them down cleanly.
 *
 * Differences: Go's goroutines start with 2 KiB stacks that grow; here each gets a
 * fixed 16 KiB stack (llgo_go_stack), enough for f, so 10,000 fit in a 32-bit
 * address space. The count is the optional argument, as in Go. */
#include "go_chan.h"

#define GOROUTINE_STACK ((size_t)16 * 1024)

struct pair {
  llgo_chan *left, *right;
};

static void f(void *arg) {
  struct pair *p = arg;
  int v;
  llgo_chan_recv(p->right, &v);
  llgo_chan_send(p->left, &v);
}

static void send_one(void *c) {
  int one = 1;
  llgo_chan_send(c, &one);
}

int go_chan_goroutines(int argc, char **argv) {
  long n = 10000;
  if (argc > 1) {
    char *end = NULL;
    n = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0') {
      fprintf(stderr, "bad arg\n");
      exit(1);
    }
  }
  llgo_chan *leftmost = llgo_chan_make(sizeof(int), 0);
  llgo_chan *right = leftmost;
  llgo_chan *left = leftmost;
  for (long i = 0; i < n; i++) {
    right = llgo_chan_make(sizeof(int), 0);
    struct pair *p = go_new(sizeof *p);
    *p = (struct pair){left, right};
    llgo_go_stack(f, p, GOROUTINE_STACK);
    left = right;
  }
  llgo_go_stack(send_one, right, GOROUTINE_STACK);
  int v;
  llgo_chan_recv(leftmost, &v);
  printf("goroutines: ok, a value passed through %ld goroutines\n", n);
  return v == 1 ? 0 : 1;
}
