//llgo:build llgo
/*
 * sema.c - semaphores and notify lists (Go's runtime/sema.go of Go 1.19), the
 * parking primitives package sync is built on.
 *
 * Semaphores: the count lives in the caller's uint32_t; goroutines waiting on
 * an address queue in one of 251 roots chosen by the address (Go's semtable).
 * A root is a FIFO list of waiters of every address that hashes to it (Go keeps
 * a treap of addresses; a list is enough for the few addresses a root sees).
 * `nwait` lets a release skip the lock when nobody waits. With handoff, a
 * release gives the count straight to the first waiter (ticket = 1) and yields,
 * so a starving mutex waiter cannot be overtaken.
 *
 * Notify lists: tickets (Go's notifyList) - a waiter takes a ticket before it
 * unlocks the user's lock, so a notify between the two is never lost.
 */
#include "blocking.h"

#define SEMA_TABLE_SIZE 251

typedef struct sema_root {
  llgo_wait_queue waiters;
  uint32_t nwait; /* waiters (atomic: read without the lock) */
} sema_root;

static sema_root sema_table[SEMA_TABLE_SIZE];

static sema_root *root_of(const uint32_t *addr) {
  return &sema_table[((uintptr_t)addr >> 3) % SEMA_TABLE_SIZE];
}

static int can_acquire(uint32_t *addr) {
  for (;;) {
    uint32_t value = __atomic_load_n(addr, __ATOMIC_SEQ_CST);
    if (value == 0) {
      return 0;
    }
    if (__atomic_compare_exchange_n(addr, &value, value - 1, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST)) {
      return 1;
    }
  }
}

/* Queues `w` behind the waiters of its address (FIFO), or in front of them (lifo). */
static void root_queue(sema_root *root, llgo_waiter *w, int lifo) {
  if (lifo) {
    for (llgo_waiter *other = root->waiters.first; other != NULL; other = other->next) {
      if (other->sema_addr == w->sema_addr) {
        w->prev = other->prev;
        w->next = other;
        if (other->prev != NULL) {
          other->prev->next = w;
        } else {
          root->waiters.first = w;
        }
        other->prev = w;
        return;
      }
    }
  }
  llgo_wait_queue_push(&root->waiters, w);
}

static llgo_waiter *root_dequeue(sema_root *root, const uint32_t *addr) {
  for (llgo_waiter *w = root->waiters.first; w != NULL; w = w->next) {
    if (w->sema_addr == addr) {
      llgo_wait_queue_remove(&root->waiters, w);
      return w;
    }
  }
  return NULL;
}

static void semacquire(uint32_t *addr, int lifo, const char *operation) {
  if (can_acquire(addr)) {
    return;
  }
  llgo_timers_poll();
  llgo_current_g_or_die(operation);
  sema_root *root = root_of(addr);
  llgo_runtime_lock();
  llgo_waiter *self = llgo_waiter_acquire(0);
  self->sema_addr = addr;
  for (;;) {
    /* Count ourselves first, so a release after the check below sees us. */
    __atomic_add_fetch(&root->nwait, 1, __ATOMIC_SEQ_CST);
    if (can_acquire(addr)) {
      __atomic_sub_fetch(&root->nwait, 1, __ATOMIC_SEQ_CST);
      break;
    }
    root_queue(root, self, lifo);
    llgo_park_unlock();
    if (self->ticket != 0 || can_acquire(addr)) {
      llgo_runtime_lock();
      break;
    }
    llgo_runtime_lock();
  }
  llgo_waiter_release(self);
  llgo_runtime_unlock();
}

void llgo_semacquire(uint32_t *addr) { semacquire(addr, 0, "llgo_semacquire"); }

void llgo_semacquire_mutex(uint32_t *addr, int lifo) {
  semacquire(addr, lifo, "llgo_semacquire_mutex");
}

