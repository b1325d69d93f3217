/* timer_cases.c - time (Go's runtime/time.go and package time): Sleep never
 * wakes before its duration, 10,000 timers firing in deadline order, tickers,
 * Stop and Reset, a timer freed twice, time.After in a select, AfterFunc, timers firing while
 * goroutines keep the worker busy (even when they only yield), sleeps in
 * batches, timers of one duration, and deadlock detection that waits for
 * pending timers but still reports a true deadlock.
 *
 * No case fails because the machine is slow: a case checks order and causality
 * (a timer fired before another, a sleep did not end before its duration had
 * passed on the monotonic clock), never that something happened within some
 * time. How late timers are is measured in bench/ (the sleepers rows). The only
 * upper bounds are against hangs, at least 10x what a loaded machine takes. */
#include "blocking_test.h"

#include <stdatomic.h>
#include <stdint.h>

/* ---- holding timers back ----
 * A gate is a timer whose function does not return until the case opens the
 * gate. Started first and due no later than any timer the case starts after it,
 * it fires first, and while its function runs no other timer fires (one timer
 * function at a time, in deadline order: timer.c). So a case can start and stop
 * timers whose deadlines pass meanwhile (a loaded machine may pause it for any
 * time) and still know that none of them fired before it opened the gate. On
 * the pthread backend the timer thread waits in the gate's function; on the
 * single worker timers fire only where the worker polls them (channel, select,
 * semaphore operations, the scheduler), never while a case starts or stops
 * them, so the gate is open before its function runs. */
static atomic_int gate_opened;

static void hold_until_opened(void *unused, int64_t now) {
  (void)unused, (void)now;
  while (!atomic_load(&gate_opened)) {
  }
}

/* Closes the gate: a timer due at `when` (no later than every deadline it holds back). */
static llgo_timer *close_gate(int64_t when) {
  atomic_store(&gate_opened, 0);
  llgo_timer *gate = llgo_timer_new(hold_until_opened, NULL);
  llgo_timer_start(gate, when, 0);
  return gate;
}

static void open_gate(void) { atomic_store(&gate_opened, 1); }

/* A 50 ms sleep does not end before 50 ms have passed on the monotonic clock
 * (Go: Sleep pauses at least the duration); a sleep of 0 or less returns (it
 * does not park: sleep-nonpositive-never-parks). How late a sleep wakes is the
 * machine's business, measured in bench/, not here. */
static int sleep_50ms(int argc, char **argv) {
  (void)argc, (void)argv;
  int64_t start = llgo_nanotime();
  llgo_sleep(50 * MS);
  int64_t slept = llgo_nanotime() - start;
  EXPECT(slept >= 50 * MS, "woke after %.2f ms", slept / 1e6);
  llgo_sleep(0);
  llgo_sleep(-5);
  printf("slept 50 ms, not woken before 50 ms had passed\n");
  return 0;
}

static atomic_int other_ran;

static void note_ran(void *unused) {
  (void)unused;
  atomic_store(&other_ran, 1);
}

/* A sleep of 0 or less returns at once: it does not park, so a goroutine that
 * is ready to run does not get to run meanwhile (Go's timeSleep returns before
 * gopark; with GOMAXPROCS(1) Go prints the same). Single worker only: on the
 * pthread backend the other goroutine is a thread that runs when it likes. */
static int sleep_nonpositive_never_parks(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_go(note_ran, NULL);
  llgo_sleep(0);
  llgo_sleep(-5);
  int ran_during = atomic_load(&other_ran);
  llgo_gosched();
  printf("the other goroutine ran during Sleep(0) and Sleep(-5): %d, after Gosched: %d\n", ran_during,
         atomic_load(&other_ran));
  return 0;
}

#define TIMERS 10000

static int64_t deadlines[TIMERS];
static int fired_order[TIMERS];
static int fired_count;
static int fired_early;
static llgo_chan *all_fired;

static void record_firing(void *index, int64_t now) {
  (void)now;
  int i = (int)(intptr_t)index;
  fired_early += llgo_nanotime() < deadlines[i];
  fired_order[fired_count++] = i;
  if (fired_count == TIMERS) llgo_chan_try_send(all_fired, NULL);
}

