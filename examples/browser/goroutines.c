/* goroutines.c: goroutines running in a web page (examples/browser, built for J32).
 *
 * Three worker goroutines count the primes below 30,000, each in its own share of the range, a
 * chunk at a time. After each chunk a worker reports to the page (page_progress: the page moves
 * that worker's bar and appends to the log) and yields with llgo_gosched, so the workers take turns
 * on the one scheduler, in FIFO order. Main parks until the last worker readies it, checks the
 * total against a plain loop and exits with 0 (1 if the totals differ).
 *
 * The program runs to its end in one task of the page: the browser paints the final bars, and the
 * log shows the order in which the goroutines ran. How to build, serve and open it: README.md. */
#include "llgo_runtime.h"

#include <emscripten.h>
#include <stdio.h>

#define WORKERS 3
#define LIMIT 30000
#define CHUNKS 4

/* The page's hook (examples/browser/main.js passes Module.onGoroutineProgress). */
EM_JS(void, page_progress, (int worker, int chunk, int chunks, int primes), {
  if (Module['onGoroutineProgress']) Module['onGoroutineProgress'](worker, chunk, chunks, primes);
});

struct worker {
  int id, from, to, primes;
};

static struct worker workers[WORKERS];
static int workers_left = WORKERS;
static llgo_g *main_g;

static int is_prime(int n) {
  if (n < 2) return 0;
  for (int d = 2; d * d <= n; d++)
    if (n % d == 0) return 0;
  return 1;
}

static void count_primes(void *arg) {
  struct worker *w = arg;
  int span = (w->to - w->from + CHUNKS - 1) / CHUNKS;
  for (int chunk = 1; chunk <= CHUNKS; chunk++) {
    int start = w->from + (chunk - 1) * span, end = start + span < w->to ? start + span : w->to;
    for (int n = start; n < end; n++) w->primes += is_prime(n);
    printf("goroutine %d: chunk %d/%d, %d primes so far\n", w->id, chunk, CHUNKS, w->primes);
    page_progress(w->id, chunk, CHUNKS, w->primes);
    llgo_gosched(); /* let the other workers run */
  }
  if (--workers_left == 0) llgo_ready(main_g);
}

static int program_main(int argc, char **argv) {
  (void)argc, (void)argv;
  main_g = llgo_current_g();
  for (int i = 0; i < WORKERS; i++) {
    workers[i] = (struct worker){.id = i + 1, .from = i * LIMIT / WORKERS, .to = (i + 1) * LIMIT / WORKERS};
    llgo_go(count_primes, &workers[i]);
  }
  llgo_park(); /* the last worker to finish readies main */

  int total = 0, expected = 0;
  for (int i = 0; i < WORKERS; i++) total += workers[i].primes;
  for (int n = 0; n < LIMIT; n++) expected += is_prime(n);
  printf("%d goroutines found %d primes below %d (a plain loop finds %d)\n", WORKERS, total, LIMIT, expected);
  return total == expected ? 0 : 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  return llgo_run_main(program_main, argc, argv);
}
