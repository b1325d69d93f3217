/* host_events.c - the `host_events` test program: goroutines that wait for the
 * host without blocking the worker (llgo_runtime.h, "Host events"), one case
 * per process (tests/harness/test_program.h); cases.json says what each must
 * print and where it applies.
 *
 * J32/J64: JavaScript Promises wake exactly the goroutine that waits on them
 * while others keep running, a JavaScript callback starts a goroutine, the
 * event loop runs while Go code sleeps, and waiting on the host is no deadlock
 * until nothing is left to happen. P1 and native: a goroutine waits for stdin
 * (the runner feeds it late) while another keeps ticking on a timer, and a
 * goroutine's host call may make a JavaScript host collect garbage.
 * Shared state lives in static memory (goroutine stacks may be shared). */
#include "llgo_runtime.h"
#include "test_program.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>
#endif

TEST_PROGRAM_WITHOUT_LEAK_CHECK

#define MS ((int64_t)1000000)

#define EXPECT(cond, ...)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      printf("FAIL: %s:%d: %s: ", __FILE__, __LINE__, #cond);                                \
      printf(__VA_ARGS__);                                                                   \
      printf("\n");                                                                          \
      fflush(stdout);                                                                        \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

/* ---- a goroutine that ticks on a timer until told to stop ---- */

static atomic_int ticker_stop; /* main writes, the ticker polls: threads on pthread */
static atomic_int ticks;       /* the ticker counts, stdin_reader reads meanwhile */
static llgo_chan *ticker_done;

/* stdin-readable: the ticks when the reader began to wait (-1: it has not), and
 * whether the ticker has said that it ticked TICKS_WHILE_WAITING times since. */
#define TICKS_WHILE_WAITING 10
static atomic_int reader_waits_from = -1;
static atomic_int ticker_announced;

static void ticker(void *unused) {
  (void)unused;
  while (!ticker_stop) {
    llgo_sleep(2 * MS);
    ticks++;
    int from = atomic_load(&reader_waits_from);
    if (from >= 0 && !atomic_load(&ticker_announced) && ticks - from >= TICKS_WHILE_WAITING) {
      /* Set before the line: the runner writes to stdin once it has read it. The line
       * goes out with write(2), past stdio (empty then: the reader flushed its line):
       * on P1T, the reader's printf once woken ran while this thread was still in
       * fflush, and its line was lost (the threads' stdio did not exclude each other). */
      atomic_store(&ticker_announced, 1);
      static const char line[] = "the ticker ticked 10 times while the reader waited\n";
      _Static_assert(TICKS_WHILE_WAITING == 10, "the line says 10");
      if (write(1, line, sizeof line - 1) != (ssize_t)(sizeof line - 1)) {
        exit(1);
      }
    }
  }
  int one = 1;
  llgo_chan_send(ticker_done, &one);
}

static void start_ticker(void) {
  ticker_done = llgo_chan_make(sizeof(int), 1);
  llgo_go(ticker, NULL);
}

static int stop_ticker(void) {
  ticker_stop = 1;
  int one;
  llgo_chan_recv(ticker_done, &one);
  return ticks;
}

#ifdef __EMSCRIPTEN__

/* ---- JavaScript ---- */

/* A Promise that settles `ms` milliseconds from now, awaited by host wait `id`;
 * js_settled(id) says whether it has. */
EM_JS(void, js_await_later, (int id, int ms, double value, int reject), {
  Module.testSettled = Module.testSettled || {};
  Module.testSettled[id] = false;
  Module.llgoAwait(id, new Promise(function(resolve, rejectPromise) {
    setTimeout(function() {
      Module.testSettled[id] = true;
      (reject ? rejectPromise : resolve)(value);
    }, ms);
  }));
});

EM_JS(int, js_settled, (int id), { return Module.testSettled[id] ? 1 : 0; });

/* A Promise awaited by host wait `id` that settles only when told (js_reject_held). */
EM_JS(void, js_await_held, (int id), {
  Module.testHeld = Module.testHeld || {};
  Module.llgoAwait(id, new Promise(function(resolve, reject) { Module.testHeld[id] = reject; }));
});

