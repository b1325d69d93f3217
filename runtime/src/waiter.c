//llgo:build llgo
/*
 * waiter.c - waiter records (Go's sudog) and wait queues (Go's waitq), shared by
 * channels, select, semaphores and notify lists (see blocking.h).
 *
 * Waiters are pooled: a released record keeps its element buffer, so a steady
 * state of blocking operations allocates nothing. The pool keeps as many records
 * as were ever in use at once. Everything here runs under the runtime lock.
 */
#include "blocking.h"
#include "runtime_alloc.h"

#include <stdlib.h>
#include <string.h>

static llgo_waiter *waiter_pool;
static llgo_waiter *all_waiters; /* every waiter ever made, for llgo_waiter_gc_roots */

void llgo_waiter_gc_roots(llgo_gc_root_fn fn, void *ctx) {
  for (llgo_waiter *w = all_waiters; w != NULL; w = w->all_next) {
    if (w->in_use && w->elem != NULL) {
      fn(w->elem, w->elem + w->elem_capacity, ctx);
    }
  }
}

llgo_g *llgo_current_g_or_die(const char *operation) {
  llgo_g *g = llgo_current_g();
  if (g == NULL) {
    llgo_fatalf("%s called outside a goroutine (run the program through llgo_run_main)",
                operation);
  }
  return g;
}

_Noreturn void llgo_block_forever(const char *operation) {
  llgo_current_g_or_die(operation);
  llgo_park(); /* nobody can ready it: a deadlock or the end of main ends this */
  llgo_fatalf("%s: a goroutine blocked forever was woken", operation);
}

llgo_waiter *llgo_waiter_acquire(size_t elem_size) {
  llgo_waiter *w = waiter_pool;
  unsigned char *elem = NULL;
  size_t capacity = 0;
  if (w != NULL) {
    waiter_pool = w->pool_next;
    elem = w->elem;
    capacity = w->elem_capacity;
  } else {
    w = llgo_runtime_alloc(sizeof *w);
    if (w == NULL) {
      llgo_fatal("out of memory allocating a waiter");
    }
    w->all_next = all_waiters;
    all_waiters = w;
  }
  if (elem_size > capacity) {
    llgo_runtime_free(elem);
    elem = llgo_runtime_alloc(elem_size);
    if (elem == NULL) {
      llgo_fatal("out of memory allocating a waiter's element buffer");
    }
    capacity = elem_size;
  }
  llgo_waiter *all_next = w->all_next;
  memset(w, 0, sizeof *w);
  w->all_next = all_next;
  w->in_use = 1;
  w->elem = elem;
  w->elem_capacity = capacity;
  w->g = llgo_current_g();
  return w;
}

void llgo_waiter_release(llgo_waiter *w) {
  w->in_use = 0;
  w->pool_next = waiter_pool;
  waiter_pool = w;
}

void llgo_wait_queue_push(llgo_wait_queue *q, llgo_waiter *w) {
  w->next = NULL;
  w->prev = q->last;
  if (q->last != NULL) {
    q->last->next = w;
  } else {
    q->first = w;
  }
  q->last = w;
}

llgo_waiter *llgo_wait_queue_pop(llgo_wait_queue *q) {
  for (;;) {
    llgo_waiter *w = q->first;
    if (w == NULL) {
      return NULL;
    }
    q->first = w->next;
    if (q->first != NULL) {
      q->first->prev = NULL;
    } else {
      q->last = NULL;
    }
    w->next = NULL;
    w->prev = NULL;
    if (w->select_leader != NULL) {
      if (w->select_leader->select_done) {
        continue; /* another case of its select won; the select removes the rest */
      }
      w->select_leader->select_done = 1;
    }
    return w;
  }
}

void llgo_wait_queue_remove(llgo_wait_queue *q, llgo_waiter *w) {
  llgo_waiter *before = w->prev;
  llgo_waiter *after = w->next;
  if (before != NULL) {
    before->next = after;
  } else if (q->first == w) {
    q->first = after;
  } else {
    return; /* not queued (already popped) */
  }
  if (after != NULL) {
    after->prev = before;
  } else {
    q->last = before;
  }
  w->next = NULL;
  w->prev = NULL;
}

llgo_g *llgo_waiter_wake(llgo_waiter *w, int success) {
  w->success = success;
  if (w->select_leader != NULL) {
    w->select_leader->winner = w;
  }
  return w->g;
}
