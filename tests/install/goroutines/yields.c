/* yields.c: a goroutine program built outside llgo-wasm that yields and never parks (no channel,
 * lock, timer or llgo_park), so the optimiser may drop every runtime function that parks. Under
 * emcc, Binaryen's -O runs before --asyncify and inlines a function left with one caller: with
 * only llgo_gosched calling the raw backend's suspend, the two merged and the requeue re-ran on
 * every rewind ("fatal error: casgstatus: ..."), unless the link keeps them apart, which the
 * driver's link does (docs/link-pipeline.md). llgo_wasm_link_runtime must link through it on
 * every target, Emscripten's included. Prints "2 goroutines finished 2000 yields" and exits 0.
 * The counters are atomic: with threads (the pthread backend) the two workers run in parallel,
 * and a plain ++ lost an increment under load ("1999 yields"), a data race as it would be in Go. */
#include "llgo_runtime.h"

#include <stdatomic.h>
#include <stdio.h>

#define WORKERS 2
#define STEPS 1000

static atomic_int steps;
static atomic_int finished;

static void worker(void *arg) {
  (void)arg;
  for (int i = 0; i < STEPS; i++) {
    atomic_fetch_add(&steps, 1);
    llgo_gosched();
  }
  atomic_fetch_add(&finished, 1);
}

static int program_main(int argc, char **argv) {
  (void)argc, (void)argv;
  for (int i = 0; i < WORKERS; i++) llgo_go(worker, NULL);
  while (atomic_load(&finished) < WORKERS) llgo_gosched();
  printf("%d goroutines finished %d yields\n", atomic_load(&finished), atomic_load(&steps));
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  return llgo_run_main(program_main, argc, argv);
}
