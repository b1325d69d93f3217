/* whole_programs: four small concurrent programs, each written twice, here against the runtime's
 * C API and in Go (bench/go/whole/main.go), doing the same work and printing the same line
 * (bench/run.py checks the two outputs equal before it takes any figure):
 *
 *   whole_programs sieve     the concurrent prime sieve: a generator and a chain of filter
 *                            goroutines, one per prime, until 2,000 primes are found
 *   whole_programs pipeline  64 stages, each a goroutine adding 1, passing 100,000 values over
 *                            unbuffered channels to a summing sink
 *   whole_programs pool      32 workers over a buffered channel (capacity 64) of 200,000 jobs;
 *                            each job updates a mutex-protected map (1,000 keys); a WaitGroup
 *                            waits for the workers
 *   whole_programs timers    100 goroutines each running 100 selects between a channel nobody
 *                            sends on and time.After(100 us): 10,000 timeouts; a WaitGroup
 *
 * Memory that Go's escape analysis would put on the heap is static or malloc'd here: with shared
 * stacks no goroutine may read another's stack while that one is suspended (docs/runtime.md).
 * Exit status 0 when the result is what the arithmetic says, 1 otherwise. */
#include "llgo_runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xmalloc(size_t n) {
  void *p = calloc(1, n);
  if (!p) llgo_fatal("whole_programs: out of memory");
  return p;
}

/* ---- sieve ----------------------------------------------------------------------------- */

#define SIEVE_PRIMES 2000

typedef struct {
  llgo_chan *in, *out;
  int prime;
} filter_args;

static void generate(void *arg) {
  llgo_chan *out = arg;
  for (int i = 2;; i++) llgo_chan_send(out, &i);
}

static void filter(void *arg) {
  filter_args *f = arg;
  for (;;) {
    int i;
    llgo_chan_recv(f->in, &i);
    if (i % f->prime != 0) llgo_chan_send(f->out, &i);
  }
}

static int sieve(void) {
  llgo_chan *ch = llgo_chan_make(sizeof(int), 0);
  llgo_go(generate, ch);
  int prime = 0;
  for (int n = 0; n < SIEVE_PRIMES; n++) {
    llgo_chan_recv(ch, &prime);
    filter_args *f = xmalloc(sizeof *f);
    f->in = ch;
    f->out = llgo_chan_make(sizeof(int), 0);
    f->prime = prime;
    llgo_go(filter, f);
    ch = f->out;
  }
  printf("sieve: %d primes, the last %d\n", SIEVE_PRIMES, prime);
  return prime == 17389 ? 0 : 1;
}

/* ---- pipeline -------------------------------------------------------------------------- */

#define PIPELINE_STAGES 64
#define PIPELINE_VALUES 100000

typedef struct {
  llgo_chan *in, *out;
} stage_args;

static void stage(void *arg) {
  stage_args *s = arg;
  int64_t v;
  while (llgo_chan_recv2(s->in, &v)) {
    v += 1;
    llgo_chan_send(s->out, &v);
  }
  llgo_chan_close(s->out);
}

static void source(void *arg) {
  llgo_chan *out = arg;
  for (int64_t i = 0; i < PIPELINE_VALUES; i++) llgo_chan_send(out, &i);
  llgo_chan_close(out);
}

static int pipeline(void) {
  static stage_args stages[PIPELINE_STAGES];
  llgo_chan *first = llgo_chan_make(sizeof(int64_t), 0), *in = first;
  for (int i = 0; i < PIPELINE_STAGES; i++) {
    stages[i].in = in;
    stages[i].out = llgo_chan_make(sizeof(int64_t), 0);
    llgo_go(stage, &stages[i]);
    in = stages[i].out;
  }
  llgo_go(source, first);
  int64_t v, sum = 0;
  while (llgo_chan_recv2(in, &v)) sum += v;
  int64_t want = (int64_t)PIPELINE_VALUES * (PIPELINE_VALUES - 1) / 2 + (int64_t)PIPELINE_STAGES * PIPELINE_VALUES;
  printf("pipeline: %d stages, %d values, sum %lld\n", PIPELINE_STAGES, PIPELINE_VALUES, (long long)sum);
  return sum == want ? 0 : 1;
}

/* ---- pool ------------------------------------------------------------------------------ */

#define POOL_WORKERS 32
#define POOL_JOBS 200000
#define POOL_KEYS 1000

