/*
 * yield_only.c - a goroutine program that yields and never parks: no channel, lock, timer or
 * llgo_park anywhere in it, so the optimiser may drop every runtime function that parks.
 *
 * Under emcc, Binaryen's -O runs before --asyncify and inlines a function left with one caller.
 * With only llgo_gosched left calling the raw backend's llgo_wasmcontext_suspend, it merged the
 * two, and the requeue re-ran on every rewind: "fatal error: casgstatus: goroutine 1 is
 * _Grunnable, expected _Grunning". The link now keeps the functions that start the unwind out
 * of line (docs/link-pipeline.md). The output is the same on every backend, threads included.
 */
#include "test_program.h"

#include <stdatomic.h>

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

static int yields_only(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (int i = 0; i < WORKERS; i++) llgo_go(worker, NULL);
  while (atomic_load(&finished) < WORKERS) llgo_gosched();
  printf("%d goroutines finished %d yields\n", atomic_load(&finished), atomic_load(&steps));
  return 0;
}

static const test_case cases[] = {
    {"yields-and-never-parks", yields_only, NULL},
};

int main(int argc, char **argv) { return TEST_PROGRAM_MAIN(argc, argv, cases); }
