//llgo:build llgo
/*
 * select.c - the select statement (Go's selectgo, runtime/select.go of Go 1.19).
 *
 * 1. Shuffle the cases with a live channel into a random poll order (Go's
 *    fastrandn Fisher-Yates), so that among ready cases each is equally likely.
 * 2. Under the runtime lock, take the first case in that order that can proceed.
 * 3. None ready: return -1 if there is a default, else queue one waiter per case
 *    on its channel (send cases carry a heap copy of their value) and park. The
 *    first case to become ready marks the select done (the first waiter is its
 *    leader) and wakes it; the select then removes its other waiters and copies
 *    a received value from the winning waiter into the caller's variable.
 * Limits: the poll order of more than 64 cases is allocated on the heap.
 */
#include "chan.h"
#include "runtime_alloc.h"

#include <stdlib.h>
#include <string.h>

#define SELECT_STACK_CASES 64

/* Pass 1: the case proceeds if it can. Returns 1 if it did, with the goroutine
 * to ready (if any) in *wake and the receive's ok in *received; 0 if it cannot;
 * SEND_ON_CLOSED for a send case on a closed channel. */
#define SEND_ON_CLOSED 2
static int try_case(const llgo_select_case *cas, llgo_g **wake, int *received) {
  llgo_chan *c = cas->chan;
  if (cas->dir == LLGO_SELECT_RECV) {
    llgo_waiter *sender = c->closed ? NULL : llgo_wait_queue_pop(&c->sendq);
    if (sender != NULL) {
      *wake = llgo_chan_recv_from_waiter(c, sender, cas->elem);
      *received = 1;
      return 1;
    }
    if (c->qcount > 0) {
      llgo_chan_buffer_take(c, cas->elem);
      *received = 1;
      return 1;
    }
    if (c->closed) {
      llgo_chan_clear(c, cas->elem);
      *received = 0;
      return 1;
    }
    return 0;
  }
  if (c->closed) {
    return SEND_ON_CLOSED;
  }
  llgo_waiter *receiver = llgo_wait_queue_pop(&c->recvq);
  if (receiver != NULL) {
    *wake = llgo_chan_send_to_waiter(c, receiver, cas->elem);
    return 1;
  }
  if (c->qcount < c->dataqsiz) {
    llgo_chan_buffer_put(c, cas->elem);
    return 1;
  }
  return 0;
}

static llgo_wait_queue *queue_of(const llgo_select_case *cas) {
  return cas->dir == LLGO_SELECT_RECV ? &cas->chan->recvq : &cas->chan->sendq;
}

/*
 * Like the channel operations (chan.c), llgo_select keeps only what runs around
 * its park; every step is an out-of-line function that never parks, so Asyncify
 * leaves it alone and a parked select has a small frame. The steps report a
 * case and its receive's ok as one number: case * 2 + ok.
 */
#define SELECT_WAIT (-2)           /* nothing ready: queue and park (the lock is held) */
#define SELECT_NOTHING_LIVE (-3)   /* no live case and no default: block forever */
#define SELECT_CLOSED_SEND (-4)    /* a send case's channel is closed: panic */

/* Pass 1 and 2 (see the top). Returns a case * 2 + ok, -1 (default), or one of
 * the SELECT_ outcomes above. */
static LLGO_CHAN_STEP int select_now(const llgo_select_case *cases, size_t count, int block) {
  llgo_timers_poll();
  size_t stack_order[SELECT_STACK_CASES];
  size_t *order = stack_order;
  if (count > SELECT_STACK_CASES) {
    order = llgo_runtime_alloc(count * sizeof *order);
    if (order == NULL) {
      llgo_fatal("out of memory allocating a select's poll order");
    }
  }
  size_t live = 0;
  for (size_t i = 0; i < count; i++) {
    if (cases[i].dir != LLGO_SELECT_SEND && cases[i].dir != LLGO_SELECT_RECV) {
      llgo_fatalf("llgo_select: case %zu has direction %d (use LLGO_SELECT_SEND or LLGO_SELECT_RECV)",
                  i, (int)cases[i].dir);
    }
    if (cases[i].chan == NULL) {
      continue; /* a nil channel's case is never ready */
    }
    size_t j = llgo_fastrandn((uint32_t)(live + 1));
    order[live] = order[j];
    order[j] = i;
    live++;
  }

  int chosen = -1;
  int received = 0;
  llgo_g *wake = NULL;
  llgo_runtime_lock();
  int outcome = 0;
  for (size_t n = 0; n < live && outcome == 0; n++) {
    outcome = try_case(&cases[order[n]], &wake, &received);
    chosen = (int)order[n];
  }
  if (order != stack_order) {
    llgo_runtime_free(order);
  }
  if (outcome == SEND_ON_CLOSED) {
    llgo_runtime_unlock();
    return SELECT_CLOSED_SEND;
  }
  if (outcome == 1) {
    llgo_runtime_unlock();
    if (wake != NULL) {
      llgo_ready(wake);
    }
    return chosen * 2 + received;
  }
  if (!block) {
    llgo_runtime_unlock();
    return -1;
  }
  if (live == 0) {
    llgo_runtime_unlock();
    return SELECT_NOTHING_LIVE;
  }
  return SELECT_WAIT;
}

