/* bench_runtime.c: goroutine-runtime benchmarks, one program built for every variant and
 * context backend (native ucontext, J32/J64 Emscripten Fiber and raw Asyncify, P1 raw Asyncify).
 *
 * Usage (one benchmark per process, so the memory figure starts from a fresh heap):
 *   bench_runtime yield  GOROUTINES DEPTH YIELDS_PER_GOROUTINE REPS
 *   bench_runtime spawn  COUNT REPS
 *   bench_runtime parked COUNT STACK_BYTES DEPTH  (STACK_BYTES 0: llgo_go's default stack)
 *   bench_runtime cpu    MIB REPS
 *   bench_runtime pingpong ROUNDS REPS | buffered COUNT REPS | select COUNT REPS
 *   bench_runtime sleepers G SLEEPS SLEEP_US REPS
 * Each repetition prints one line "RESULT {json}" with the figure of that repetition; bench/run.py
 * collects them. Any broken invariant (a goroutine that did not run, a wrong hash) prints
 * "FAIL: ..." and exits 1, so a fast but wrong runtime cannot produce a figure.
 *
 * What is measured:
 *   yield   ns per llgo_gosched (one switch to the next goroutine), with every goroutine
 *           DEPTH frames deep when it yields: Asyncify unwinds and rewinds all of them;
 *           timed from the moment all goroutines run to the moment the last one finishes.
 *   spawn   ns per serial goroutine lifecycle: llgo_go, switch in, exit, switch back to the
 *           spawning goroutine (not main: see run_measured).
 *   parked  bytes of linear memory (wasm: memory.size; native: virtual size from
 *           /proc/self/statm) added per goroutine while COUNT goroutines are parked at once,
 *           each DEPTH frames deep (a frame as in yield: one address-taken local).
 *   pingpong ns per round trip of one value over an unbuffered channel and back (two
 *           goroutines: one sends on one channel, the echo goroutine answers on another).
 *   buffered ns per value sent through a channel of capacity 128 from a producer goroutine
 *           to a consumer goroutine (both measured sides run outside main: see run_measured).
 *   select  ns per select over 4 receive cases that are all ready (each channel holds more
 *           values than the run takes), so every select picks one at random and proceeds.
 *   sleepers wall and CPU ms for G goroutines (16 KiB stacks) that each sleep SLEEP_US
 *           microseconds SLEEPS times (CPU: CLOCK_PROCESS_CPUTIME_ID, the whole process).
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

/* The measured side of the spawn and channel benchmarks runs in a goroutine of its own, with a
 * small frame, as the yield workers do: program_main has every benchmark inlined into it (LLVM and Binaryen
 * inline a function called once: 50 locals and one large stack frame on P1), and a goroutine
 * parked in it would save and copy all of that at every switch, a cost of this harness rather
 * than of channels. Main waits for it on a channel. */
static struct {
  long rounds, reps; /* spawn, buffered: COUNT, REPS; pingpong: ROUNDS, REPS */
  llgo_chan *done;
} measured;

static void run_measured(llgo_go_fn side) {
  measured.done = llgo_chan_make(0, 0);
  llgo_go(side, NULL);
  llgo_chan_recv(measured.done, NULL);
}

/* ---- spawn+exit ----------------------------------------------------------------------- */

static long spawn_finished;
static void spawn_body(void *arg) {
  (void)arg;
  spawn_finished++;
}

static void spawner(void *unused) {
  (void)unused;
  long count = measured.rounds;
  for (long r = 0; r < measured.reps; r++) {
    spawn_finished = 0;
    uint64_t t0 = now_ns();
    for (long i = 0; i < count; i++) {
      llgo_go(spawn_body, NULL);
      llgo_gosched(); /* FIFO: the new goroutine runs and exits, then the spawner is next */
    }
    uint64_t t1 = now_ns();
    if (spawn_finished != count) fail("spawn: a goroutine did not run before the spawner resumed");
    printf("RESULT {\"bench\":\"spawn\",\"count\":%ld,\"ns\":%.3f,\"contexts_created\":%llu}\n", count,
           (double)(t1 - t0) / (double)count, (unsigned long long)llgo_test_contexts_created());
  }
  llgo_chan_send(measured.done, NULL);
}