EM_JS(void, js_reject_held, (int id), { Module.testHeld[id](new Error('rejected')); });

EM_JS(void, js_call_later, (int id, int ms), {
  setTimeout(function() { Module._llgo_host_call(id); }, ms);
});

EM_JS(int, js_call_now, (int id), { return Module._llgo_host_call(id); });

EM_JS(int, js_wake_now, (int id, int ok, double value), {
  return Module._llgo_host_wake(id, ok, value);
});

EM_JS(void, js_interval_start, (int ms), {
  Module.testIntervalCount = 0;
  Module.testInterval = setInterval(function() { Module.testIntervalCount++; }, ms);
});

EM_JS(int, js_interval_count, (void), { return Module.testIntervalCount; });

EM_JS(int, js_interval_stop, (void), {
  clearInterval(Module.testInterval);
  return Module.testIntervalCount;
});

/* ---- promise-wakes-only-its-waiter ---- */

static llgo_g *volatile slow_waiter;
static volatile llgo_host_wait_id slow_id;
static volatile int slow_woken;
static volatile int fast_woken_while_slow_parked;
static llgo_chan *results;

static void fast(void *unused) {
  (void)unused;
  /* A turn of the event loop first: Node's timers count from the time its loop
   * last cached, which at start-up may be long before this runs (under load the
   * Promise's 20 ms could then expire together with, and be handled before, the
   * ticker's first wake). */
  llgo_sleep(1 * MS);
  int ticks_before = ticks;
  llgo_host_wait_id id = llgo_host_wait_begin();
  js_await_later(id, 20, 42, 0);
  double value = 0;
  int ok = llgo_host_wait_end(id, &value);
  /* Woken by the settled Promise, not before (not a time: Node's timers count
   * from the time its loop last cached, which under load may be well before
   * js_await_later ran, so a Promise of 20 ms can settle after less). */
  EXPECT(js_settled(id), "woke before the Promise settled");
  fast_woken_while_slow_parked =
      !slow_woken && slow_waiter != NULL && llgo_test_g_status(slow_waiter) == LLGO_G_WAITING;
  /* The ticker's 2 ms timer expires before the Promise's 20 ms one, so it ran
   * at least once during the wait unless the worker was blocked meanwhile (how
   * often depends on the machine's load). */
  int ticks_seen = ticks - ticks_before;
  printf("fast: ok=%d value=%g; slow still parked: %d; ticker ran meanwhile: %d\n", ok, value,
         fast_woken_while_slow_parked, ticks_seen >= 1);
  js_reject_held(slow_id); /* now slow's Promise settles (rejected) */
  int done = 1;
  llgo_chan_send(results, &done);
}

static void slow(void *unused) {
  (void)unused;
  slow_waiter = llgo_current_g();
  llgo_host_wait_id id = llgo_host_wait_begin();
  slow_id = id;
  js_await_held(id); /* rejected once fast has woken */
  double value = 0;
  int ok = llgo_host_wait_end(id, &value);
  slow_woken = 1;
  printf("slow: ok=%d value is NaN: %d\n", ok, value != value);
  int done = 2;
  llgo_chan_send(results, &done);
}

static int promise_wakes_only_its_waiter(int argc, char **argv) {
  (void)argc;
  (void)argv;
  results = llgo_chan_make(sizeof(int), 0);
  start_ticker();
  llgo_go(slow, NULL);
  llgo_go(fast, NULL);
  int first, second;
  llgo_chan_recv(results, &first);
  llgo_chan_recv(results, &second);
  stop_ticker();
  printf("order: %d then %d\n", first, second);
  return 0;
}

/* ---- wake-before-end ---- */

