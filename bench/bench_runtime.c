/* bench_runtime.c: goroutine-runtime benchmarks, one program built for every variant and
 * context backend (native ucontext, J32/J64 Emscripten Fiber and raw Asyncify, P1 raw Asyncify).
 *
 * Usage (one benchmark per process, so the memory figure starts from a fresh heap):
 *   bench_runtime yield  GOROUTINES DEPTH YIELDS_PER_GOROUTINE REPS
 *   bench_runtime spawn  COUNT REPS
 *   bench_runtime parked COUNT STACK_BYTES DEPTH  (STACK_BYTES 0: llgo_go's default stack)
 *   bench_runtime cpu    MIB REPS
 * Each repetition prints one line "RESULT {json}" with the figure of that repetition; bench/run.py
 * collects them. Any broken invariant (a goroutine that did not run, a wrong hash) prints
 * "FAIL: ..." and exits 1, so a fast but wrong runtime cannot produce a figure.
 *
 * What is measured:
 *   yield   ns per llgo_gosched (one switch to the next goroutine), with every goroutine
 *           DEPTH frames deep when it yields: Asyncify unwinds and rewinds all of them;
 *           timed from the moment all goroutines run to the moment the last one finishes.
 *   spawn   ns per serial goroutine lifecycle: llgo_go, switch in, exit, switch back to main.
 *   parked  bytes of linear memory (wasm: memory.size; native: virtual size from
 *           /proc/self/statm) added per goroutine while COUNT goroutines are parked at once,
 *           each DEPTH frames deep (a frame as in yield: one address-taken local).
 *   cpu     ms to hash MIB MiB (FNV-1a over 64-byte blocks reached through a function pointer,
 *           so Asyncify must instrument the calling loop). With the runtime it runs inside
 *           the main goroutine and yields once per MiB; built with BENCH_WITHOUT_RUNTIME it is
 *           the same kernel in a plain program (no runtime, no Asyncify): the baseline.
 * Limits: single-worker backends only (on the pthread backend llgo_gosched is sched_yield and
 * main's park/ready would race); timing uses CLOCK_MONOTONIC, which Emscripten backs with
 * performance.now() (sub-microsecond on Node), so each repetition is made to last milliseconds. */
#ifndef BENCH_WITHOUT_RUNTIME
#include "llgo_runtime.h"
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__wasm__)
#define BENCH_TARGET_IS_WASM 1
#else
#include <unistd.h>
#endif

#define NOINLINE __attribute__((noinline))

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void fail(const char *what) {
  printf("FAIL: %s\n", what);
  fflush(stdout);
  exit(1);
}

static long parse_positive(const char *text, const char *name) {
  char *end = NULL;
  long value = strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 0) {
    printf("FAIL: %s must be a non-negative integer, got '%s'\n", name, text);
    exit(1);
  }
  return value;
}

/* ---- CPU-bound kernel (also built without the runtime) -------------------------------- */

#define KERNEL_BLOCK 64

typedef uint64_t (*block_hash_fn)(uint64_t state, const unsigned char *block);

static uint64_t fnv1a_block(uint64_t state, const unsigned char *block) {
  for (int i = 0; i < KERNEL_BLOCK; i++) {
    state ^= block[i];
    state *= 0x100000001b3ull;
  }
  return state;
}

/* volatile: the compiler must not devirtualise the call, so the loop keeps an indirect
 * call, which Asyncify (narrowed or not) has to assume may switch. */
static block_hash_fn volatile block_hash = fnv1a_block;

static void switch_point(void) {
#ifndef BENCH_WITHOUT_RUNTIME
  llgo_gosched();
#endif
}

static NOINLINE uint64_t hash_buffer(const unsigned char *data, size_t size) {
  uint64_t state = 0xcbf29ce484222325ull;
  for (size_t offset = 0; offset + KERNEL_BLOCK <= size; offset += KERNEL_BLOCK) {
    state = block_hash(state, data + offset);
    if ((offset & ((1u << 20) - 1)) == 0) switch_point(); /* once per MiB */
  }
  return state;
}

