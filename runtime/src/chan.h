//llgo:build llgo
/*
 * chan.h - runtime-internal: the channel record and the steps that channel
 * operations (chan.c) and select (select.c) share. Every function here runs
 * under the runtime lock (blocking.h).
 */
#ifndef LLGO_CHAN_H
#define LLGO_CHAN_H

#include "blocking.h"

/* Go's hchan. */
struct llgo_chan {
  size_t qcount;   /* elements in the buffer */
  size_t dataqsiz; /* capacity */
  size_t elemsize;
  unsigned char *buf; /* dataqsiz * elemsize bytes, a ring */
  size_t sendx, recvx;
  int closed;
  llgo_wait_queue recvq, sendq;
  struct llgo_chan *all_prev, *all_next; /* every channel not freed (gc roots: the buffers) */
};

/* The "send to a parked receiver" step (Go's send): the value goes into the
 * receiver's waiter. Returns the goroutine to ready after unlocking. */
llgo_g *llgo_chan_send_to_waiter(llgo_chan *c, llgo_waiter *receiver, const void *elem);
/* Go's recv: takes a parked sender's value (unbuffered) or the buffer's head,
 * refilling the buffer from the sender. Returns the sender to ready. */
llgo_g *llgo_chan_recv_from_waiter(llgo_chan *c, llgo_waiter *sender, void *elem);
/* Buffer steps (the caller checked there is room / an element). */
void llgo_chan_buffer_put(llgo_chan *c, const void *elem);
void llgo_chan_buffer_take(llgo_chan *c, void *elem);

void llgo_chan_copy(const llgo_chan *c, void *to, const void *from);
/* "send on closed channel" (Go's panic), for a send or a select's send case.
 * Not under the lock. */
_Noreturn void llgo_chan_panic_closed_send(void);

/* The steps of a blocking channel operation or select that never park are kept
 * out of line, so Asyncify leaves them alone and the function that parks stays
 * small (chan.c). */
#define LLGO_CHAN_STEP __attribute__((noinline))
void llgo_chan_clear(const llgo_chan *c, void *elem);

/* ---- what the runtime holds for the program, for llgo_gc_for_each_root (gc_roots.c) ---- */
/* The buffer of every channel not freed. */
void llgo_chan_gc_roots(llgo_gc_root_fn fn, void *ctx);

#endif /* LLGO_CHAN_H */