static int wake_before_end(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_host_wait_id id = llgo_host_wait_begin();
  int first = js_wake_now(id, 1, 3.5);
  int again = js_wake_now(id, 1, 4.5);
  double value = 0;
  int ok = llgo_host_wait_end(id, &value); /* already settled: returns at once */
  int stale = js_wake_now(id, 1, 5.5);
  printf("wake %d, again %d, ended ok=%d value=%g, after end %d\n", first, again, ok, value, stale);
  return 0;
}

/* ---- js-callback-starts-goroutine ---- */

static llgo_chan *from_callback;
static int callback_value = 5;

static void on_call(void *arg) {
  int v = *(int *)arg;
  llgo_chan_send(from_callback, &v);
  callback_value++;
}

static int js_callback_starts_goroutine(int argc, char **argv) {
  (void)argc;
  (void)argv;
  from_callback = llgo_chan_make(sizeof(int), 0);
  llgo_host_callback_id id = llgo_host_callback_new(on_call, &callback_value);
  /* Later, from the event loop: the worker is idle there (main waits on a
   * channel, no timer pending) and must be re-entered. */
  js_call_later(id, 10);
  int v = 0;
  llgo_chan_recv(from_callback, &v);
  printf("a JS timer's callback started a goroutine that sent %d\n", v);
  /* Now, while this goroutine runs: queued, it runs once this one parks. */
  int status = js_call_now(id);
  llgo_chan_recv(from_callback, &v);
  printf("a synchronous call (status %d) started one that sent %d\n", status, v);
  llgo_host_callback_release(id);
  printf("after release: %d\n", js_call_now(id));
  return 0;
}

/* ---- event-loop-runs-while-sleeping ---- */

static int event_loop_runs_while_sleeping(int argc, char **argv) {
  (void)argc;
  (void)argv;
  /* Nominally 9 fires in 100 ms; a loaded machine delays them, so Go sleeps on,
   * 100 ms at a time, until 5 fired (a sleep that blocked the event loop gets none). */
  js_interval_start(10);
  int64_t start = llgo_nanotime();
  do {
    llgo_sleep(100 * MS);
  } while (js_interval_count() < 5 && llgo_nanotime() - start < 10000 * MS);
  int fired = js_interval_stop();
  EXPECT(fired >= 5, "the host's 10 ms interval fired %d times while Go slept %.0f ms", fired,
         (llgo_nanotime() - start) / 1e6);
  printf("the host's interval kept firing while Go slept\n");
  return 0;
}

/* ---- deadlocks on the host ---- */

static int host_wait_never_settles(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_host_wait_id id = llgo_host_wait_begin();
  printf("waiting for a wake that never comes\n");
  fflush(stdout);
  llgo_host_wait_end(id, NULL);
  printf("unreachable\n");
  return 0;
}

static int channel_deadlock_with_callback(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_host_callback_new(on_call, &callback_value); /* nothing in JavaScript calls it */
  llgo_chan *c = llgo_chan_make(sizeof(int), 0);
  printf("receiving while a callback is live\n");
  fflush(stdout);
  int v;
  llgo_chan_recv(c, &v);
  printf("unreachable\n");
  return 0;
}

static int wait_readable_unsupported(int argc, char **argv) {
  (void)argc;
  (void)argv;
  int status = llgo_wait_readable(0);
  printf("llgo_wait_readable: %d, ENOTSUP: %d\n", status, errno == ENOTSUP);
  return 0;
}

/* block-below-js-frame: JavaScript calls into Go (an export), and that call blocks on a channel.
 * A backend on engine stacks (JSPI) cannot suspend the JavaScript frame in between: the program
 * must end with a fatal error that says how to restructure, never hang, go on or exit 0. */
static llgo_chan *below_js_chan;

EMSCRIPTEN_KEEPALIVE void host_events_block_in_js_call(void) {
  printf("blocking inside a call from JavaScript\n");
  fflush(stdout);
  int v;
  llgo_chan_recv(below_js_chan, &v);
  printf("FAIL: came back from blocking below a JavaScript frame\n");
  fflush(stdout);
}

EM_JS(void, js_call_go_that_blocks, (void), { Module._host_events_block_in_js_call(); });

