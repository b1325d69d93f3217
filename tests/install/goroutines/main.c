/* main.c: a small goroutine program built outside llgo-wasm, against an installed prefix only
 * (tests/install). Three goroutines take turns with llgo_gosched, three rounds each; main parks
 * until the last one readies it, then prints how many rounds each ran and the pointer size, and
 * the order they ran in: "order: FIFO" when it was 1 2 3 1 2 3 1 2 3, what the single-worker
 * scheduler must give. With threads (the pthread backend) goroutines run in parallel and Gosched
 * is only a hint, so the order is the threads' and tests/install/goroutines/CMakeLists.txt does
 * not check it there. The shared counters are atomic: under threads a plain ++ from two
 * goroutines at once is a data race (one increment lost), as in Go. Exits 0 only if every
 * goroutine ran its three rounds. */
#include "llgo_runtime.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define WORKERS 3
#define ROUNDS 3

static int order[WORKERS * ROUNDS];
static atomic_int steps;
static atomic_int workers_left = WORKERS;
static llgo_g *main_g;

static void worker(void *arg) {
  int id = (int)(long)arg;
  for (int round = 0; round < ROUNDS; round++) {
    order[atomic_fetch_add(&steps, 1)] = id;
    llgo_gosched();
  }
  if (atomic_fetch_sub(&workers_left, 1) == 1) llgo_ready(main_g);
}

static int program_main(int argc, char **argv) {
  (void)argc, (void)argv;
  main_g = llgo_current_g();
  for (long id = 1; id <= WORKERS; id++) llgo_go(worker, (void *)id);
  llgo_park();

  int rounds[WORKERS + 1] = {0};
  char text[64] = "";
  int ran = atomic_load(&steps);
  for (int i = 0; i < ran; i++) {
    if (order[i] >= 1 && order[i] <= WORKERS) rounds[order[i]]++;
    snprintf(text + strlen(text), sizeof text - strlen(text), " %d", order[i]);
  }
  int complete = ran == WORKERS * ROUNDS;
  for (int id = 1; id <= WORKERS; id++) complete = complete && rounds[id] == ROUNDS;
  if (complete) {
    printf("%d goroutines ran %d rounds each, pointer: %zu bytes\n", WORKERS, ROUNDS, sizeof(void *));
  } else {
    printf("goroutines ran %d rounds in all, not %d each, pointer: %zu bytes\n", ran, ROUNDS, sizeof(void *));
  }
  int fifo = strcmp(text, " 1 2 3 1 2 3 1 2 3") == 0;
  printf(fifo ? "order: FIFO\n" : "order:%s (not FIFO)\n", text);
  return complete ? 0 : 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  return llgo_run_main(program_main, argc, argv);
}
