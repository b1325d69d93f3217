/* hello_goroutines: the start-up and size benchmark's program (bench/run.py's "hello-goroutines"
 * rows): main starts 10 goroutines, makes one round trip over an unbuffered channel with each,
 * prints one line and exits. bench/go/hello/main.go is the same program in Go. What it measures
 * is what a small concurrent program costs before it does any work: the module's size, the
 * memory it declares, and the time from process start to exit. */
#include "llgo_runtime.h"

#include <stdio.h>

#define GOROUTINES 10

typedef struct {
  llgo_chan *request, *reply;
} pair;

/* Static, not on main's stack: with shared stacks a goroutine must not read another's stack while
 * that one is suspended (docs/runtime.md); what Go's escape analysis would put on the heap. */
static pair pairs[GOROUTINES];

static void echo_plus_one(void *arg) {
  pair *p = arg;
  int value;
  llgo_chan_recv(p->request, &value);
  value += 1;
  llgo_chan_send(p->reply, &value);
}

static int program_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (int i = 0; i < GOROUTINES; i++) {
    pairs[i].request = llgo_chan_make(sizeof(int), 0);
    pairs[i].reply = llgo_chan_make(sizeof(int), 0);
    llgo_go(echo_plus_one, &pairs[i]);
  }
  int sum = 0;
  for (int i = 0; i < GOROUTINES; i++) {
    int value = i;
    llgo_chan_send(pairs[i].request, &value);
    llgo_chan_recv(pairs[i].reply, &value);
    sum += value;
  }
  printf("hello from %d goroutines: sum %d\n", GOROUTINES, sum);
  return sum == GOROUTINES * (GOROUTINES + 1) / 2 ? 0 : 1;
}

int main(int argc, char **argv) { return llgo_run_main(program_main, argc, argv); }