static void block_below_js(void *unused) {
  (void)unused;
  js_call_go_that_blocks();
  printf("FAIL: the JavaScript call returned\n");
}

static int block_below_js_frame(int argc, char **argv) {
  (void)argc;
  (void)argv;
  below_js_chan = llgo_chan_make(sizeof(int), 0);
  llgo_go(block_below_js, NULL);
  llgo_gosched(); /* the goroutine runs and blocks */
  int v = 1;
  llgo_chan_send(below_js_chan, &v);
  printf("FAIL: main went on\n");
  return 0;
}

#else /* not Emscripten: these cases do not apply (cases.json); running one anyway fails */

static int emscripten_only(int argc, char **argv) {
  (void)argc;
  printf("FAIL: %s needs JavaScript (J32/J64)\n", argv[0]);
  return 1;
}
#define promise_wakes_only_its_waiter emscripten_only
#define wake_before_end emscripten_only
#define js_callback_starts_goroutine emscripten_only
#define event_loop_runs_while_sleeping emscripten_only
#define host_wait_never_settles emscripten_only
#define channel_deadlock_with_callback emscripten_only
#define wait_readable_unsupported emscripten_only
#define block_below_js_frame emscripten_only

#endif

/* ---- exit-while-timers-pending (every variant) ---- */

static atomic_int exit_called;
static uint64_t main_m;

/* Says so if it runs at all once main called exit, on the single worker (the
 * goroutine runs on main's M): nothing but exit runs there after the call, so
 * a tick then means the pending timers still ran. On the pthread backends (an
 * M per goroutine) the other threads run on until the process ends, however
 * long a loaded machine takes to end it; a process that never ends is the
 * runner's timeout. */
static void print_ticks_forever(void *unused) {
  (void)unused;
  for (;;) {
    llgo_sleep(1 * MS);
    if (atomic_load(&exit_called) && llgo_test_m_id() == main_m) {
      printf("still running after exit\n");
      fflush(stdout);
    }
  }
}

static int exit_while_timers_pending(int argc, char **argv) {
  (void)argc;
  (void)argv;
  main_m = llgo_test_m_id();
  start_ticker();
  llgo_go(print_ticks_forever, NULL);
  llgo_sleep(5 * MS); /* J32/J64: the worker has been back to the event loop */
  printf("exiting with 3\n");
  fflush(stdout);
  atomic_store(&exit_called, 1);
  exit(3); /* libc's exit, as os.Exit: the timers still pending must not run */
}

/* ---- stdin-readable (P1, native) ---- */

static llgo_chan *read_done;
static char input[64];
static volatile int ticks_when_readable;

/* The runner writes to stdin once the ticker has said that it ticked 10 times
 * while the reader waited (cases.json's "after_line"): the wait must not end
 * before that, and the ticker must run meanwhile (or nothing is ever written:
 * the runner's timeout). Order, not time: a loaded machine only makes it slower. */
static void stdin_reader(void *unused) {
  (void)unused;
  printf("waiting for stdin\n");
  fflush(stdout);
  int ticks_before = ticks;
  atomic_store(&reader_waits_from, ticks_before);
  int status = llgo_wait_readable(0);
  int after_line = atomic_load(&ticker_announced);
  /* Not to read then: on the single worker a read with no data blocks every goroutine. */
  EXPECT(after_line, "the wait for stdin ended (status %d) before the data was written", status);
  ticks_when_readable = ticks - ticks_before;
  ssize_t n = read(0, input, sizeof input - 1);
  input[n > 0 ? n : 0] = 0;
  printf("readable: %d after the ticker's line: %d; read %d bytes: %s", status, after_line, (int)n, input);
  int one = 1;
  llgo_chan_send(read_done, &one);
}