/* 10,000 one-shot timers with random deadlines on the milliseconds between now
 * and 200 ms from now fire in deadline order, ties in the order they were
 * started, none before its deadline. A gate holds every one back until all are
 * started (on the pthread backend a timer thread fires them while main is still
 * starting them), so the order holds however long starting them takes: under
 * load J32 once took 184 ms, and any fixed lead could be too short. */
static int timers_fire_in_deadline_order(int argc, char **argv) {
  (void)argc, (void)argv;
  all_fired = llgo_chan_make(0, 1);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  int64_t base = llgo_nanotime();
  llgo_timer *gate = close_gate(base);
  llgo_timer **timers = test_new(TIMERS * sizeof *timers);
  for (int i = 0; i < TIMERS; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    deadlines[i] = base + (int64_t)(x % 200) * MS; /* ~50 timers per deadline */
    timers[i] = llgo_timer_new(record_firing, (void *)(intptr_t)i);
  }
  for (int i = 0; i < TIMERS; i++) llgo_timer_start(timers[i], deadlines[i], 0);
  open_gate();
  llgo_chan_recv(all_fired, NULL);
  EXPECT(fired_early == 0, "%d timers fired before their deadline", fired_early);
  for (int n = 1; n < TIMERS; n++) {
    int a = fired_order[n - 1], b = fired_order[n];
    EXPECT(deadlines[a] < deadlines[b] || (deadlines[a] == deadlines[b] && a < b),
           "timer %d (deadline +%lld ns) fired after timer %d (+%lld ns)", b, (long long)(deadlines[b] - base), a,
           (long long)(deadlines[a] - base));
  }
  for (int i = 0; i < TIMERS; i++) {
    EXPECT(llgo_timer_stop(timers[i]) == 0, "a fired one-shot timer is not pending");
    llgo_timer_free(timers[i]);
  }
  llgo_timer_free(gate);
  printf("%d timers fired in deadline order\n", fired_count);
  return 0;
}

/* A ticker ticks every period (a slow reader misses ticks, it never gets a
 * backlog); after Stop it ticks no more. */
static int ticker_ticks_until_stopped(int argc, char **argv) {
  (void)argc, (void)argv;
  int64_t start = llgo_nanotime();
  llgo_chan *ticks;
  llgo_timer *ticker = llgo_time_new_ticker(5 * MS, &ticks);
  for (int i = 0; i < 5; i++) {
    /* Ticks keep to the schedule (start + 5, 10, ... ms), never early. */
    int64_t at;
    llgo_chan_recv(ticks, &at);
    EXPECT(at - start >= (i + 1) * 5 * MS, "tick %d came %.2f ms after the start", i, (at - start) / 1e6);
  }
  llgo_sleep(30 * MS); /* about 6 ticks pass; the channel holds one */
  EXPECT(llgo_chan_len(ticks) == 1, "a backlog of %zu ticks", llgo_chan_len(ticks));
  EXPECT(llgo_timer_stop(ticker) == 1, "a ticker is pending until stopped");
  llgo_chan_recv(ticks, NULL);
  llgo_sleep(20 * MS);
  EXPECT(llgo_chan_len(ticks) == 0, "a stopped ticker ticked");
  llgo_timer_free(ticker);
  llgo_chan_free(ticks);
  printf("5 ticks, one buffered while the reader slept, none after stop\n");
  return 0;
}

#define STOP_ROUNDS 200

/* A periodic timer whose function takes 100 us before it sends. */
static void slow_send(void *c, int64_t now) {
  int64_t until = llgo_nanotime() + 100 * 1000;
  while (llgo_nanotime() < until) {
  }
  llgo_chan_try_send(c, &now);
}

/* Once Stop has returned, the timer's function is not running (Go's deltimer
 * waits while it runs), so nothing it sends arrives after Stop. On the pthread
 * backend the timer thread runs functions without the lock, and a 50 us period
 * with a 100 us function keeps it inside one nearly all the time: without the
 * wait, nearly every round found a value in the drained channel after Stop. On
 * the single worker functions run only where timers are polled, never while
 * Stop runs. */
