/*
 * test_runqueue.c - the intrusive FIFO: order, O(1) bookkeeping, refusals.
 */
#include "runqueue.h"
#include "test_harness.h"

int main(void) {
  llgo_runqueue queue;
  llgo_runqueue_init(&queue);
  CHECK(llgo_runqueue_length(&queue) == 0);
  CHECK(llgo_runqueue_pop(&queue) == NULL);

  llgo_runqueue_node nodes[4] = {{0}};
  CHECK(llgo_runqueue_push(&queue, NULL) == LLGO_RUNQUEUE_NULL_NODE);
  for (int i = 0; i < 4; i++) {
    CHECK(llgo_runqueue_push(&queue, &nodes[i]) == LLGO_RUNQUEUE_OK);
  }
  CHECK(llgo_runqueue_length(&queue) == 4);
  /* A queued node is refused, even at the tail or in the middle. */
  CHECK(llgo_runqueue_push(&queue, &nodes[3]) == LLGO_RUNQUEUE_ALREADY_QUEUED);
  CHECK(llgo_runqueue_push(&queue, &nodes[1]) == LLGO_RUNQUEUE_ALREADY_QUEUED);
  CHECK(llgo_runqueue_length(&queue) == 4);

  /* FIFO order; a popped node can be pushed again. */
  CHECK(llgo_runqueue_pop(&queue) == &nodes[0]);
  CHECK(llgo_runqueue_push(&queue, &nodes[0]) == LLGO_RUNQUEUE_OK);
  CHECK(llgo_runqueue_pop(&queue) == &nodes[1]);
  CHECK(llgo_runqueue_pop(&queue) == &nodes[2]);
  CHECK(llgo_runqueue_pop(&queue) == &nodes[3]);
  CHECK(llgo_runqueue_pop(&queue) == &nodes[0]);
  CHECK(llgo_runqueue_pop(&queue) == NULL);
  CHECK(llgo_runqueue_length(&queue) == 0);
  CHECK(nodes[0].queued == 0 && nodes[0].next == NULL);

  /* Emptying and refilling keeps head and tail consistent. */
  CHECK(llgo_runqueue_push(&queue, &nodes[2]) == LLGO_RUNQUEUE_OK);
  CHECK(llgo_runqueue_pop(&queue) == &nodes[2]);
  CHECK(llgo_runqueue_push(&queue, &nodes[1]) == LLGO_RUNQUEUE_OK);
  CHECK(llgo_runqueue_push(&queue, &nodes[3]) == LLGO_RUNQUEUE_OK);
  CHECK(llgo_runqueue_pop(&queue) == &nodes[1]);
  CHECK(llgo_runqueue_pop(&queue) == &nodes[3]);

  CHECK(strcmp(llgo_runqueue_result_name(LLGO_RUNQUEUE_OK), "ok") == 0);
  CHECK(strcmp(llgo_runqueue_result_name(LLGO_RUNQUEUE_NULL_NODE), "null node") == 0);
  CHECK(strcmp(llgo_runqueue_result_name(LLGO_RUNQUEUE_ALREADY_QUEUED),
               "node already queued") == 0);
  CHECK(strcmp(llgo_runqueue_result_name((llgo_runqueue_result)42),
               "unknown run-queue result") == 0);
  return test_harness_exit_status();
}
