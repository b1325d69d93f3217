//llgo:build llgo
/*
 * timer.c - the runtime's timers (Go's runtime/time.go of Go 1.19): a four-ary
 * min-heap ordered by deadline (ties in start order) plus a lane, a list for
 * the usual case of deadlines started in order, under the runtime lock, and
 * on top of it Sleep, time.After, NewTimer, NewTicker and AfterFunc.
 *
 * Who fires them is the backend's business (blocking.h): on the single worker,
 * the scheduler's idle hook when nothing is runnable (waiting for the next deadline without
 * spinning), and llgo_timers_poll at channel, select and semaphore operations
 * and as the host loop's tick every LLGO_SCHED_TICK_DISPATCHES dispatches; on
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

#define NOT_IN_HEAP ((size_t)-1) /* stopped or fired */
#define IN_LANE ((size_t)-2)     /* pending, in the lane */
#define UNSTAMPED ((size_t)-3)   /* pending, a Sleep waiting for its deadline */
#define MAX_WHEN INT64_MAX

struct llgo_timer {
  int64_t when;
  int64_t period;
  llgo_timer_fn fn;
  void *arg;
  int64_t duration;  /* UNSTAMPED: the Sleep's duration */
  size_t heap_index; /* its heap slot, IN_LANE, UNSTAMPED, or NOT_IN_HEAP when stopped or fired */
  uint64_t sequence; /* start order: ties fire first-started first */
  struct llgo_timer *lane_prev, *lane_next; /* the lane or the unstamped list */
  int running;       /* its function is running */
  int free_after_run;
  int freed;         /* llgo_timer_free was called: a second call is a double free */
  llgo_go_fn go_fn; /* AfterFunc: the goroutine to start */
  void *go_arg;
  struct llgo_timer *pool_next;
  struct llgo_timer *all_next; /* every timer record ever made (pooled, never freed) */
};

/* A heap slot: the timer with its key, so sifting never reads a record. */
typedef struct {
  int64_t when;
  uint64_t sequence; /* start order: ties fire first-started first */
  llgo_timer *timer;
} heap_entry;

static struct {
  heap_entry *heap;
  size_t length, capacity;
  llgo_timer *lane_head, *lane_tail; /* deadlines in start order, never decreasing */
  llgo_timer *unstamped_head, *unstamped_tail; /* Sleeps without a deadline yet */
  uint64_t next_sequence;
  int reported_pending; /* what llgo_timers_pending_changed last said */
  llgo_timer *pool;     /* freed records, reused (a sleep needs one each time) */
  llgo_timer *all;      /* every record, for llgo_timer_gc_roots */
} timers;

void llgo_timer_gc_roots(llgo_gc_root_fn fn, void *ctx) {
  for (llgo_timer *t = timers.all; t != NULL; t = t->all_next) {
    if (!t->freed || t->running) {
      fn(&t->arg, &t->arg + 1, ctx);
      fn(&t->go_arg, &t->go_arg + 1, ctx);
    }
  }
}

static void stamp_locked(int64_t now);

int64_t llgo_when(int64_t d) {
  int64_t now = llgo_nanotime();
  /* Sleeps started before this timer get their deadline from this same reading
   * (single worker; none on the pthread backend), so they still fire before it,
   * or first on a tie, as in Go. No lock taken: on the single worker it is
   * nothing, and llgo_time_after calls this with it held. */
  if (timers.unstamped_head != NULL) {
    stamp_locked(now);
  }
  if (d <= 0) {
    return now;
  }
  return d > MAX_WHEN - now ? MAX_WHEN : now + d;
}

/* ---- the heap (under the lock) ----
 * Four-ary, as Go's timer heap: half the levels of a binary heap for two more
 * comparisons per level, which are cheap because each entry carries its own
 * key (deadline, start order). Sifting reads only the heap array; it writes
 * the moved timer's heap_index but never reads a timer record, so 10,000
 * pending sleeps cost a few cache lines per pop, not a pointer chase per
 * level. */

#define HEAP_ARITY 4

static int fires_before(const heap_entry *a, const heap_entry *b) {
  return a->when < b->when || (a->when == b->when && a->sequence < b->sequence);
}

static void heap_set(size_t index, heap_entry entry) {
  timers.heap[index] = entry;
  entry.timer->heap_index = index;
}

static void sift_up(size_t index) {
  heap_entry moving = timers.heap[index];
  while (index > 0) {
    size_t parent = (index - 1) / HEAP_ARITY;
    if (!fires_before(&moving, &timers.heap[parent])) {
      break;
    }
    heap_set(index, timers.heap[parent]);
    index = parent;
  }
  heap_set(index, moving);
}

static void sift_down(size_t index) {
  heap_entry moving = timers.heap[index];
  for (;;) {
    size_t first = HEAP_ARITY * index + 1;
    if (first >= timers.length) {
      break;
    }
    size_t last = first + HEAP_ARITY < timers.length ? first + HEAP_ARITY : timers.length;
    size_t best = first;
    for (size_t child = first + 1; child < last; child++) {
      if (fires_before(&timers.heap[child], &timers.heap[best])) {
        best = child;
      }
    }
    if (!fires_before(&timers.heap[best], &moving)) {
      break;
    }
    heap_set(index, timers.heap[best]);
    index = best;
  }
  heap_set(index, moving);
}

