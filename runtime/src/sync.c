//llgo:build llgo
/*
 * sync.c - Mutex, RWMutex, WaitGroup, Once and Cond of Go 1.19's package sync,
 * ported line by line onto the runtime's semaphores and notify lists (sema.c).
 *
 * The state words are updated with atomics, as in Go, so the same code is right
 * on the pthread backend (goroutines are threads) and on the single worker. The
 * mutex never spins (Go spins only with several Ps and a running one to wait
 * for), so a contended Lock parks at once. Misuse is fatal with Go's messages.
 */
#include "blocking.h"

#define SEQ __ATOMIC_SEQ_CST

/* ---- Mutex ---- */

enum {
  MUTEX_LOCKED = 1,
  MUTEX_WOKEN = 2,
  MUTEX_STARVING = 4,
  MUTEX_WAITER_SHIFT = 3,
};
/* A waiter that waited longer than this switches the mutex to starvation mode:
 * ownership then passes directly from Unlock to the first waiter. */
#define STARVATION_THRESHOLD_NS ((int64_t)1000000)

static int cas32(int32_t *addr, int32_t old, int32_t new_value) {
  return __atomic_compare_exchange_n(addr, &old, new_value, 0, SEQ, SEQ);
}

static void mutex_lock_slow(llgo_mutex *m) {
  int64_t wait_start = 0;
  int starving = 0;
  int awoke = 0;
  int32_t old = __atomic_load_n(&m->state, SEQ);
  for (;;) {
    int32_t new_state = old;
    /* Don't try to acquire a starving mutex: new arrivals queue. */
    if ((old & MUTEX_STARVING) == 0) {
      new_state |= MUTEX_LOCKED;
    }
    if ((old & (MUTEX_LOCKED | MUTEX_STARVING)) != 0) {
      new_state += 1 << MUTEX_WAITER_SHIFT;
    }
    if (starving && (old & MUTEX_LOCKED) != 0) {
      new_state |= MUTEX_STARVING;
    }
    if (awoke) {
      if ((new_state & MUTEX_WOKEN) == 0) {
        llgo_fatal("sync: inconsistent mutex state");
      }
      new_state &= ~MUTEX_WOKEN;
    }
    if (cas32(&m->state, old, new_state)) {
      if ((old & (MUTEX_LOCKED | MUTEX_STARVING)) == 0) {
        break; /* locked with the CAS */
      }
      int queue_lifo = wait_start != 0;
      if (wait_start == 0) {
        wait_start = llgo_nanotime();
      }
      llgo_semacquire_mutex(&m->sema, queue_lifo);
      starving = starving || llgo_nanotime() - wait_start > STARVATION_THRESHOLD_NS;
      old = __atomic_load_n(&m->state, SEQ);
      if ((old & MUTEX_STARVING) != 0) {
        /* Handed off to us in starvation mode. */
        if ((old & (MUTEX_LOCKED | MUTEX_WOKEN)) != 0 || (old >> MUTEX_WAITER_SHIFT) == 0) {
          llgo_fatal("sync: inconsistent mutex state");
        }
        int32_t delta = MUTEX_LOCKED - (1 << MUTEX_WAITER_SHIFT);
        if (!starving || (old >> MUTEX_WAITER_SHIFT) == 1) {
          delta -= MUTEX_STARVING; /* leave starvation mode */
        }
        __atomic_add_fetch(&m->state, delta, SEQ);
        break;
      }
      awoke = 1;
    } else {
      old = __atomic_load_n(&m->state, SEQ);
    }
  }
}

void llgo_mutex_lock(llgo_mutex *m) {
  if (cas32(&m->state, 0, MUTEX_LOCKED)) {
    return;
  }
  mutex_lock_slow(m);
}

int llgo_mutex_try_lock(llgo_mutex *m) {
  int32_t old = __atomic_load_n(&m->state, SEQ);
  if ((old & (MUTEX_LOCKED | MUTEX_STARVING)) != 0) {
    return 0;
  }
  return cas32(&m->state, old, old | MUTEX_LOCKED);
}

static void mutex_unlock_slow(llgo_mutex *m, int32_t new_state) {
  if (((new_state + MUTEX_LOCKED) & MUTEX_LOCKED) == 0) {
    llgo_fatal("sync: unlock of unlocked mutex");
  }
  if ((new_state & MUTEX_STARVING) != 0) {
    llgo_semrelease(&m->sema, 1); /* hand ownership to the first waiter */
    return;
  }
  int32_t old = new_state;
  for (;;) {
    /* Nobody to wake, or someone already woke/locked it. */
    if ((old >> MUTEX_WAITER_SHIFT) == 0 || (old & (MUTEX_LOCKED | MUTEX_WOKEN | MUTEX_STARVING)) != 0) {
      return;
    }
    int32_t woken = (old - (1 << MUTEX_WAITER_SHIFT)) | MUTEX_WOKEN;
    if (cas32(&m->state, old, woken)) {
      llgo_semrelease(&m->sema, 0);
      return;
    }
    old = __atomic_load_n(&m->state, SEQ);
  }
}

void llgo_mutex_unlock(llgo_mutex *m) {
  int32_t new_state = __atomic_add_fetch(&m->state, -MUTEX_LOCKED, SEQ);
  if (new_state != 0) {
    mutex_unlock_slow(m, new_state);
  }
}

/* ---- RWMutex ---- */

#define RWMUTEX_MAX_READERS ((int32_t)1 << 30)

void llgo_rwmutex_rlock(llgo_rwmutex *rw) {
  if (__atomic_add_fetch(&rw->reader_count, 1, SEQ) < 0) {
    llgo_semacquire_mutex(&rw->reader_sem, 0); /* a writer is pending: wait for it */
  }
}

