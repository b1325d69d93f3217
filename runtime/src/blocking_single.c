//llgo:build !llgo.context_pthread
/*
 * blocking_single.c - the blocking hooks of the single-worker scheduler
 * (blocking.h): one thread, so the runtime lock is nothing, and nothing else
 * runs between an unlock and the park that follows it (llgo_park suspends to
 * the host loop, which only then runs anyone else).
 *
 * Timers fire on the worker itself: llgo_timers_poll at channel, select and
 * semaphore operations (cheap while no timer is pending) and, as the host
 * loop's tick hook, every LLGO_SCHED_TICK_DISPATCHES dispatches (so goroutines
 * that only yield cannot starve a timer), and the scheduler's
 * idle hook (scheduler.h), installed when the first timer starts or the first
 * host wait begins: when the run queue is empty the host loop calls it on the
 * system stack; it fires due timers, or hands the time until the next deadline
 * to the platform's one idle wait, llgo_platform_idle_wait (blocking.h; P1:
 * one poll_oneoff with a relative clock and the fds goroutines wait on, native:
 * clock_nanosleep or poll, J32/J64: back to the JavaScript event loop), which
 * may also ready goroutines whose host event arrived. When the platform says
 * nothing is pending (no timer, no host wait) it is a deadlock, so a program
 * whose goroutines all wait on channels still dies with Go's message. `firing`
 * keeps a timer function that does a channel operation from firing timers
 * recursively.
 * Limits: the hook replaces any idle hook a host installed before the first
 * timer or host wait (a host with its own event loop must fire timers itself).
 */
#include "blocking.h"
#include "scheduler.h"

static int firing;
static int idle_hook_installed;

void llgo_runtime_lock(void) {}
void llgo_runtime_unlock(void) {}
void llgo_runtime_lock_yield(void) { llgo_fatal("waiting under the runtime lock for another thread on the single worker"); }
/* llgo_park_unlock is in scheduler.c: a switch point of its own, not a call to llgo_park. */
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

/* The worker reads the clock at the scheduling points above anyway (and the
 * host loop polls every few dispatches), so a Sleep need not: see timer.c. */
int llgo_sleep_defers_deadline(void) { return 1; }

/* Nothing runnable: fire what is due, else wait in the platform until the
 * next timer or a host event (the host loop then runs whatever that readied),
 * or go back to the host's event loop, or, with nothing pending, a deadlock. */
static llgo_sched_idle_action idle(void) {
  int64_t now = llgo_nanotime();
  llgo_timers_stamp(now);
  int64_t earliest = llgo_timers_earliest();
  if (earliest >= 0 && earliest <= now) {
    fire_due(now);
    return LLGO_SCHED_IDLE_RUN_AGAIN;
  }
  switch (llgo_platform_idle_wait(earliest < 0 ? -1 : earliest - now)) {
  case LLGO_IDLE_WAITED:
    if (earliest >= 0) {
      now = llgo_nanotime();
      if (earliest <= now) {
        fire_due(now);
      }
    }
    return LLGO_SCHED_IDLE_RUN_AGAIN; /* the loop calls again if nothing became runnable */
  case LLGO_IDLE_RETURN_TO_HOST:
    return LLGO_SCHED_IDLE_RETURN_TO_HOST;
  case LLGO_IDLE_NOTHING_PENDING:
  default:
    return LLGO_SCHED_IDLE_DEADLOCK;
  }
}

void llgo_idle_hook_needed(void) {
  if (!idle_hook_installed) {
    idle_hook_installed = 1;
    llgo_sched_set_idle_hook(idle);
    llgo_sched_set_tick_hook(llgo_timers_poll);
  }
}

void llgo_timers_pending_changed(int pending) {
  if (pending) {
    llgo_idle_hook_needed();
  }
}
