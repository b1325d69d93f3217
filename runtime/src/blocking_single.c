//llgo:build !llgo.context_pthread
/*
 * blocking_single.c - the blocking hooks of the single-worker scheduler
 * (blocking.h): one thread, so the runtime lock is nothing, and nothing else
 * runs between an unlock and the park that follows it (llgo_park suspends to
 * the host loop, which only then runs anyone else).
 *
 * Timers fire on the worker itself: llgo_timers_poll at channel, select and
 * semaphore operations (cheap while no timer is pending), and the scheduler's
 * idle hook (scheduler.h), installed when the first timer starts: when the run
 * queue is empty the host loop calls it on the system stack; it fires due
 * timers, or blocks the worker until the next deadline with the platform's
 * llgo_clock_wait (P1: poll_oneoff with a relative clock, native:
 * clock_nanosleep, J32/J64: clock_wait_emscripten.c) and fires it. With no timer
 * pending it reports a deadlock, so a program whose goroutines all wait on
 * channels still dies with Go's message. `firing` keeps a timer function that
 * does a channel operation from firing timers recursively.
 * Limits: the hook replaces any idle hook a host installed before the first
 * timer (a host with its own event loop must fire timers itself).
 */
#include "blocking.h"
#include "scheduler.h"

/* Blocks the worker for `ns` nanoseconds of the monotonic clock (clock_wait_*.c). */
void llgo_clock_wait(int64_t ns);

static int firing;
static int idle_hook_installed;

void llgo_runtime_lock(void) {}
void llgo_runtime_unlock(void) {}
void llgo_park_unlock(void) { llgo_park(); }
void llgo_timers_changed(void) {}

static int fire_due(int64_t now) {
  firing = 1;
  int fired = llgo_timers_run_due(now);
  firing = 0;
  return fired;
}

void llgo_timers_poll(void) {
  if (firing) {
    return;
  }
  int64_t earliest = llgo_timers_earliest();
  if (earliest >= 0) {
    int64_t now = llgo_nanotime();
    if (earliest <= now) {
      fire_due(now);
    }
  }
}

/* Nothing runnable: wait for the next timer and fire it (the host loop then
 * runs whatever it readied), or, with no timer pending, a deadlock. */
static llgo_sched_idle_action wait_for_timers(void) {
  for (;;) {
    int64_t earliest = llgo_timers_earliest();
    if (earliest < 0) {
      return LLGO_SCHED_IDLE_DEADLOCK;
    }
    int64_t now = llgo_nanotime();
    if (earliest > now) {
      llgo_clock_wait(earliest - now);
      now = llgo_nanotime();
    }
    if (fire_due(now) > 0) {
      return LLGO_SCHED_IDLE_RUN_AGAIN;
    }
  }
}

void llgo_timers_pending_changed(int pending) {
  if (pending && !idle_hook_installed) {
    idle_hook_installed = 1;
    llgo_sched_set_idle_hook(wait_for_timers);
  }
}
