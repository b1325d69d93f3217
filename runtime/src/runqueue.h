//llgo:build llgo
/*
 * runqueue.h - intrusive, allocation-free FIFO of runnable goroutines.
 *
 * The node lives inside the queued object, so push and pop are O(1) and never
 * allocate. A node can be in at most one queue at a time: push refuses a NULL
 * node and a node that is already queued (the scheduler turns a refusal into a
 * fatal error). Not thread-safe: the single-worker scheduler owns its queue.
 */
#ifndef LLGO_RUNQUEUE_H
#define LLGO_RUNQUEUE_H

#include <stddef.h>

typedef struct llgo_runqueue_node {
  struct llgo_runqueue_node *next;
  int queued; /* nonzero while in a queue: guards against double insertion */
} llgo_runqueue_node;

typedef struct llgo_runqueue {
  llgo_runqueue_node *head;
  llgo_runqueue_node *tail;
  size_t length;
} llgo_runqueue;

typedef enum llgo_runqueue_result {
  LLGO_RUNQUEUE_OK = 0,
  LLGO_RUNQUEUE_NULL_NODE,     /* push(NULL) */
  LLGO_RUNQUEUE_ALREADY_QUEUED /* the node is in a queue already */
} llgo_runqueue_result;

void llgo_runqueue_init(llgo_runqueue *queue);
/* Appends `node` at the tail. */
llgo_runqueue_result llgo_runqueue_push(llgo_runqueue *queue, llgo_runqueue_node *node);
/* Removes and returns the head, or NULL when the queue is empty. */
llgo_runqueue_node *llgo_runqueue_pop(llgo_runqueue *queue);
size_t llgo_runqueue_length(const llgo_runqueue *queue);
/* A short description of a result, for error messages. */
const char *llgo_runqueue_result_name(llgo_runqueue_result result);

#endif /* LLGO_RUNQUEUE_H */