static int bench_cpu(long mib, long reps) {
  size_t size = (size_t)mib << 20;
  unsigned char *data = malloc(size);
  if (data == NULL) fail("cpu: out of memory for the input buffer");
  uint64_t x = 0x9e3779b97f4a7c15ull; /* xorshift64: the same bytes in every build */
  for (size_t i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    data[i] = (unsigned char)x;
  }
  uint64_t first = 0;
  for (long r = 0; r < reps; r++) {
    uint64_t t0 = now_ns();
    uint64_t h = hash_buffer(data, size);
    uint64_t t1 = now_ns();
    if (r == 0) first = h;
    else if (h != first) fail("cpu: the hash changed between repetitions");
    printf("RESULT {\"bench\":\"cpu\",\"mib\":%ld,\"ms\":%.4f,\"hash\":\"%016llx\"}\n", mib, (double)(t1 - t0) / 1e6,
           (unsigned long long)h);
  }
  free(data);
  return 0;
}

#ifdef BENCH_WITHOUT_RUNTIME

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 4 && strcmp(argv[1], "cpu") == 0)
    return bench_cpu(parse_positive(argv[2], "MIB"), parse_positive(argv[3], "REPS"));
  printf("FAIL: this build (without the runtime) only runs: cpu MIB REPS\n");
  return 1;
}

#else

/* ---- yield ---------------------------------------------------------------------------- */

static struct {
  long goroutines, depth, yields;
  long started, finished;
  uint64_t t0, t1;
  llgo_g *main_g;
  volatile long sink;
} yield_run;

/* One real frame per level (a local the optimiser must keep, and no tail call), so a switch at
 * the bottom has DEPTH frames above it to unwind and rewind under Asyncify. */
static NOINLINE long descend_then_yield(long depth, long acc) {
  volatile long frame_local = depth + acc;
  if (depth > 1) return descend_then_yield(depth - 1, frame_local) + 1;
  for (long i = 0; i < yield_run.yields; i++) llgo_gosched();
  return frame_local;
}

static void yield_worker(void *arg) {
  (void)arg;
  if (++yield_run.started == yield_run.goroutines) yield_run.t0 = now_ns();
  while (yield_run.started < yield_run.goroutines) llgo_gosched();
  yield_run.sink += descend_then_yield(yield_run.depth, 0);
  if (++yield_run.finished == yield_run.goroutines) {
    yield_run.t1 = now_ns();
    llgo_ready(yield_run.main_g);
  }
}

static int bench_yield(long goroutines, long depth, long yields, long reps) {
  if (goroutines < 1 || depth < 1) fail("yield: GOROUTINES and DEPTH must be at least 1");
  for (long r = 0; r < reps; r++) {
    yield_run.goroutines = goroutines;
    yield_run.depth = depth;
    yield_run.yields = yields;
    yield_run.started = yield_run.finished = 0;
    yield_run.main_g = llgo_current_g();
    for (long i = 0; i < goroutines; i++) llgo_go(yield_worker, NULL);
    llgo_park(); /* the last worker to finish readies main */
    if (yield_run.finished != goroutines) fail("yield: not every goroutine finished");
    double ns = (double)(yield_run.t1 - yield_run.t0) / ((double)goroutines * (double)yields);
    printf("RESULT {\"bench\":\"yield\",\"goroutines\":%ld,\"depth\":%ld,\"ns\":%.3f}\n", goroutines, depth, ns);
  }
  return 0;
}

/* ---- spawn+exit ----------------------------------------------------------------------- */

static long spawn_finished;
static void spawn_body(void *arg) {
  (void)arg;
  spawn_finished++;
}

static int bench_spawn(long count, long reps) {
  for (long r = 0; r < reps; r++) {
    spawn_finished = 0;
    uint64_t t0 = now_ns();
    for (long i = 0; i < count; i++) {
      llgo_go(spawn_body, NULL);
      llgo_gosched(); /* FIFO: the new goroutine runs and exits, then main is next */
    }
    uint64_t t1 = now_ns();
    if (spawn_finished != count) fail("spawn: a goroutine did not run before main resumed");
    printf("RESULT {\"bench\":\"spawn\",\"count\":%ld,\"ns\":%.3f,\"contexts_created\":%llu}\n", count,
           (double)(t1 - t0) / (double)count, (unsigned long long)llgo_test_contexts_created());
  }
  return 0;
}