/* Pass 3, under the lock: one waiter per live case, queued on its channel;
 * returns the first (the select's leader). */
static LLGO_CHAN_STEP llgo_waiter *select_queue_all(const llgo_select_case *cases, size_t count) {
  llgo_current_g_or_die("llgo_select");
  llgo_waiter *leader = NULL, *last = NULL;
  for (size_t k = 0; k < count; k++) {
    const llgo_select_case *cas = &cases[k];
    if (cas->chan == NULL) {
      continue;
    }
    llgo_waiter *w = llgo_waiter_acquire(cas->chan->elemsize);
    if (cas->dir == LLGO_SELECT_SEND) {
      llgo_chan_copy(cas->chan, w->elem, cas->elem); /* to the heap before we park */
    }
    w->chan = cas->chan;
    w->case_index = (int)k;
    if (leader == NULL) {
      leader = w;
    } else {
      last->select_next = w;
    }
    w->select_leader = leader;
    last = w;
    llgo_wait_queue_push(queue_of(cas), w);
  }
  return leader;
}

/* Woken: removes the losing waiters and takes the winner's value. Returns the
 * winning case * 2 + ok, or SELECT_CLOSED_SEND. */
static LLGO_CHAN_STEP int select_woken(const llgo_select_case *cases, llgo_waiter *leader) {
  llgo_runtime_lock();
  llgo_waiter *winner = leader->winner;
  if (winner == NULL) {
    llgo_fatal("select: woken without a winning case");
  }
  for (llgo_waiter *w = leader; w != NULL; w = w->select_next) {
    if (w != winner) {
      llgo_wait_queue_remove(queue_of(&cases[w->case_index]), w);
    }
  }
  const llgo_select_case *won = &cases[winner->case_index];
  int index = winner->case_index;
  int success = winner->success;
  if (won->dir == LLGO_SELECT_RECV) {
    /* Our own stack again: copy the value out of the waiter. */
    if (success) {
      llgo_chan_copy(won->chan, won->elem, winner->elem);
    } else {
      llgo_chan_clear(won->chan, won->elem);
    }
  }
  for (llgo_waiter *w = leader; w != NULL;) {
    llgo_waiter *next = w->select_next;
    llgo_waiter_release(w);
    w = next;
  }
  llgo_runtime_unlock();
  if (won->dir == LLGO_SELECT_SEND && !success) {
    return SELECT_CLOSED_SEND;
  }
  return index * 2 + success;
}

int llgo_select(const llgo_select_case *cases, size_t count, int block, int *recv_ok) {
  if (recv_ok != NULL) {
    *recv_ok = 0;
  }
  int outcome = select_now(cases, count, block);
  if (outcome == SELECT_WAIT) {
    llgo_waiter *leader = select_queue_all(cases, count);
    llgo_park_unlock();
    outcome = select_woken(cases, leader);
  }
  if (outcome == SELECT_CLOSED_SEND) {
    llgo_chan_panic_closed_send();
  }
  if (outcome == SELECT_NOTHING_LIVE) {
    llgo_block_forever("llgo_select");
  }
  if (outcome == -1) {
    return -1;
  }
  int chosen = outcome >> 1;
  if (recv_ok != NULL && cases[chosen].dir == LLGO_SELECT_RECV) {
    *recv_ok = outcome & 1;
  }
  return chosen;
}
