//llgo:build llgo
/*
 * timer.c - the runtime's timers (Go's runtime/time.go of Go 1.19): one binary
 * min-heap ordered by deadline (ties in start order), under the runtime lock,
 * and on top of it Sleep, time.After, NewTimer, NewTicker and AfterFunc.
 *
 * Who fires them is the backend's business (blocking.h): on the single worker,
 * the scheduler's idle hook when nothing is runnable (waiting for the next deadline without
 * spinning) and llgo_timers_poll at channel, select and semaphore operations; on
 * the pthread backend, a timer thread. Firing pops a due timer (a periodic one
 * goes back with its next deadline) and calls its function without the lock.
 * A timer whose function is running is freed only after it returns.
 * Limits: the heap array grows and never shrinks, freed timers are pooled (as
 * many as were ever alive at once); one lock for every timer.
 */
#include "blocking.h"
#include "chan.h"
#include "runtime_alloc.h"

#include <stdlib.h>
#include <string.h>

#define NOT_IN_HEAP ((size_t)-1)
#define MAX_WHEN INT64_MAX

struct llgo_timer {
  int64_t when;
  int64_t period;
  llgo_timer_fn fn;
  void *arg;
  size_t heap_index; /* NOT_IN_HEAP when stopped or fired */
  uint64_t sequence; /* start order: ties fire first-started first */
  int running;       /* its function is running */
  int free_after_run;
  llgo_go_fn go_fn; /* AfterFunc: the goroutine to start */
  void *go_arg;
  struct llgo_timer *pool_next;
};

static struct {
  llgo_timer **heap;
  size_t length, capacity;
  uint64_t next_sequence;
  int reported_pending; /* what llgo_timers_pending_changed last said */
  llgo_timer *pool;     /* freed records, reused (a sleep needs one each time) */
} timers;

int64_t llgo_when(int64_t d) {
  int64_t now = llgo_nanotime();
  if (d <= 0) {
    return now;
  }
  return d > MAX_WHEN - now ? MAX_WHEN : now + d;
}

/* ---- the heap (under the lock) ---- */

static int fires_before(const llgo_timer *a, const llgo_timer *b) {
  return a->when < b->when || (a->when == b->when && a->sequence < b->sequence);
}

static void heap_set(size_t index, llgo_timer *t) {
  timers.heap[index] = t;
  t->heap_index = index;
}

static void sift_up(size_t index) {
  llgo_timer *t = timers.heap[index];
  while (index > 0) {
    size_t parent = (index - 1) / 2;
    if (!fires_before(t, timers.heap[parent])) {
      break;
    }
    heap_set(index, timers.heap[parent]);
    index = parent;
  }
  heap_set(index, t);
}

static void sift_down(size_t index) {
  llgo_timer *t = timers.heap[index];
  for (;;) {
    size_t child = 2 * index + 1;
    if (child >= timers.length) {
      break;
    }
    if (child + 1 < timers.length && fires_before(timers.heap[child + 1], timers.heap[child])) {
      child++;
    }
    if (!fires_before(timers.heap[child], t)) {
      break;
    }
    heap_set(index, timers.heap[child]);
    index = child;
  }
  heap_set(index, t);
}

static void note_pending(void) {
  int pending = timers.length > 0;
  if (pending != timers.reported_pending) {
    timers.reported_pending = pending;
    llgo_timers_pending_changed(pending);
  }
}

static void heap_push(llgo_timer *t) {
  if (timers.length == timers.capacity) {
    size_t capacity = timers.capacity == 0 ? 64 : timers.capacity * 2;
    llgo_timer **grown = llgo_runtime_alloc(capacity * sizeof *grown);
    if (grown == NULL) {
      llgo_fatal("out of memory allocating the timer heap");
    }
    if (timers.length > 0) {
      memcpy(grown, timers.heap, timers.length * sizeof *grown);
    }
    llgo_runtime_free(timers.heap);
    timers.heap = grown;
    timers.capacity = capacity;
  }
  t->sequence = timers.next_sequence++;
  heap_set(timers.length++, t);
  sift_up(t->heap_index);
  if (timers.heap[0] == t) {
    llgo_timers_changed();
  }
}

static void heap_remove(llgo_timer *t) {
  size_t index = t->heap_index;
  llgo_timer *last = timers.heap[--timers.length];
  t->heap_index = NOT_IN_HEAP;
  if (last == t) {
    return;
  }
  heap_set(index, last);
  sift_down(index);
  sift_up(last->heap_index);
}

int64_t llgo_timers_earliest(void) { return timers.length == 0 ? -1 : timers.heap[0]->when; }

/* ---- the public timer API ---- */

llgo_timer *llgo_timer_new(llgo_timer_fn fn, void *arg) {
  llgo_runtime_lock();
  llgo_timer *t = timers.pool;
  if (t != NULL) {
    timers.pool = t->pool_next;
  }
  llgo_runtime_unlock();
  if (t == NULL) {
    t = llgo_runtime_alloc(sizeof *t);
    if (t == NULL) {
      llgo_fatal("out of memory allocating a timer");
    }
  }
  memset(t, 0, sizeof *t);
  t->fn = fn;
  t->arg = arg;
  t->heap_index = NOT_IN_HEAP;
  return t;
}