/* ---- parked goroutines' memory -------------------------------------------------------- */

static uint64_t memory_bytes(void) {
#ifdef BENCH_TARGET_IS_WASM
  return (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
#else
  /* Native: the virtual size (first field of statm, in pages), i.e. what was reserved. */
  FILE *statm = fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  if (statm == NULL || fscanf(statm, "%llu", &pages) != 1) fail("parked: cannot read /proc/self/statm");
  fclose(statm);
  return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
#endif
}

static llgo_g **parked_gs;
static long parked_count, parked_finished, parked_depth;

static NOINLINE long descend_then_park(long depth, long acc) {
  volatile long frame_local = depth + acc;
  if (depth > 1) return descend_then_park(depth - 1, frame_local) + 1;
  llgo_park();
  return frame_local;
}

static void parked_body(void *arg) {
  parked_gs[(intptr_t)arg] = llgo_current_g();
  parked_count++;
  yield_run.sink += descend_then_park(parked_depth, 0);
  parked_finished++;
}

static int bench_parked(long count, long stack_bytes, long depth) {
  if (depth < 1) fail("parked: DEPTH must be at least 1");
  parked_depth = depth;
  parked_gs = calloc((size_t)count, sizeof *parked_gs);
  if (parked_gs == NULL) fail("parked: out of memory for the goroutine table");
  uint64_t before = memory_bytes();
  for (long i = 0; i < count; i++) {
    if (stack_bytes == 0) llgo_go(parked_body, (void *)(intptr_t)i);
    else llgo_go_stack(parked_body, (void *)(intptr_t)i, (size_t)stack_bytes);
  }
  while (parked_count < count) llgo_gosched();
  uint64_t after = memory_bytes();
  for (long i = 0; i < count; i++) {
    if (llgo_test_g_status(parked_gs[i]) != LLGO_G_WAITING) fail("parked: a goroutine is not parked");
    llgo_ready(parked_gs[i]);
  }
  while (parked_finished < count) llgo_gosched();
  printf("RESULT {\"bench\":\"parked\",\"count\":%ld,\"stack_bytes\":%ld,\"depth\":%ld,"
         "\"bytes_per_goroutine\":%.1f,\"memory_before\":%llu,\"memory_after\":%llu}\n",
         count, stack_bytes, depth, (double)(after - before) / (double)count, (unsigned long long)before,
         (unsigned long long)after);
  free(parked_gs);
  return 0;
}

/* ---- entry ---------------------------------------------------------------------------- */

static int program_main(int argc, char **argv) {
  if (argc == 6 && strcmp(argv[1], "yield") == 0)
    return bench_yield(parse_positive(argv[2], "GOROUTINES"), parse_positive(argv[3], "DEPTH"),
                       parse_positive(argv[4], "YIELDS_PER_GOROUTINE"), parse_positive(argv[5], "REPS"));
  if (argc == 4 && strcmp(argv[1], "spawn") == 0)
    return bench_spawn(parse_positive(argv[2], "COUNT"), parse_positive(argv[3], "REPS"));
  if (argc == 5 && strcmp(argv[1], "parked") == 0)
    return bench_parked(parse_positive(argv[2], "COUNT"), parse_positive(argv[3], "STACK_BYTES"),
                        parse_positive(argv[4], "DEPTH"));
  if (argc == 4 && strcmp(argv[1], "cpu") == 0)
    return bench_cpu(parse_positive(argv[2], "MIB"), parse_positive(argv[3], "REPS"));
  printf("FAIL: usage: bench_runtime yield G DEPTH YIELDS REPS | spawn COUNT REPS | parked COUNT STACK_BYTES"
         " DEPTH | cpu MIB REPS\n");
  return 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  return llgo_run_main(program_main, argc, argv);
}

#endif
