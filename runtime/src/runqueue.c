//llgo:build llgo
/*
 * runqueue.c - the intrusive FIFO declared in runqueue.h (O(1), no allocation).
 */
#include "runqueue.h"

void llgo_runqueue_init(llgo_runqueue *queue) {
  queue->head = NULL;
  queue->tail = NULL;
  queue->length = 0;
}

llgo_runqueue_result llgo_runqueue_push(llgo_runqueue *queue, llgo_runqueue_node *node) {
  if (node == NULL) {
    return LLGO_RUNQUEUE_NULL_NODE;
  }
  if (node->queued) {
    return LLGO_RUNQUEUE_ALREADY_QUEUED;
  }
  node->next = NULL;
  node->queued = 1;
  if (queue->tail == NULL) {
    queue->head = node;
  } else {
    queue->tail->next = node;
  }
  queue->tail = node;
  queue->length++;
  return LLGO_RUNQUEUE_OK;
}

llgo_runqueue_node *llgo_runqueue_pop(llgo_runqueue *queue) {
  llgo_runqueue_node *node = queue->head;
  if (node == NULL) {
    return NULL;
  }
  queue->head = node->next;
  if (queue->head == NULL) {
    queue->tail = NULL;
  }
  node->next = NULL;
  node->queued = 0;
  queue->length--;
  return node;
}

size_t llgo_runqueue_length(const llgo_runqueue *queue) {
  return queue->length;
}

const char *llgo_runqueue_result_name(llgo_runqueue_result result) {
  switch (result) {
  case LLGO_RUNQUEUE_OK:
    return "ok";
  case LLGO_RUNQUEUE_NULL_NODE:
    return "null node";
  case LLGO_RUNQUEUE_ALREADY_QUEUED:
    return "node already queued";
  }
  return "unknown run-queue result";
}