static int stopped_timer_sends_nothing_after_stop(int argc, char **argv) {
  (void)argc, (void)argv;
  int late = 0;
  for (int round = 0; round < STOP_ROUNDS; round++) {
    llgo_chan *c = llgo_chan_make(sizeof(int64_t), 1);
    llgo_timer *t = llgo_timer_new(slow_send, c);
    llgo_timer_start(t, llgo_when(20 * 1000), 50 * 1000);
    llgo_chan_recv(c, NULL);
    llgo_timer_stop(t);
    while (llgo_chan_try_recv(c, NULL, NULL)) {
    }
    llgo_sleep(300 * 1000);
    late += llgo_chan_len(c) != 0;
    llgo_timer_free(t);
    llgo_chan_free(c);
  }
  EXPECT(late == 0, "%d of %d stopped timers sent after Stop returned", late, STOP_ROUNDS);
  printf("%d periodic timers stopped, none sent after Stop\n", STOP_ROUNDS);
  return 0;
}

static int ticker_nonpositive(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *ticks;
  llgo_time_new_ticker(0, &ticks);
  return 0;
}

/* Freeing a timer twice is fatal. It went unnoticed: the record was pooled twice,
 * the next two llgo_timer_new returned it both times, and a misleading "already
 * pending" fatal followed when both were started (issue 30). */
static void never_fires(void *arg, int64_t now) { (void)arg, (void)now; }

static int timer_free_twice(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_timer *t = llgo_timer_new(never_fires, NULL);
  llgo_timer_free(t);
  llgo_timer_free(t);
  llgo_timer *a = llgo_timer_new(never_fires, NULL), *b = llgo_timer_new(never_fires, NULL);
  printf("freed twice unnoticed; the next two timers share a record: %s\n", a == b ? "yes" : "no");
  return 0;
}

/* Stop and Reset report whether the timer was pending, as Go's do. */
static int timer_stop_and_reset(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *c;
  llgo_timer *t = llgo_time_new_timer(3600 * 1000 * MS, &c);
  int stopped = llgo_timer_stop(t);
  int stopped_again = llgo_timer_stop(t);
  int reset_stopped = llgo_timer_reset(t, llgo_when(10 * MS), 0);
  int64_t start = llgo_nanotime(), at; /* before the last deadline is taken */
  int reset_pending = llgo_timer_reset(t, llgo_when(10 * MS), 0);
  llgo_chan_recv(c, &at);
  EXPECT(at - start >= 10 * MS, "fired %.2f ms after the reset", (at - start) / 1e6);
  int stop_fired = llgo_timer_stop(t);
  printf("stop %d, again %d, reset stopped %d, reset pending %d, stop after firing %d\n", stopped, stopped_again,
         reset_stopped, reset_pending, stop_fired);
  llgo_timer_free(t);
  return 0;
}

/* time.After as a timeout in a select whose other case never becomes ready. */
static int time_after_timeout(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_chan *never = llgo_chan_make(sizeof(int), 0);
  int64_t start = llgo_nanotime(), at = 0;
  int v;
  llgo_select_case cases[2] = {{never, LLGO_SELECT_RECV, &v}, {llgo_time_after(20 * MS), LLGO_SELECT_RECV, &at}};
  int chosen = llgo_select(cases, 2, 1, NULL);
  EXPECT(chosen == 1 && at - start >= 20 * MS, "case %d after %.2f ms", chosen, (at - start) / 1e6);
  printf("timeout case after 20 ms\n");
  return 0;
}

static llgo_chan *from_after_func;

static void after_func_body(void *arg) {
  int v = (int)(intptr_t)arg;
  llgo_chan_send(from_after_func, &v); /* a goroutine of its own: it may block */
}

/* AfterFunc runs its function in a goroutine of its own once the duration has
 * passed; one stopped before it fired never runs, although its deadline came
 * first. A gate keeps the stopped one from firing before the Stop, however long
 * a loaded machine pauses main between the two calls (on the pthread backend
 * the timer thread would fire it after 5 ms). */
