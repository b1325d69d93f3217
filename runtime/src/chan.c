//llgo:build llgo
/*
 * chan.c - channels with Go's semantics (runtime/chan.go of Go 1.19): a ring
 * buffer plus FIFO queues of parked receivers and senders, under the runtime
 * lock (blocking.h).
 *
 * Values never cross goroutine stacks: a blocked sender copies its value into
 * its heap waiter before parking, a sender that finds a parked receiver copies
 * the value into the receiver's waiter, and a woken receiver copies it from
 * there into its own variable. The nil channel blocks forever; sending on or
 * closing a closed channel panics; a closed, drained channel yields zero values.
 * Every channel not freed is in one list, so that a collector finds the values in its buffer
 * (llgo_chan_gc_roots; docs/gc.md). Elements are plain bytes, scanned conservatively.
 */
#include "chan.h"
#include "runtime_alloc.h"

#include <stdlib.h>
#include <string.h>

#define LLGO_CHAN_MAX_ELEM_SIZE ((size_t)1 << 16)

void llgo_chan_copy(const llgo_chan *c, void *to, const void *from) {
  if (c->elemsize != 0 && to != NULL) {
    memcpy(to, from, c->elemsize);
  }
}

void llgo_chan_clear(const llgo_chan *c, void *elem) {
  if (c->elemsize != 0 && elem != NULL) {
    memset(elem, 0, c->elemsize);
  }
}

/* Every channel not freed: their buffers hold program values (llgo_chan_gc_roots). */
static llgo_chan *all_channels;

void llgo_chan_gc_roots(llgo_gc_root_fn fn, void *ctx) {
  for (llgo_chan *c = all_channels; c != NULL; c = c->all_next) {
    if (c->dataqsiz != 0 && c->elemsize != 0) {
      fn(c->buf, c->buf + c->dataqsiz * c->elemsize, ctx);
    }
  }
}

static unsigned char *slot(const llgo_chan *c, size_t index) {
  return c->buf + index * c->elemsize;
}

llgo_chan *llgo_chan_make(size_t elem_size, size_t capacity) {
  if (elem_size >= LLGO_CHAN_MAX_ELEM_SIZE) {
    llgo_fatal("makechan: invalid channel element type");
  }
  if (elem_size != 0 && capacity > ((size_t)PTRDIFF_MAX - sizeof(llgo_chan)) / elem_size) {
    llgo_panic("makechan: size out of range");
  }
  size_t buffer_bytes = elem_size * capacity;
  /* One block: the record, then the buffer (Go does the same for pointer-free elements). */
  llgo_chan *c = llgo_runtime_calloc(sizeof *c + buffer_bytes);
  if (c == NULL) {
    /* Go: a size past maxAlloc panics (above), an allocation that fails is fatal. */
    llgo_fatalf("out of memory allocating a channel (%zu bytes)", sizeof *c + buffer_bytes);
  }
  c->elemsize = elem_size;
  c->dataqsiz = capacity;
  c->buf = (unsigned char *)(c + 1);
  llgo_runtime_lock();
  c->all_next = all_channels;
  if (all_channels != NULL) {
    all_channels->all_prev = c;
  }
  all_channels = c;
  llgo_runtime_unlock();
  return c;
}

void llgo_chan_free(llgo_chan *c) {
  if (c == NULL) {
    return;
  }
  llgo_runtime_lock();
  int busy = c->recvq.first != NULL || c->sendq.first != NULL;
  llgo_runtime_unlock();
  if (busy) {
    llgo_fatal("llgo_chan_free: goroutines are waiting on the channel");
  }
  llgo_runtime_lock();
  if (c->all_prev != NULL) {
    c->all_prev->all_next = c->all_next;
  } else {
    all_channels = c->all_next;
  }
  if (c->all_next != NULL) {
    c->all_next->all_prev = c->all_prev;
  }
  llgo_runtime_unlock();
  llgo_runtime_free(c);
}

void llgo_chan_buffer_put(llgo_chan *c, const void *elem) {
  llgo_chan_copy(c, slot(c, c->sendx), elem);
  if (++c->sendx == c->dataqsiz) {
    c->sendx = 0;
  }
  c->qcount++;
}

void llgo_chan_buffer_take(llgo_chan *c, void *elem) {
  llgo_chan_copy(c, elem, slot(c, c->recvx));
  if (++c->recvx == c->dataqsiz) {
    c->recvx = 0;
  }
  c->qcount--;
}

llgo_g *llgo_chan_send_to_waiter(llgo_chan *c, llgo_waiter *receiver, const void *elem) {
  llgo_chan_copy(c, receiver->elem, elem);
  return llgo_waiter_wake(receiver, 1);
}

