//llgo:build llgo
/*
 * blocking.h - runtime-internal: what channels, select, semaphores and timers
 * need from the scheduler backend, and the waiter records they park with.
 *
 * One lock guards every channel, semaphore root, notify list, the waiter pool
 * and the timer heap: on the single worker it is nothing (one thread, and no
 * switch happens between unlock and park); on the pthread backend it is one
 * mutex (blocking_pthread.c). A goroutine that must wait puts a waiter (Go's
 * sudog) in a wait queue under the lock, then llgo_park_unlock()s; whoever wakes
 * it fills the waiter under the lock and calls llgo_ready after unlocking.
 *
 * Waiters are heap memory, never on the parked goroutine's stack: a parked
 * goroutine's stack may be copied away (shared-stack contexts), so a sender hands
 * a value to a parked receiver through the waiter's `elem` buffer and the
 * receiver copies it out once it runs; a parked sender's value was copied into
 * its waiter before it parked. No goroutine touches another's stack.
 */
#ifndef LLGO_BLOCKING_H
#define LLGO_BLOCKING_H

#include "gstate.h"

#include <stddef.h>
#include <stdint.h>

struct llgo_chan;

/* A goroutine waiting on a channel, a semaphore or a notify list (Go's sudog). */
typedef struct llgo_waiter {
  llgo_g *g;
  struct llgo_waiter *next, *prev; /* links in one wait queue */
  /* select: every waiter of one select points at the first (the leader), whose
   * select_done says a case already won and `winner` which one. NULL otherwise. */
  struct llgo_waiter *select_leader;
  struct llgo_waiter *winner;
  struct llgo_waiter *select_next; /* the select's waiters, in case order */
  int select_done;
  int success;    /* channel: woken by a value (1) or by close (0) */
  int case_index; /* select: the case this waiter stands for */
  struct llgo_chan *chan;
  uint32_t *sema_addr; /* semaphore: the address waited on */
  uint32_t ticket;     /* semaphore: 1 = handed off; notify list: the ticket */
  unsigned char *elem; /* heap buffer: the value sent or received */
  size_t elem_capacity;
  struct llgo_waiter *pool_next;
  struct llgo_waiter *all_next; /* every waiter ever made (they are pooled, never freed) */
  int in_use;                   /* acquired and not released */
} llgo_waiter;

/* A FIFO of waiters (Go's waitq). */
typedef struct llgo_wait_queue {
  llgo_waiter *first, *last;
} llgo_wait_queue;

/* Under the lock: a cleared waiter for the current goroutine with room for an
 * element of elem_size bytes (pooled; out of memory is fatal). */
llgo_waiter *llgo_waiter_acquire(size_t elem_size);
/* Under the lock: back to the pool. */
void llgo_waiter_release(llgo_waiter *w);

void llgo_wait_queue_push(llgo_wait_queue *q, llgo_waiter *w);
/* Removes and returns the first waiter that can still be woken: a waiter of a
 * select that another case already won is dropped, and taking a select's waiter
 * marks its select done (Go's waitq.dequeue). NULL if none. */
llgo_waiter *llgo_wait_queue_pop(llgo_wait_queue *q);
/* Removes `w` if it is still queued (Go's dequeueSudoG). */
void llgo_wait_queue_remove(llgo_wait_queue *q, llgo_waiter *w);

/* Marks `w` as the one that woke its goroutine (the winner, for a select) and
 * returns the goroutine to llgo_ready once the lock is released. */
llgo_g *llgo_waiter_wake(llgo_waiter *w, int success);

/* The running goroutine; fatal outside one ("<operation> called outside a goroutine"). */
llgo_g *llgo_current_g_or_die(const char *operation);

/* Parks the current goroutine for good (a nil channel, an empty select). */
_Noreturn void llgo_block_forever(const char *operation);

/* ---- implemented by the backend (blocking_single.c, blocking_pthread.c) ---- */

void llgo_runtime_lock(void);
void llgo_runtime_unlock(void);
/* Under the lock: lets the other threads have it for a moment and takes it back
 * (pthread: unlock, sched_yield, lock). Nothing else runs on the single worker,
 * so a wait built on it could never end there: it is fatal. */