static int after_func_starts_goroutine(int argc, char **argv) {
  (void)argc, (void)argv;
  from_after_func = llgo_chan_make(sizeof(int), 0);
  int64_t start = llgo_nanotime();
  llgo_timer *gate = close_gate(start);
  llgo_timer *t = llgo_time_after_func(10 * MS, after_func_body, (void *)(intptr_t)99);
  llgo_timer *cancelled = llgo_time_after_func(5 * MS, after_func_body, (void *)(intptr_t)1);
  EXPECT(llgo_timer_stop(cancelled) == 1, "stopped before it fired");
  open_gate();
  int v;
  llgo_chan_recv(from_after_func, &v);
  EXPECT(v == 99 && llgo_nanotime() - start >= 10 * MS, "got %d", v);
  llgo_timer_free(t);
  llgo_timer_free(cancelled);
  llgo_timer_free(gate);
  printf("AfterFunc's goroutine sent %d\n", v);
  return 0;
}

static atomic_int spinner_stop; /* main writes, the spinner polls: threads on pthread */

static void spinner(void *unused) {
  (void)unused;
  while (!spinner_stop) {
    int v = 0;
    llgo_chan_try_recv(NULL, &v, NULL); /* a channel operation: timers are polled */
    llgo_gosched();
  }
}

/* Two goroutines that never park still let timers fire: main waits on a
 * time.After channel by polling it without blocking, and the timer fires while
 * it polls. A round whose timer was already due at main's first poll (a loaded
 * machine paused main for the whole 10 ms) shows nothing of that: main tries
 * again with a new timer. */
static int timers_fire_while_busy(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_go(spinner, NULL);
  int64_t first_start = llgo_nanotime();
  long polls = 0;
  while (polls == 0) {
    int64_t start = llgo_nanotime(); /* before the deadline is taken */
    llgo_chan *after = llgo_time_after(10 * MS);
    int64_t at = 0;
    while (!llgo_chan_try_recv(after, &at, NULL)) {
      polls++;
      llgo_gosched();
      /* A timer that is never polled while goroutines run hangs here: 30 s, as a
       * loaded machine may take seconds to start the threads of the pthread backend. */
      EXPECT(llgo_nanotime() - first_start < 30000 * MS, "the timer did not fire while goroutines ran");
    }
    EXPECT(at - start >= 10 * MS, "fired after %.2f ms", (at - start) / 1e6);
  }
  spinner_stop = 1;
  printf("the timer fired while two goroutines kept running\n");
  return 0;
}

static llgo_chan *wake_main;

static void sleep_then_send(void *unused) {
  (void)unused;
  llgo_sleep(30 * MS);
  int v = 1;
  llgo_chan_send(wake_main, &v);
}

/* Every goroutine blocked but a timer pending is not a deadlock; once it fired and
 * everyone is blocked with nothing pending, it is. */
static int deadlock_waits_for_timers(int argc, char **argv) {
  (void)argc, (void)argv;
  wake_main = llgo_chan_make(sizeof(int), 0);
  llgo_go(sleep_then_send, NULL);
  int v;
  llgo_chan_recv(wake_main, &v);
  printf("woken by a goroutine that slept\n");
  fflush(stdout);
  llgo_chan_recv(wake_main, &v);
  printf("not reached\n");
  return 0;
}

static void short_lived(void *unused) {
  (void)unused;
  event("worker exits while main sleeps");
}

/* The last runnable goroutine exits while main sleeps: the worker waits for the
 * timer instead of reporting a deadlock. */
static int exit_while_main_sleeps(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_go(short_lived, NULL);
  llgo_sleep(10 * MS);
  event("main woke");
  printf("%s\n", events());
  return 0;
}

static atomic_int yielder_stop;
static atomic_int sleeper_woke;
static _Atomic int64_t sleeper_slept; /* goroutines are threads on the pthread backend */

static void yielder(void *unused) {
  (void)unused;
  while (!yielder_stop) llgo_gosched(); /* no channel operation: nothing polls timers but the scheduler */
}

static void sleep_10ms(void *unused) {
  (void)unused;
  int64_t start = llgo_nanotime();
  llgo_sleep(10 * MS);
  sleeper_slept = llgo_nanotime() - start;
  sleeper_woke = 1;
}

/* A sleeper wakes while goroutines only yield (Gosched, nothing else): Go's
 * scheduler checks timers at every dispatch, this one every few dispatches, so
 * the run queue never emptying is no reason for a timer to wait. With "alone",
 * main is the only goroutine that runs: a Gosched with nobody else to run
 * counts as a dispatch too. */