llgo_g *llgo_chan_recv_from_waiter(llgo_chan *c, llgo_waiter *sender, void *elem) {
  if (c->dataqsiz == 0) {
    llgo_chan_copy(c, elem, sender->elem);
  } else {
    /* The buffer is full: take its head, and the sender's value goes to the
     * tail, which is the same slot once recvx moves on. */
    unsigned char *head = slot(c, c->recvx);
    llgo_chan_copy(c, elem, head);
    llgo_chan_copy(c, head, sender->elem);
    if (++c->recvx == c->dataqsiz) {
      c->recvx = 0;
    }
    c->sendx = c->recvx;
  }
  return llgo_waiter_wake(sender, 1);
}

/*
 * Each operation is split where it parks. The part that never parks (chan_*_now:
 * the timers poll, the buffer, a waiting partner, the closed checks) is out of
 * line, so Asyncify leaves it alone; the public functions keep only what runs
 * around the park (queue a waiter, park, take the result), with every step out
 * of line. A goroutine parked on a channel thus has one channel frame and the
 * scheduler's on its stack to unwind and rewind, each with few locals.
 */

/* What chan_send_now / chan_recv_now did. */
enum {
  CHAN_WAIT = 0,    /* nothing yet: the caller parks (the lock is still held) or gives up */
  CHAN_DONE = 1,    /* sent, or received a value */
  CHAN_CLOSED = 2,  /* send: the channel is closed (panic); recv: closed and drained (zero value) */
};

/* Go's chansend up to its park. With `block`, CHAN_WAIT returns with the lock held. */
static LLGO_CHAN_STEP int chan_send_now(llgo_chan *c, const void *elem, int block) {
  llgo_timers_poll();
  llgo_runtime_lock();
  if (c->closed) {
    llgo_runtime_unlock();
    return CHAN_CLOSED;
  }
  llgo_waiter *receiver = llgo_wait_queue_pop(&c->recvq);
  if (receiver != NULL) {
    llgo_g *wake = llgo_chan_send_to_waiter(c, receiver, elem);
    llgo_runtime_unlock();
    llgo_ready(wake);
    return CHAN_DONE;
  }
  if (c->qcount < c->dataqsiz) {
    llgo_chan_buffer_put(c, elem);
    llgo_runtime_unlock();
    return CHAN_DONE;
  }
  if (!block) {
    llgo_runtime_unlock();
  }
  return CHAN_WAIT;
}

/* Under the lock: queues the running goroutine as a sender of `elem` (copied to
 * the waiter: the heap, not this stack, holds it while we are parked). */
static LLGO_CHAN_STEP llgo_waiter *chan_queue_sender(llgo_chan *c, const void *elem) {
  llgo_current_g_or_die("llgo_chan_send");
  llgo_waiter *self = llgo_waiter_acquire(c->elemsize);
  llgo_chan_copy(c, self->elem, elem);
  self->chan = c;
  llgo_wait_queue_push(&c->sendq, self);
  return self;
}

/* A parked sender is back: returns whether its value was taken (not a close). */
static LLGO_CHAN_STEP int chan_sender_woken(llgo_waiter *self) {
  llgo_runtime_lock();
  int sent = self->success;
  llgo_waiter_release(self);
  llgo_runtime_unlock();
  return sent;
}

LLGO_CHAN_STEP _Noreturn void llgo_chan_panic_closed_send(void) { llgo_panic("send on closed channel"); }

/* Go's chanrecv up to its park: on CHAN_DONE the value is in *elem, on
 * CHAN_CLOSED its zero value. With `block`, CHAN_WAIT returns with the lock held. */
static LLGO_CHAN_STEP int chan_recv_now(llgo_chan *c, void *elem, int block) {
  llgo_timers_poll();
  llgo_runtime_lock();
  if (c->closed && c->qcount == 0) {
    llgo_runtime_unlock();
    llgo_chan_clear(c, elem);
    return CHAN_CLOSED;
  }
  llgo_waiter *sender = c->closed ? NULL : llgo_wait_queue_pop(&c->sendq);
  if (sender != NULL) {
    llgo_g *wake = llgo_chan_recv_from_waiter(c, sender, elem);
    llgo_runtime_unlock();
    llgo_ready(wake);
    return CHAN_DONE;
  }
  if (c->qcount > 0) {
    llgo_chan_buffer_take(c, elem);
    llgo_runtime_unlock();
    return CHAN_DONE;
  }
  if (!block) {
    llgo_runtime_unlock();
  }
  return CHAN_WAIT;
}