static void heap_insert(llgo_timer *t) {
  if (timers.length == timers.capacity) {
    size_t capacity = timers.capacity == 0 ? 64 : timers.capacity * 2;
    heap_entry *grown = llgo_runtime_alloc(capacity * sizeof *grown);
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
  heap_entry entry = {t->when, t->sequence, t};
  heap_set(timers.length++, entry);
  sift_up(t->heap_index);
}

static void heap_delete(llgo_timer *t) {
  size_t index = t->heap_index;
  heap_entry last = timers.heap[--timers.length];
  t->heap_index = NOT_IN_HEAP;
  if (last.timer == t) {
    return;
  }
  heap_set(index, last);
  sift_down(index);
  sift_up(last.timer->heap_index);
}

/* ---- the lane ----
 * Most programs start their timers with a few fixed durations (a Sleep in a
 * loop, a ticker, the same timeout on every request), so each new deadline is
 * usually no earlier than the one started just before it. Such a timer goes
 * to the tail of a list kept in deadline order (a lane, libevent's "common
 * timeouts" without the bookkeeping): starting, stopping and firing it cost
 * O(1). A timer that would break the order goes to the heap; the next timer
 * to fire is the earlier of the heap's root and the lane's head. */

static void list_append(llgo_timer **head, llgo_timer **tail, llgo_timer *t) {
  t->lane_next = NULL;
  t->lane_prev = *tail;
  if (*tail != NULL) {
    (*tail)->lane_next = t;
  } else {
    *head = t;
  }
  *tail = t;
}

static void list_unlink(llgo_timer **head, llgo_timer **tail, llgo_timer *t) {
  if (t->lane_prev != NULL) {
    t->lane_prev->lane_next = t->lane_next;
  } else {
    *head = t->lane_next;
  }
  if (t->lane_next != NULL) {
    t->lane_next->lane_prev = t->lane_prev;
  } else {
    *tail = t->lane_prev;
  }
  t->heap_index = NOT_IN_HEAP;
}

/* ---- the pending timers: heap and lane ---- */

/* The next timer to fire, or NULL. */
static llgo_timer *queue_first(void) {
  llgo_timer *lane = timers.lane_head;
  if (timers.length == 0) {
    return lane;
  }
  const heap_entry *root = &timers.heap[0];
  if (lane == NULL || root->when < lane->when ||
      (root->when == lane->when && root->sequence < lane->sequence)) {
    return root->timer;
  }
  return lane;
}

static int queue_empty(void) {
  return timers.length == 0 && timers.lane_head == NULL && timers.unstamped_head == NULL;
}

static void queue_push(llgo_timer *t) {
  t->sequence = timers.next_sequence++;
  /* MAX_WHEN (never) stays out of the lane: at its tail it would send every
   * later timer to the heap. */
  if (t->when != MAX_WHEN && (timers.lane_tail == NULL || t->when >= timers.lane_tail->when)) {
    t->heap_index = IN_LANE;
    list_append(&timers.lane_head, &timers.lane_tail, t);
  } else {
    heap_insert(t);
  }
  if (queue_first() == t) {
    llgo_timers_changed();
  }
}

static void queue_remove(llgo_timer *t) {
  if (t->heap_index == IN_LANE) {
    list_unlink(&timers.lane_head, &timers.lane_tail, t);
  } else if (t->heap_index == UNSTAMPED) {
    list_unlink(&timers.unstamped_head, &timers.unstamped_tail, t);
  } else {
    heap_delete(t);
  }
}

static void note_pending(void) {
  int pending = !queue_empty();
  if (pending != timers.reported_pending) {
    timers.reported_pending = pending;
    llgo_timers_pending_changed(pending);
  }
}

static void stamp_locked(int64_t now) {
  llgo_timer *t = timers.unstamped_head;
  timers.unstamped_head = timers.unstamped_tail = NULL;
  while (t != NULL) {
    llgo_timer *next = t->lane_next;
    t->when = t->duration > MAX_WHEN - now ? MAX_WHEN : now + t->duration;
    queue_push(t); /* in start order: equal durations go to the lane */
    t = next;
  }
  /* No note_pending: an unstamped Sleep already counted as pending. */
}

void llgo_timers_stamp(int64_t now) {
  llgo_runtime_lock();
  stamp_locked(now);
  llgo_runtime_unlock();
}

int64_t llgo_timers_earliest(void) {
  if (timers.unstamped_head != NULL) {
    return 0; /* a Sleep waits for its deadline: read the clock now */
  }
  llgo_timer *first = queue_first();
  return first == NULL ? -1 : first->when;
}

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
    llgo_runtime_lock();
    t->all_next = timers.all;
    timers.all = t;
    llgo_runtime_unlock();
  }
  /* Field by field rather than a memset (a call on wasm, once per Sleep):
   * when, period, sequence and the lane links are set when it starts. */
  t->fn = fn;
  t->arg = arg;
  t->heap_index = NOT_IN_HEAP;
  t->running = 0;
  t->free_after_run = 0;
  t->freed = 0;
  t->go_fn = NULL;
  t->go_arg = NULL;
  t->pool_next = NULL;
  return t;
}