void llgo_runtime_lock_yield(void);
/* Releases the lock and parks the current goroutine until llgo_ready. */
void llgo_park_unlock(void);

/* Called (under the lock) by timer.c: the earliest deadline may have moved
 * earlier, and the timers went from none pending (heap, lane and Sleeps not
 * yet stamped, timer.c) to some or back. */
void llgo_timers_changed(void);
void llgo_timers_pending_changed(int pending);
/* Fires timers that are due, if any are pending (single worker: called at the
 * start of channel, select and semaphore operations, so timers fire while
 * goroutines keep the worker busy, and the scheduler's idle hook waits for the
 * rest; pthread backend: nothing, a thread does it). Not under the lock. */
void llgo_timers_poll(void);
/* Whether llgo_sleep leaves its deadline to the next clock reading (single
 * worker: 1; see timer.c, "Sleep") or reads the clock itself (pthread: 0). */
int llgo_sleep_defers_deadline(void);

/* Pthread backend only (proc_pthread.c): one more / one fewer running
 * goroutine for deadlock detection; the release that leaves none is fatal. */
void llgo_pthread_hold_activity(void);
void llgo_pthread_release_activity(void);

/* ---- the single worker's idle wait ----
 *
 * One hook (blocking_single.c) and one platform function (idle_wait_*.c): when
 * nothing is runnable and no timer is due, the hook calls
 * llgo_platform_idle_wait with the time until the next timer (-1: none). The
 * platform waits up to that long for the timer or a host event (P1: one
 * poll_oneoff with a relative clock and the fd subscriptions of
 * llgo_wait_readable; native: clock_nanosleep, or poll with fds), readying the
 * goroutines whose event arrived, or asks the host loop to return to the host's
 * event loop (J32/J64), which re-enters it on the timer or a host event; or it
 * says nothing is pending, which is a deadlock. */
typedef enum llgo_idle_wait_result {
  LLGO_IDLE_WAITED,          /* waited up to the timeout; host events may have readied goroutines */
  LLGO_IDLE_RETURN_TO_HOST,  /* llgo_sched_run must return: the host re-enters it */
  LLGO_IDLE_NOTHING_PENDING  /* no timer and no host wait: nothing can ever ready a goroutine */
} llgo_idle_wait_result;
llgo_idle_wait_result llgo_platform_idle_wait(int64_t timeout_ns);
/* A host wait begins (single worker): installs the idle hook if no timer did. */
void llgo_idle_hook_needed(void);

/* ---- timer.c, for the backends ---- */

/* Under the lock: the earliest deadline, or -1 if no timer is pending, or 0
 * while a Sleep waits for its deadline (check the clock now: reading it with
 * llgo_timers_stamp or llgo_timers_run_due gives the deadline). */
int64_t llgo_timers_earliest(void);
/* Not under the lock: gives every Sleep started since the last clock reading
 * its deadline, now + its duration. */
void llgo_timers_stamp(int64_t now);
/* Not under the lock: stamps (as above), then runs every timer due at `now`;
 * returns how many fired. */
int llgo_timers_run_due(int64_t now);

/* ---- what the runtime holds for the program, for llgo_gc_for_each_root (gc_roots.c) ---- */

/* The element buffer of every waiter in use: a blocked sender's value, a woken receiver's. */
void llgo_waiter_gc_roots(llgo_gc_root_fn fn, void *ctx);
/* The arguments of every timer not freed (its function's, AfterFunc's goroutine's). */
void llgo_timer_gc_roots(llgo_gc_root_fn fn, void *ctx);
/* Implemented by the selected idle_wait_*.c: what the host side holds (J32/J64: the host
 * callbacks' arguments; elsewhere nothing). */
void llgo_platform_gc_roots(llgo_gc_root_fn fn, void *ctx);

/* ---- fastrand.c ---- */

/* Go's fastrandn: uniform in [0, n), from a per-thread generator seeded per
 * process from the system's entropy. */
uint32_t llgo_fastrandn(uint32_t n);

#endif /* LLGO_BLOCKING_H */