/* Under the lock: queues the running goroutine as a receiver. */
static LLGO_CHAN_STEP llgo_waiter *chan_queue_receiver(llgo_chan *c) {
  llgo_current_g_or_die("llgo_chan_recv");
  llgo_waiter *self = llgo_waiter_acquire(c->elemsize);
  self->chan = c;
  llgo_wait_queue_push(&c->recvq, self);
  return self;
}

/* A parked receiver is back, on its own stack again: copies the value out of
 * the waiter (or the zero value after a close); returns whether it was a value. */
static LLGO_CHAN_STEP int chan_receiver_woken(llgo_chan *c, void *elem, llgo_waiter *self) {
  llgo_runtime_lock();
  int received = self->success;
  if (received) {
    llgo_chan_copy(c, elem, self->elem);
  } else {
    llgo_chan_clear(c, elem);
  }
  llgo_waiter_release(self);
  llgo_runtime_unlock();
  return received;
}

void llgo_chan_send(llgo_chan *c, const void *elem) {
  if (c == NULL) {
    llgo_block_forever("llgo_chan_send");
  }
  int done = chan_send_now(c, elem, 1);
  if (done == CHAN_WAIT) {
    llgo_waiter *self = chan_queue_sender(c, elem);
    llgo_park_unlock();
    done = chan_sender_woken(self) ? CHAN_DONE : CHAN_CLOSED;
  }
  if (done == CHAN_CLOSED) {
    llgo_chan_panic_closed_send();
  }
}

/* A blocking receive; returns whether a value (not a close) was received. */
static inline __attribute__((always_inline)) int chan_recv(llgo_chan *c, void *elem) {
  if (c == NULL) {
    llgo_block_forever("llgo_chan_recv");
  }
  int done = chan_recv_now(c, elem, 1);
  if (done != CHAN_WAIT) {
    return done == CHAN_DONE;
  }
  llgo_waiter *self = chan_queue_receiver(c);
  llgo_park_unlock();
  return chan_receiver_woken(c, elem, self);
}

void llgo_chan_recv(llgo_chan *c, void *elem) { chan_recv(c, elem); }

int llgo_chan_recv2(llgo_chan *c, void *elem) { return chan_recv(c, elem); }

int llgo_chan_try_send(llgo_chan *c, const void *elem) {
  if (c == NULL) {
    return 0;
  }
  int done = chan_send_now(c, elem, 0);
  if (done == CHAN_CLOSED) {
    llgo_chan_panic_closed_send();
  }
  return done == CHAN_DONE;
}

int llgo_chan_try_recv(llgo_chan *c, void *elem, int *ok) {
  if (ok != NULL) {
    *ok = 0;
  }
  if (c == NULL) {
    return 0;
  }
  int done = chan_recv_now(c, elem, 0);
  if (ok != NULL) {
    *ok = done == CHAN_DONE;
  }
  return done != CHAN_WAIT;
}

void llgo_chan_close(llgo_chan *c) {
  if (c == NULL) {
    llgo_panic("close of nil channel");
  }
  llgo_runtime_lock();
  if (c->closed) {
    llgo_runtime_unlock();
    llgo_panic("close of closed channel");
  }
  c->closed = 1;
  /* Wake every receiver (zero value, ok = 0), then every sender (they panic),
   * each queue in FIFO order. The goroutines are collected first and readied
   * after unlocking; a woken goroutine may release its waiter at once. */
  llgo_g *stack_batch[16];
  llgo_g **batch = stack_batch;
  size_t count = 0, capacity = 16;
  llgo_wait_queue *queues[2] = {&c->recvq, &c->sendq};
  for (int i = 0; i < 2; i++) {
    llgo_waiter *w;
    while ((w = llgo_wait_queue_pop(queues[i])) != NULL) {
      if (count == capacity) {
        capacity *= 2;
        llgo_g **grown = llgo_runtime_alloc(capacity * sizeof *batch);
        if (grown == NULL) {
          llgo_fatal("out of memory allocating the goroutines a close wakes");
        }
        memcpy(grown, batch, count * sizeof *batch);
        if (batch != stack_batch) {
          llgo_runtime_free(batch);
        }
        batch = grown;
      }
      batch[count++] = llgo_waiter_wake(w, 0);
    }
  }
  llgo_runtime_unlock();
  for (size_t i = 0; i < count; i++) {
    llgo_ready(batch[i]);
  }
  if (batch != stack_batch) {
    llgo_runtime_free(batch);
  }
}

size_t llgo_chan_len(const llgo_chan *c) { return c == NULL ? 0 : c->qcount; }

size_t llgo_chan_cap(const llgo_chan *c) { return c == NULL ? 0 : c->dataqsiz; }