static void start_locked(llgo_timer *t, int64_t when, int64_t period) {
  t->when = when < 0 ? MAX_WHEN : when;
  t->period = period;
  queue_push(t);
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

/* This thread is running a timer's function (on the single worker, the only
 * thread: every function runs there). */
static _Thread_local int firing;

/* Go's deltimer and modtimer wait while the timer's function runs: once Stop or
 * Reset has returned, nothing the function sends is still on its way. The
 * pthread backend's timer thread runs functions without the lock, so a Stop
 * while it ran one would return at once and, for a ticker, the tick land after
 * it. Called with the timer out of the queue, so that the timer thread cannot
 * fire it again meanwhile (a periodic timer due back to back would keep it
 * running nearly all the time). Never from a timer's function itself, which
 * would wait for itself. */
static void wait_not_running_locked(llgo_timer *t) {
  while (t->running && !firing) {
    llgo_runtime_lock_yield();
  }
}

int llgo_timer_stop(llgo_timer *t) {
  llgo_runtime_lock();
  int pending = t->heap_index != NOT_IN_HEAP;
  if (pending) {
    queue_remove(t);
    note_pending();
  }
  wait_not_running_locked(t);
  llgo_runtime_unlock();
  return pending;
}

int llgo_timer_reset(llgo_timer *t, int64_t when, int64_t period) {
  llgo_runtime_lock();
  int pending = t->heap_index != NOT_IN_HEAP;
  if (pending) {
    queue_remove(t);
  }
  wait_not_running_locked(t);
  start_locked(t, when, period);
  llgo_runtime_unlock();
  return pending;
}

static void free_locked(llgo_timer *t) {
  if (t->heap_index != NOT_IN_HEAP) {
    queue_remove(t);
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
  /* A freed record sits in the pool until llgo_timer_new hands it out again:
   * freeing it twice would pool it twice, and two later timers would share it. */
  if (t->freed) {
    llgo_runtime_unlock();
    llgo_fatal("llgo_timer_free: the timer was already freed (double free)");
  }
  t->freed = 1;
  free_locked(t);
  llgo_runtime_unlock();
}

int llgo_timers_run_due(int64_t now) {
  int fired = 0;
  llgo_runtime_lock();
  stamp_locked(now);
  llgo_timer *t;
  while ((t = queue_first()) != NULL && t->when <= now) {
    if (t->period > 0) {
      /* Next tick after now; ticks missed while late are skipped. */
      int64_t late = now - t->when;
      int64_t periods = 1 + late / t->period;
      int64_t next = periods > (MAX_WHEN - t->when) / t->period ? MAX_WHEN : t->when + t->period * periods;
      queue_remove(t);
      t->when = next;
      queue_push(t);
    } else {
      queue_remove(t);
    }
    t->running = 1;
    llgo_runtime_unlock();
    firing++;
    t->fn(t->arg, now);
    firing--;
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

/* ---- Sleep ----
 * Go's Sleep(d) pauses at least d: its deadline must be no earlier than the
 * call's time + d. On the single worker a Sleep does not read the clock (a
 * host call on wasm, as costly there as the switch itself): it joins the
 * unstamped list, and the next clock reading for timers (the idle hook, the
 * host loop's tick every LLGO_SCHED_TICK_DISPATCHES dispatches, a channel,
 * select or semaphore operation) gives it the deadline reading + d, which is
 * no earlier than call + d. A batch of goroutines that sleep one after the
 * other shares one reading. The cost: the sleep may last longer by the time
 * until that reading, at most the time the worker takes for 64 dispatches
 * or until it next has nothing to run, the same bound by which a due timer
 * can be late. The pthread backend reads the clock in Sleep (its timer thread
 * waits on a deadline). */

static void ready_sleeper(void *g, int64_t now) {
  (void)now;
  llgo_ready(g);
}

void llgo_sleep(int64_t ns) {
  if (ns <= 0) {
    return;
  }
  llgo_g *self = llgo_current_g_or_die("llgo_sleep");
  /* The timer is heap memory: others touch it while this goroutine is parked. */
  llgo_timer *t = llgo_timer_new(ready_sleeper, self);
  llgo_runtime_lock();
  if (llgo_sleep_defers_deadline()) {
    /* The deadline is the next clock reading + ns (see "Sleep" above). */
    t->duration = ns;
    t->period = 0;
    t->heap_index = UNSTAMPED;
    list_append(&timers.unstamped_head, &timers.unstamped_tail, t);
    note_pending();
    /* Single worker: nothing runs between the unlock and the park, and
     * parking directly keeps llgo_park_unlock's frame out of every switch. */
    llgo_runtime_unlock();
    llgo_park();
  } else {
    start_locked(t, llgo_when(ns), 0);
    llgo_park_unlock();
  }
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