static int stdin_readable(int argc, char **argv) {
  (void)argc;
  (void)argv;
  read_done = llgo_chan_make(sizeof(int), 0);
  start_ticker();
  llgo_go(stdin_reader, NULL);
  int one;
  llgo_chan_recv(read_done, &one);
  stop_ticker();
  EXPECT(ticks_when_readable >= TICKS_WHILE_WAITING, "the ticker ran only %d times while the reader waited",
         ticks_when_readable);
  printf("the ticker kept running while the reader waited\n");
  return 0;
}

static int wait_readable_bad_fd(int argc, char **argv) {
  (void)argc;
  (void)argv;
  int status = llgo_wait_readable(-1);
  printf("llgo_wait_readable(-1): %d, EBADF: %d\n", status, errno == EBADF);
  return 0;
}

/* ---- a goroutine's host call that makes the host collect garbage ---- */

/* One fd_write with a vast iovec array: the host copies the array (Node's WASI:
 * uvwasi, through V8's external-memory accounting, 16 bytes per entry: 160 MB,
 * past the point where V8 collects garbage at once rather than incrementally;
 * 6 million entries did not get there). A goroutine of an engine-stacks
 * backend runs on a secondary stack, and a host that collected garbage there
 * aborted the process (Node 24: "Check failed: isolate_->IsOnCentralStack()"
 * when the module's call reached the API function's fast entry from that
 * stack; runtime/wasi/jspi_glue.mjs, centralStackImports). Only the first
 * entry carries bytes, so what a host that writes part of the array (libuv
 * caps a write at IOV_MAX entries) prints is the same. */
#define HOST_COPY_ENTRIES ((size_t)10 * 1000 * 1000)
#define HOST_COPY_WARM_UP 10000

static llgo_chan *host_copy_done;

static void host_copy_writer(void *unused) {
  (void)unused;
  static const char line[] = "written from a goroutine through 10000000 iovecs\n";
  struct iovec *iov = calloc(HOST_COPY_ENTRIES, sizeof *iov);
  EXPECT(iov != NULL, "cannot allocate %zu iovecs", HOST_COPY_ENTRIES);
  for (size_t i = 0; i < HOST_COPY_ENTRIES; i++) iov[i].iov_base = (void *)line;
  /* Empty writes first: V8 calls an import's fast entry only once the call is hot. */
  for (int i = 0; i < HOST_COPY_WARM_UP; i++) writev(1, iov, 1);
  iov[0].iov_len = sizeof line - 1;
  ssize_t n = writev(1, iov, (int)HOST_COPY_ENTRIES);
  free(iov);
  int wrote_line = n == (ssize_t)(sizeof line - 1);
  llgo_chan_send(host_copy_done, &wrote_line);
}

static int host_call_collects_garbage(int argc, char **argv) {
  (void)argc;
  (void)argv;
  host_copy_done = llgo_chan_make(sizeof(int), 0);
  llgo_go(host_copy_writer, NULL);
  int wrote_line = 0;
  llgo_chan_recv(host_copy_done, &wrote_line);
  printf("the write returned the line's length: %d\n", wrote_line);
  return 0;
}

static const test_case cases[] = {
    {"promise-wakes-only-its-waiter", promise_wakes_only_its_waiter, NULL},
    {"wake-before-end", wake_before_end, NULL},
    {"js-callback-starts-goroutine", js_callback_starts_goroutine, NULL},
    {"event-loop-runs-while-sleeping", event_loop_runs_while_sleeping, NULL},
    {"host-wait-never-settles", host_wait_never_settles, NULL},
    {"channel-deadlock-with-callback", channel_deadlock_with_callback, NULL},
    {"wait-readable-unsupported", wait_readable_unsupported, NULL},
    {"stdin-readable", stdin_readable, NULL},
    {"stdin-readable-one-poll", stdin_readable, NULL},
    {"wait-readable-bad-fd", wait_readable_bad_fd, NULL},
    {"exit-while-timers-pending", exit_while_timers_pending, NULL},
    {"block-below-js-frame", block_below_js_frame, NULL},
    {"host-call-collects-garbage", host_call_collects_garbage, NULL},
};

int main(int argc, char **argv) { return TEST_PROGRAM_MAIN(argc, argv, cases); }