int llgo_rwmutex_try_rlock(llgo_rwmutex *rw) {
  for (;;) {
    int32_t count = __atomic_load_n(&rw->reader_count, SEQ);
    if (count < 0) {
      return 0;
    }
    if (cas32(&rw->reader_count, count, count + 1)) {
      return 1;
    }
  }
}

void llgo_rwmutex_runlock(llgo_rwmutex *rw) {
  int32_t r = __atomic_add_fetch(&rw->reader_count, -1, SEQ);
  if (r >= 0) {
    return;
  }
  if (r + 1 == 0 || r + 1 == -RWMUTEX_MAX_READERS) {
    llgo_fatal("sync: RUnlock of unlocked RWMutex");
  }
  if (__atomic_add_fetch(&rw->reader_wait, -1, SEQ) == 0) {
    llgo_semrelease(&rw->writer_sem, 0); /* the last reader lets the writer in */
  }
}

void llgo_rwmutex_lock(llgo_rwmutex *rw) {
  llgo_mutex_lock(&rw->w); /* first, exclude other writers */
  /* Announce the writer to readers, then wait for the active ones. */
  int32_t r = __atomic_add_fetch(&rw->reader_count, -RWMUTEX_MAX_READERS, SEQ) + RWMUTEX_MAX_READERS;
  if (r != 0 && __atomic_add_fetch(&rw->reader_wait, r, SEQ) != 0) {
    llgo_semacquire_mutex(&rw->writer_sem, 0);
  }
}

int llgo_rwmutex_try_lock(llgo_rwmutex *rw) {
  if (!llgo_mutex_try_lock(&rw->w)) {
    return 0;
  }
  if (!cas32(&rw->reader_count, 0, -RWMUTEX_MAX_READERS)) {
    llgo_mutex_unlock(&rw->w);
    return 0;
  }
  return 1;
}

void llgo_rwmutex_unlock(llgo_rwmutex *rw) {
  int32_t r = __atomic_add_fetch(&rw->reader_count, RWMUTEX_MAX_READERS, SEQ);
  if (r >= RWMUTEX_MAX_READERS) {
    llgo_fatal("sync: Unlock of unlocked RWMutex");
  }
  for (int32_t i = 0; i < r; i++) {
    llgo_semrelease(&rw->reader_sem, 0); /* unblock the readers that queued */
  }
  llgo_mutex_unlock(&rw->w);
}

/* ---- WaitGroup ---- */

void llgo_waitgroup_add(llgo_waitgroup *wg, int delta) {
  uint64_t state = __atomic_add_fetch(&wg->state, (uint64_t)(int64_t)delta << 32, SEQ);
  int32_t counter = (int32_t)(state >> 32);
  uint32_t waiters = (uint32_t)state;
  if (counter < 0) {
    llgo_panic("sync: negative WaitGroup counter");
  }
  if (waiters != 0 && delta > 0 && counter == delta) {
    llgo_panic("sync: WaitGroup misuse: Add called concurrently with Wait");
  }
  if (counter > 0 || waiters == 0) {
    return;
  }
  /* The counter reached 0 with waiters: nothing else may change the state now. */
  if (__atomic_load_n(&wg->state, SEQ) != state) {
    llgo_panic("sync: WaitGroup misuse: Add called concurrently with Wait");
  }
  __atomic_store_n(&wg->state, 0, SEQ);
  for (; waiters != 0; waiters--) {
    llgo_semrelease(&wg->sema, 0);
  }
}

void llgo_waitgroup_done(llgo_waitgroup *wg) { llgo_waitgroup_add(wg, -1); }

void llgo_waitgroup_wait(llgo_waitgroup *wg) {
  for (;;) {
    uint64_t state = __atomic_load_n(&wg->state, SEQ);
    if ((int32_t)(state >> 32) == 0) {
      return;
    }
    if (__atomic_compare_exchange_n(&wg->state, &state, state + 1, 0, SEQ, SEQ)) {
      llgo_semacquire(&wg->sema);
      if (__atomic_load_n(&wg->state, SEQ) != 0) {
        llgo_panic("sync: WaitGroup is reused before previous Wait has returned");
      }
      return;
    }
  }
}

/* ---- Once ---- */

static void once_unlock(void *mutex) { llgo_mutex_unlock(mutex); }

static void once_mark_done(void *once) {
  __atomic_store_n(&((llgo_once *)once)->done, 1, SEQ);
}

static void once_do_slow(llgo_once *o, void (*fn)(void *arg), void *arg) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_mutex_lock(&o->m);
    llgo_defer(&frame, once_unlock, &o->m);
    if (__atomic_load_n(&o->done, SEQ) == 0) {
      /* Done even if fn panics: a deferred store, as in Go. */
      llgo_defer(&frame, once_mark_done, o);
      fn(arg);
    }
  }
  llgo_defer_end(&frame);
}

void llgo_once_do(llgo_once *o, void (*fn)(void *arg), void *arg) {
  if (__atomic_load_n(&o->done, SEQ) == 0) {
    once_do_slow(o, fn, arg);
  }
}

/* ---- Cond ---- */

void llgo_cond_wait(llgo_cond *c) {
  uint32_t ticket = llgo_notify_list_add(&c->notify);
  llgo_mutex_unlock(c->L);
  llgo_notify_list_wait(&c->notify, ticket);
  llgo_mutex_lock(c->L);
}

void llgo_cond_signal(llgo_cond *c) { llgo_notify_list_notify_one(&c->notify); }

void llgo_cond_broadcast(llgo_cond *c) { llgo_notify_list_notify_all(&c->notify); }