static int sleeper_wakes_while_yielding(int others) {
  for (int i = 0; i < others; i++) llgo_go(yielder, NULL);
  llgo_go(sleep_10ms, NULL);
  int64_t start = llgo_nanotime();
  while (!sleeper_woke) {
    llgo_gosched();
    EXPECT(llgo_nanotime() - start < 30000 * MS, "the sleeper did not wake while goroutines yielded");
  }
  yielder_stop = 1;
  EXPECT(sleeper_slept >= 10 * MS, "slept %.2f ms", sleeper_slept / 1e6);
  return 0;
}

static int sleep_wakes_while_others_only_yield(int argc, char **argv) {
  (void)argc, (void)argv;
  sleeper_wakes_while_yielding(1);
  printf("the sleeper woke while two goroutines kept yielding\n");
  return 0;
}

static int sleep_wakes_while_main_yields_alone(int argc, char **argv) {
  (void)argc, (void)argv;
  sleeper_wakes_while_yielding(0);
  printf("the sleeper woke while main kept yielding alone\n");
  return 0;
}

static llgo_waitgroup order_sleeper_done;
static _Atomic(llgo_g *) order_sleeper;
static char order_log[8];
static atomic_int order_count;

static void sleep_then_log(void *unused) {
  (void)unused;
  order_sleeper = llgo_current_g();
  llgo_sleep(20 * MS);
  order_log[atomic_fetch_add(&order_count, 1)] = 'S';
  llgo_waitgroup_done(&order_sleeper_done);
}

static void log_timer_fired(void *unused) {
  (void)unused;
  order_log[atomic_fetch_add(&order_count, 1)] = 'T';
  llgo_waitgroup_done(&order_sleeper_done);
}

/* A Sleep(d) started before a timer of the same d fires first: on the single
 * worker a Sleep takes its deadline from the next clock reading, and starting a
 * timer is one (timer.c), so both get the same deadline and fire in one pass,
 * in start order: the sleeper is readied, then the AfterFunc's goroutine is
 * started, and the run queue runs them in that order. A Sleep stamped from a
 * later reading than the timer would fire after it (the heap orders by
 * deadline). The timer is an AfterFunc, not a time.After received by main:
 * a receive that comes after the deadline (main descheduled by a busy machine
 * for 20 ms) takes the value without parking and logs before the readied
 * sleeper runs, which says nothing about the deadlines (Go's runtime, which
 * runs the last goroutine readied first, prints TS for either form).
 * Single worker only: on the pthread backend both are threads, woken
 * microseconds apart, and either may log first. */
static int sleep_before_timer_of_same_duration_fires_first(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_waitgroup_add(&order_sleeper_done, 2);
  llgo_go(sleep_then_log, NULL);
  wait_parked(&order_sleeper); /* in its Sleep */
  llgo_timer *timer = llgo_time_after_func(20 * MS, log_timer_fired, NULL);
  llgo_waitgroup_wait(&order_sleeper_done);
  llgo_timer_free(timer);
  printf("%.*s\n", (int)atomic_load(&order_count), order_log);
  return 0;
}

#define BATCH 200

static int64_t batch_slept[BATCH];
static llgo_waitgroup batch_done;

static void sleep_twice(void *index) {
  int i = (int)(intptr_t)index;
  for (int round = 0; round < 2; round++) {
    int64_t start = llgo_nanotime();
    llgo_sleep(2 * MS);
    int64_t slept = llgo_nanotime() - start;
    if (round == 0 || slept < batch_slept[i]) batch_slept[i] = slept;
  }
  llgo_waitgroup_done(&batch_done);
}

/* 200 goroutines sleep one after another, twice: every sleep lasts at least its
 * duration counted from its own call (on the single worker a batch of sleeps
 * takes its deadlines from one clock reading after the calls, timer.c). */
static int sleeps_in_a_batch_each_last_their_duration(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_waitgroup_add(&batch_done, BATCH);
  for (int i = 0; i < BATCH; i++) llgo_go(sleep_twice, (void *)(intptr_t)i);
  llgo_waitgroup_wait(&batch_done);
  for (int i = 0; i < BATCH; i++) {
    EXPECT(batch_slept[i] >= 2 * MS, "goroutine %d slept %.3f ms of 2", i, batch_slept[i] / 1e6);
  }
  printf("%d goroutines each slept at least 2 ms, twice\n", BATCH);
  return 0;
}

#define SAME 1000