void llgo_semrelease(uint32_t *addr, int handoff) {
  sema_root *root = root_of(addr);
  __atomic_add_fetch(addr, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&root->nwait, __ATOMIC_SEQ_CST) == 0) {
    return; /* nobody waits (the easy case) */
  }
  llgo_runtime_lock();
  if (__atomic_load_n(&root->nwait, __ATOMIC_SEQ_CST) == 0) {
    llgo_runtime_unlock();
    return;
  }
  llgo_waiter *w = root_dequeue(root, addr);
  if (w != NULL) {
    __atomic_sub_fetch(&root->nwait, 1, __ATOMIC_SEQ_CST);
  }
  llgo_runtime_unlock();
  if (w == NULL) {
    return;
  }
  if (w->ticket != 0) {
    llgo_fatal("corrupted semaphore ticket");
  }
  /* The waiter is parked (or about to park) until we ready it: it reads its
   * ticket only after that. */
  int handed_off = handoff && can_acquire(addr);
  if (handed_off) {
    w->ticket = 1;
  }
  llgo_ready(w->g);
  if (handed_off && llgo_current_g() != NULL) {
    llgo_gosched(); /* let the waiter run (Go's direct handoff) */
  }
}

/* ---- notify lists ---- */

/* a < b in ticket order, with wrap-around (Go's less). */
static int ticket_less(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

uint32_t llgo_notify_list_add(llgo_notify_list *l) {
  return __atomic_fetch_add(&l->wait, 1, __ATOMIC_SEQ_CST);
}

void llgo_notify_list_wait(llgo_notify_list *l, uint32_t ticket) {
  llgo_current_g_or_die("llgo_notify_list_wait");
  llgo_runtime_lock();
  if (ticket_less(ticket, __atomic_load_n(&l->notify, __ATOMIC_SEQ_CST))) {
    llgo_runtime_unlock(); /* already notified */
    return;
  }
  llgo_waiter *self = llgo_waiter_acquire(0);
  self->ticket = ticket;
  if (l->tail == NULL) {
    l->head = self;
  } else {
    l->tail->next = self;
  }
  l->tail = self;
  llgo_park_unlock();
  llgo_runtime_lock();
  llgo_waiter_release(self);
  llgo_runtime_unlock();
}

void llgo_notify_list_notify_all(llgo_notify_list *l) {
  if (__atomic_load_n(&l->wait, __ATOMIC_SEQ_CST) == __atomic_load_n(&l->notify, __ATOMIC_SEQ_CST)) {
    return;
  }
  llgo_runtime_lock();
  llgo_waiter *w = l->head;
  l->head = NULL;
  l->tail = NULL;
  __atomic_store_n(&l->notify, __atomic_load_n(&l->wait, __ATOMIC_SEQ_CST), __ATOMIC_SEQ_CST);
  llgo_runtime_unlock();
  while (w != NULL) {
    llgo_waiter *next = w->next; /* read before the ready: the waiter may go at once */
    w->next = NULL;
    llgo_ready(w->g);
    w = next;
  }
}

void llgo_notify_list_notify_one(llgo_notify_list *l) {
  if (__atomic_load_n(&l->wait, __ATOMIC_SEQ_CST) == __atomic_load_n(&l->notify, __ATOMIC_SEQ_CST)) {
    return;
  }
  llgo_runtime_lock();
  uint32_t ticket = l->notify;
  if (ticket == __atomic_load_n(&l->wait, __ATOMIC_SEQ_CST)) {
    llgo_runtime_unlock();
    return;
  }
  __atomic_store_n(&l->notify, ticket + 1, __ATOMIC_SEQ_CST);
  /* The waiter with this ticket may not have queued yet: then its wait sees
   * the ticket notified and returns at once. */
  for (llgo_waiter *previous = NULL, *w = l->head; w != NULL; previous = w, w = w->next) {
    if (w->ticket == ticket) {
      llgo_waiter *next = w->next;
      if (previous != NULL) {
        previous->next = next;
      } else {
        l->head = next;
      }
      if (l->tail == w) {
        l->tail = previous;
      }
      w->next = NULL;
      llgo_g *wake = w->g;
      llgo_runtime_unlock();
      llgo_ready(wake);
      return;
    }
  }
  llgo_runtime_unlock();
}
