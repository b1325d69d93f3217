//llgo:build llgo
/*
 * runtime_alloc.c - the runtime's one allocation function and its fault-injection hooks
 * (see runtime_alloc.h). The counters are atomic: on the pthread backend goroutines allocate
 * from several threads. Injection costs one atomic increment per allocation.
 */
#include "runtime_alloc.h"

#include "llgo_runtime.h"

#include <stdatomic.h>
#include <stdlib.h>

static atomic_long allocations;            /* made so far, failed ones included */
static atomic_long failing_allocation;     /* the number (1-based, since start) that fails; 0: none */
static atomic_long failing_from;           /* this number and all later ones fail; 0: none */

void llgo_test_fail_allocation(long nth) {
  atomic_store(&failing_allocation, nth > 0 ? atomic_load(&allocations) + nth : 0);
}

void llgo_test_fail_allocations_after(long count) {
  atomic_store(&failing_from, count >= 0 ? atomic_load(&allocations) + count + 1 : 0);
}

long llgo_test_allocation_count(void) { return atomic_load(&allocations); }

void *llgo_runtime_alloc(size_t size) {
  long number = atomic_fetch_add(&allocations, 1) + 1;
  long from = atomic_load(&failing_from);
  if (number == atomic_load(&failing_allocation) || (from > 0 && number >= from)) {
    return NULL;
  }
  return aligned_alloc(16, (size + 15) & ~(size_t)15);
}

void *llgo_runtime_calloc(size_t size) {
  long number = atomic_fetch_add(&allocations, 1) + 1;
  long from = atomic_load(&failing_from);
  if (number == atomic_load(&failing_allocation) || (from > 0 && number >= from)) {
    return NULL;
  }
  return calloc(1, size);
}

void llgo_runtime_free(void *memory) { free(memory); }