static int same_fired[SAME];
static int same_count;
static llgo_chan *same_all_fired;

static void record_same(void *index, int64_t now) {
  (void)now;
  same_fired[same_count++] = (int)(intptr_t)index;
}

static void record_last(void *unused, int64_t now) {
  (void)unused, (void)now;
  llgo_chan_try_send(same_all_fired, NULL);
}

/* 1,000 timers of one duration started one after another fire in start order,
 * every third one stopped never fires, and one started with an earlier deadline
 * in between fires first (timers of one duration take the lane, the others the
 * heap; timer.c). Every deadline comes from one clock reading, and a gate holds
 * them all back until they are started and stopped: a loaded machine may pause
 * main past their deadlines, and none may fire before its Stop or out of order
 * because of that. */
static int timers_of_one_duration_fire_in_start_order(int argc, char **argv) {
  (void)argc, (void)argv;
  same_all_fired = llgo_chan_make(0, 1);
  llgo_timer **timers = test_new(SAME * sizeof *timers);
  int64_t base = llgo_nanotime();
  llgo_timer *gate = close_gate(base);
  for (int i = 0; i < SAME; i++) {
    timers[i] = llgo_timer_new(record_same, (void *)(intptr_t)i);
    llgo_timer_start(timers[i], base + 40 * MS, 0);
  }
  llgo_timer *early = llgo_timer_new(record_same, (void *)(intptr_t)-1);
  llgo_timer_start(early, base + 20 * MS, 0);
  int stopped = 0;
  for (int i = 0; i < SAME; i += 3) stopped += llgo_timer_stop(timers[i]);
  llgo_timer *last = llgo_timer_new(record_last, NULL);
  llgo_timer_start(last, base + 60 * MS, 0);
  open_gate();
  llgo_chan_recv(same_all_fired, NULL);
  EXPECT(stopped == (SAME + 2) / 3, "%d of the stopped timers were pending", stopped);
  EXPECT(same_count == 1 + SAME - stopped, "%d timers fired", same_count);
  EXPECT(same_fired[0] == -1, "timer %d fired before the earlier deadline", same_fired[0]);
  for (int n = 1; n < same_count; n++) {
    EXPECT(same_fired[n] % 3 != 0, "stopped timer %d fired", same_fired[n]);
    EXPECT(n == 1 || same_fired[n - 1] < same_fired[n], "timer %d fired before timer %d", same_fired[n - 1],
           same_fired[n]);
  }
  for (int i = 0; i < SAME; i++) llgo_timer_free(timers[i]);
  llgo_timer_free(early);
  llgo_timer_free(last);
  llgo_timer_free(gate);
  printf("%d timers fired in start order, the earlier one first, the stopped ones never\n", same_count);
  return 0;
}

const blocking_case timer_cases[] = {
    {"sleep-50ms", sleep_50ms},
    {"sleep-nonpositive-never-parks", sleep_nonpositive_never_parks},
    {"timers-fire-in-deadline-order", timers_fire_in_deadline_order},
    {"ticker-ticks-until-stopped", ticker_ticks_until_stopped},
    {"stopped-timer-sends-nothing-after-stop", stopped_timer_sends_nothing_after_stop},
    {"ticker-nonpositive", ticker_nonpositive},
    {"timer-stop-and-reset", timer_stop_and_reset},
    {"timer-free-twice", timer_free_twice},
    {"time-after-timeout", time_after_timeout},
    {"after-func-starts-goroutine", after_func_starts_goroutine},
    {"timers-fire-while-busy", timers_fire_while_busy},
    {"deadlock-waits-for-timers", deadlock_waits_for_timers},
    {"exit-while-main-sleeps", exit_while_main_sleeps},
    {"sleep-wakes-while-others-only-yield", sleep_wakes_while_others_only_yield},
    {"sleep-wakes-while-main-yields-alone", sleep_wakes_while_main_yields_alone},
    {"sleep-before-timer-of-same-duration-fires-first", sleep_before_timer_of_same_duration_fires_first},
    {"sleeps-in-a-batch-each-last-their-duration", sleeps_in_a_batch_each_last_their_duration},
    {"timers-of-one-duration-fire-in-start-order", timers_of_one_duration_fire_in_start_order},
    {NULL, NULL},
};