static int bench_spawn(long count, long reps) {
  measured.rounds = count;
  measured.reps = reps;
  run_measured(spawner);
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

/* ---- channels, select, timers --------------------------------------------------------- */

static llgo_chan *ping, *pong;

static void echo(void *unused) {
  (void)unused;
  long v;
  while (llgo_chan_recv2(ping, &v)) {
    v++;
    llgo_chan_send(pong, &v);
  }
}

static void pinger(void *unused) {
  (void)unused;
  long rounds = measured.rounds;
  for (long r = 0; r < measured.reps; r++) {
    long v = 0;
    uint64_t t0 = now_ns();
    for (long i = 0; i < rounds; i++) {
      llgo_chan_send(ping, &v);
      llgo_chan_recv(pong, &v);
    }
    uint64_t t1 = now_ns();
    if (v != rounds) fail("pingpong: the echo lost a value");
    printf("RESULT {\"bench\":\"pingpong\",\"rounds\":%ld,\"ns\":%.3f}\n", rounds, (double)(t1 - t0) / (double)rounds);
  }
  llgo_chan_send(measured.done, NULL);
}

static int bench_pingpong(long rounds, long reps) {
  ping = llgo_chan_make(sizeof(long), 0);
  pong = llgo_chan_make(sizeof(long), 0);
  llgo_go(echo, NULL);
  measured.rounds = rounds;
  measured.reps = reps;
  run_measured(pinger);
  llgo_chan_close(ping);
  return 0;
}

static llgo_chan *stream;
static long stream_count;

static void producer(void *unused) {
  (void)unused;
  for (long i = 1; i <= stream_count; i++) llgo_chan_send(stream, &i);
}

static void consumer(void *unused) {
  (void)unused;
  long count = measured.rounds;
  for (long r = 0; r < measured.reps; r++) {
    int64_t sum = 0; /* 2,000,000 values add up past a 32-bit long (wasm32) */
    long v;
    uint64_t t0 = now_ns();
    llgo_go(producer, NULL);
    for (long i = 0; i < count; i++) {
      llgo_chan_recv(stream, &v);
      sum += v;
    }
    uint64_t t1 = now_ns();
    if (sum != (int64_t)count * (count + 1) / 2) fail("buffered: values lost or reordered");
    printf("RESULT {\"bench\":\"buffered\",\"count\":%ld,\"ns\":%.3f}\n", count, (double)(t1 - t0) / (double)count);
  }
  llgo_chan_send(measured.done, NULL);
}

static int bench_buffered(long count, long reps) {
  stream = llgo_chan_make(sizeof(long), 128);
  stream_count = count;
  measured.rounds = count;
  measured.reps = reps;
  run_measured(consumer);
  return 0;
}

static int bench_select(long count, long reps) {
  llgo_chan *channels[4];
  long values[4];
  llgo_select_case cases[4];
  for (int c = 0; c < 4; c++) {
    channels[c] = llgo_chan_make(sizeof(long), (size_t)count);
    cases[c] = (llgo_select_case){channels[c], LLGO_SELECT_RECV, &values[c]};
  }
  for (long r = 0; r < reps; r++) {
    for (int c = 0; c < 4; c++) { /* count values each: all four stay ready to the end */
      long v = c;
      while (llgo_chan_len(channels[c]) < (size_t)count) llgo_chan_send(channels[c], &v);
    }
    long chosen[4] = {0};
    uint64_t t0 = now_ns();
    for (long i = 0; i < count; i++) {
      int k = llgo_select(cases, 4, 1, NULL);
      chosen[k]++;
    }
    uint64_t t1 = now_ns();
    for (int c = 0; c < 4; c++)
      if (chosen[c] < count / 8) fail("select: the choice among ready cases is far from uniform");
    printf("RESULT {\"bench\":\"select\",\"count\":%ld,\"ns\":%.3f}\n", count, (double)(t1 - t0) / (double)count);
  }
  return 0;
}

/* The process's CPU time: natively CLOCK_PROCESS_CPUTIME_ID; on WASI the clock import itself
 * (wasi-libc only emulates that clock from the monotonic one; Node answers with getrusage);
 * under Emscripten Node's process.cpuUsage() (Emscripten's CPU clocks are wall clocks). All count
 * every thread of the process, the engine's own included. */
#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
EM_JS(double, node_cpu_microseconds, (void), {
  if (typeof process === 'undefined' || !process.cpuUsage) return 0;
  const usage = process.cpuUsage();
  return usage.user + usage.system;
});
static uint64_t cpu_ns(void) { return (uint64_t)(node_cpu_microseconds() * 1000.0); }
#elif defined(__wasi__)
#include <wasi/api.h>
static uint64_t cpu_ns(void) {
  __wasi_timestamp_t now = 0;
  if (__wasi_clock_time_get(__WASI_CLOCKID_PROCESS_CPUTIME_ID, 1, &now) != 0) fail("cannot read the CPU clock");
  return now;
}
#else
static uint64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

static struct {
  long sleeps, sleep_us, finished;
  llgo_waitgroup done;
} sleepers_run;

static void sleeper(void *unused) {
  (void)unused;
  for (long i = 0; i < sleepers_run.sleeps; i++) llgo_sleep((int64_t)sleepers_run.sleep_us * 1000);
  sleepers_run.finished++;
  llgo_waitgroup_done(&sleepers_run.done);
}

static int bench_sleepers(long goroutines, long sleeps, long sleep_us, long reps) {
  sleepers_run.sleeps = sleeps;
  sleepers_run.sleep_us = sleep_us;
  for (long r = 0; r < reps; r++) {
    sleepers_run.finished = 0;
    uint64_t t0 = now_ns(), c0 = cpu_ns();
    llgo_waitgroup_add(&sleepers_run.done, (int)goroutines);
    for (long i = 0; i < goroutines; i++) llgo_go_stack(sleeper, NULL, 16 * 1024);
    llgo_waitgroup_wait(&sleepers_run.done);
    uint64_t t1 = now_ns(), c1 = cpu_ns();
    if (sleepers_run.finished != goroutines) fail("sleepers: a goroutine did not finish");
    double ideal_ms = (double)sleeps * (double)sleep_us / 1000.0;
    if ((double)(t1 - t0) / 1e6 < ideal_ms) fail("sleepers: finished before the sleeps could have");
    printf("RESULT {\"bench\":\"sleepers\",\"goroutines\":%ld,\"wall_ms\":%.3f,\"cpu_ms\":%.3f,\"ideal_ms\":%.3f}\n",
           goroutines, (double)(t1 - t0) / 1e6, (double)(c1 - c0) / 1e6, ideal_ms);
  }
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
  if (argc == 4 && strcmp(argv[1], "pingpong") == 0)
    return bench_pingpong(parse_positive(argv[2], "ROUNDS"), parse_positive(argv[3], "REPS"));
  if (argc == 4 && strcmp(argv[1], "buffered") == 0)
    return bench_buffered(parse_positive(argv[2], "COUNT"), parse_positive(argv[3], "REPS"));
  if (argc == 4 && strcmp(argv[1], "select") == 0)
    return bench_select(parse_positive(argv[2], "COUNT"), parse_positive(argv[3], "REPS"));
  if (argc == 6 && strcmp(argv[1], "sleepers") == 0)
    return bench_sleepers(parse_positive(argv[2], "G"), parse_positive(argv[3], "SLEEPS"),
                          parse_positive(argv[4], "SLEEP_US"), parse_positive(argv[5], "REPS"));
  printf("FAIL: usage: bench_runtime yield G DEPTH YIELDS REPS | spawn COUNT REPS | parked COUNT STACK_BYTES"
         " DEPTH | cpu MIB REPS | pingpong ROUNDS REPS | buffered COUNT REPS | select COUNT REPS"
         " | sleepers G SLEEPS SLEEP_US REPS\n");
  return 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  return llgo_run_main(program_main, argc, argv);
}

#endif