static void start_locked(llgo_timer *t, int64_t when, int64_t period) {
  t->when = when < 0 ? MAX_WHEN : when;
  t->period = period;
  heap_push(t);
  note_pending();
}

void llgo_timer_start(llgo_timer *t, int64_t when, int64_t period) {
  llgo_runtime_lock();
  if (t->heap_index != NOT_IN_HEAP) {
    llgo_runtime_unlock();
    llgo_fatal("llgo_timer_start: the timer is already pending (use llgo_timer_reset)");
  }
  start_locked(t, when, period);
  llgo_runtime_unlock();
}

int llgo_timer_stop(llgo_timer *t) {
  llgo_runtime_lock();
  int pending = t->heap_index != NOT_IN_HEAP;
  if (pending) {
    heap_remove(t);
    note_pending();
  }
  llgo_runtime_unlock();
  return pending;
}

int llgo_timer_reset(llgo_timer *t, int64_t when, int64_t period) {
  llgo_runtime_lock();
  int pending = t->heap_index != NOT_IN_HEAP;
  if (pending) {
    heap_remove(t);
  }
  start_locked(t, when, period);
  llgo_runtime_unlock();
  return pending;
}

static void free_locked(llgo_timer *t) {
  if (t->heap_index != NOT_IN_HEAP) {
    heap_remove(t);
    note_pending();
  }
  if (t->running) {
    t->free_after_run = 1; /* the firing side frees it */
  } else {
    t->pool_next = timers.pool;
    timers.pool = t;
  }
}

void llgo_timer_free(llgo_timer *t) {
  if (t == NULL) {
    return;
  }
  llgo_runtime_lock();
  free_locked(t);
  llgo_runtime_unlock();
}

int llgo_timers_run_due(int64_t now) {
  int fired = 0;
  llgo_runtime_lock();
  while (timers.length > 0 && timers.heap[0]->when <= now) {
    llgo_timer *t = timers.heap[0];
    if (t->period > 0) {
      /* Next tick after now; ticks missed while late are skipped. */
      int64_t late = now - t->when;
      int64_t next = t->when + t->period * (1 + late / t->period);
      heap_remove(t);
      t->when = next < t->when ? MAX_WHEN : next;
      heap_push(t);
    } else {
      heap_remove(t);
    }
    t->running = 1;
    llgo_runtime_unlock();
    t->fn(t->arg, now);
    llgo_runtime_lock();
    t->running = 0;
    if (t->free_after_run) {
      free_locked(t);
    }
    fired++;
  }
  /* Only now: on the pthread backend a goroutine the functions readied counts
   * as running before the timers stop counting as pending. */
  note_pending();
  llgo_runtime_unlock();
  return fired;
}

/* ---- Sleep ---- */

static void ready_sleeper(void *g, int64_t now) {
  (void)now;
  llgo_ready(g);
}

void llgo_sleep(int64_t ns) {
  if (ns <= 0) {
    return;
  }
  llgo_timers_poll();
  llgo_g *self = llgo_current_g_or_die("llgo_sleep");
  /* The timer is heap memory: others touch it while this goroutine is parked. */
  llgo_timer *t = llgo_timer_new(ready_sleeper, self);
  llgo_runtime_lock();
  start_locked(t, llgo_when(ns), 0);
  llgo_park_unlock();
  llgo_timer_free(t);
}

/* ---- time.After, NewTimer, NewTicker, AfterFunc ---- */

/* Go's sendTime: a non-blocking send of the fire time (a reader that is not
 * ready misses a tick). */
static void send_time(void *c, int64_t now) { llgo_chan_try_send(c, &now); }

static void start_goroutine(void *timer, int64_t now) {
  (void)now;
  llgo_timer *t = timer;
  llgo_go(t->go_fn, t->go_arg);
}

llgo_timer *llgo_time_new_timer(int64_t d, llgo_chan **c) {
  *c = llgo_chan_make(sizeof(int64_t), 1);
  llgo_timer *t = llgo_timer_new(send_time, *c);
  llgo_timer_start(t, llgo_when(d), 0);
  return t;
}

llgo_chan *llgo_time_after(int64_t d) {
  llgo_chan *c = llgo_chan_make(sizeof(int64_t), 1);
  llgo_timer *t = llgo_timer_new(send_time, c);
  llgo_runtime_lock();
  t->free_after_run = 1; /* nobody else holds it: it frees itself once fired */
  start_locked(t, llgo_when(d), 0);
  llgo_runtime_unlock();
  return c;
}

llgo_timer *llgo_time_new_ticker(int64_t d, llgo_chan **c) {
  if (d <= 0) {
    llgo_panic("non-positive interval for NewTicker");
  }
  *c = llgo_chan_make(sizeof(int64_t), 1);
  llgo_timer *t = llgo_timer_new(send_time, *c);
  llgo_timer_start(t, llgo_when(d), d);
  return t;
}

llgo_timer *llgo_time_after_func(int64_t d, llgo_go_fn fn, void *arg) {
  llgo_timer *t = llgo_timer_new(start_goroutine, NULL);
  t->arg = t;
  t->go_fn = fn;
  t->go_arg = arg;
  llgo_timer_start(t, llgo_when(d), 0);
  return t;
}
