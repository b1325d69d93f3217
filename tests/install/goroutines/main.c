/* main.c: a small goroutine program built outside llgo-wasm, against an installed prefix only
 * (tests/install). Three goroutines take turns with llgo_gosched, three rounds each, on the one
 * scheduler; main parks until the last one readies it, then prints the order they ran in and
 * the pointer size, and "FIFO" and exits 0 only if the order was 1 2 3 1 2 3 1 2 3. */
#include "llgo_runtime.h"

#include <stdio.h>
#include <string.h>

#define WORKERS 3
#define ROUNDS 3

static int order[WORKERS * ROUNDS];
static int steps;
static int workers_left = WORKERS;
static llgo_g *main_g;

static void worker(void *arg) {
  int id = (int)(long)arg;
  for (int round = 0; round < ROUNDS; round++) {
    order[steps++] = id;
    llgo_gosched();
  }
  if (--workers_left == 0) llgo_ready(main_g);
}

static int program_main(int argc, char **argv) {
  (void)argc, (void)argv;
  main_g = llgo_current_g();
  for (long id = 1; id <= WORKERS; id++) llgo_go(worker, (void *)id);
  llgo_park();

  char text[64] = "";
  for (int i = 0; i < steps; i++) snprintf(text + strlen(text), sizeof text - strlen(text), " %d", order[i]);
  int fifo = strcmp(text, " 1 2 3 1 2 3 1 2 3") == 0;
  printf("goroutines ran:%s; pointer: %zu bytes; %s\n", text, sizeof(void *), fifo ? "FIFO" : "NOT FIFO");
  return fifo ? 0 : 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  return llgo_run_main(program_main, argc, argv);
}