/* A string-keyed map, as Go's map[string]int would be: open addressing, FNV-1a. */
typedef struct {
  char key[16];
  int64_t value;
  int used;
} map_slot;

static struct {
  llgo_mutex mu;
  map_slot slots[2048];
  int count;
} pool_map;

static uint32_t fnv1a(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

static void map_add(const char *key, int64_t delta) {
  uint32_t i = fnv1a(key) & 2047u;
  while (pool_map.slots[i].used && strcmp(pool_map.slots[i].key, key) != 0) i = (i + 1) & 2047u;
  if (!pool_map.slots[i].used) {
    pool_map.slots[i].used = 1;
    strcpy(pool_map.slots[i].key, key);
    pool_map.count++;
  }
  pool_map.slots[i].value += delta;
}

static llgo_waitgroup pool_wg;

static void worker(void *arg) {
  llgo_chan *jobs = arg;
  int job;
  while (llgo_chan_recv2(jobs, &job)) {
    char key[16];
    snprintf(key, sizeof key, "k%d", job % POOL_KEYS);
    llgo_mutex_lock(&pool_map.mu);
    map_add(key, job);
    llgo_mutex_unlock(&pool_map.mu);
  }
  llgo_waitgroup_done(&pool_wg);
}

static int pool(void) {
  llgo_chan *jobs = llgo_chan_make(sizeof(int), 64);
  llgo_waitgroup_add(&pool_wg, POOL_WORKERS);
  for (int i = 0; i < POOL_WORKERS; i++) llgo_go(worker, jobs);
  for (int i = 0; i < POOL_JOBS; i++) llgo_chan_send(jobs, &i);
  llgo_chan_close(jobs);
  llgo_waitgroup_wait(&pool_wg);
  int64_t sum = 0;
  for (int i = 0; i < 2048; i++) sum += pool_map.slots[i].used ? pool_map.slots[i].value : 0;
  printf("pool: %d workers, %d jobs, %d keys, sum %lld\n", POOL_WORKERS, POOL_JOBS, pool_map.count, (long long)sum);
  return pool_map.count == POOL_KEYS && sum == (int64_t)POOL_JOBS * (POOL_JOBS - 1) / 2 ? 0 : 1;
}

/* ---- timers ---------------------------------------------------------------------------- */

#define TIMER_GOROUTINES 100
#define TIMER_SELECTS 100
#define TIMER_TIMEOUT_NS 100000

static llgo_waitgroup timer_wg;
static llgo_chan *never;      /* nobody sends on it */
static int timeouts;          /* one worker at a time: single-worker, or under timer_mu */
static llgo_mutex timer_mu;

static void timer_goroutine(void *arg) {
  (void)arg;
  for (int i = 0; i < TIMER_SELECTS; i++) {
    int value;
    int64_t fired;
    llgo_chan *after = llgo_time_after(TIMER_TIMEOUT_NS);
    llgo_select_case cases[2] = {{never, LLGO_SELECT_RECV, &value}, {after, LLGO_SELECT_RECV, &fired}};
    int chosen = llgo_select(cases, 2, 1, NULL);
    if (chosen == 1) {
      llgo_mutex_lock(&timer_mu);
      timeouts++;
      llgo_mutex_unlock(&timer_mu);
      llgo_chan_free(after); /* its value was received, and the timer frees itself */
    }
  }
  llgo_waitgroup_done(&timer_wg);
}

static int timers(void) {
  never = llgo_chan_make(sizeof(int), 0);
  llgo_waitgroup_add(&timer_wg, TIMER_GOROUTINES);
  for (int i = 0; i < TIMER_GOROUTINES; i++) llgo_go(timer_goroutine, NULL);
  llgo_waitgroup_wait(&timer_wg);
  printf("timers: %d selects, %d timeouts\n", TIMER_GOROUTINES * TIMER_SELECTS, timeouts);
  return timeouts == TIMER_GOROUTINES * TIMER_SELECTS ? 0 : 1;
}

/* ---- main ------------------------------------------------------------------------------ */

static int program_main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  if (strcmp(which, "sieve") == 0) return sieve();
  if (strcmp(which, "pipeline") == 0) return pipeline();
  if (strcmp(which, "pool") == 0) return pool();
  if (strcmp(which, "timers") == 0) return timers();
  fprintf(stderr, "usage: whole_programs sieve|pipeline|pool|timers\n");
  return 2;
}

int main(int argc, char **argv) { return llgo_run_main(program_main, argc, argv); }
