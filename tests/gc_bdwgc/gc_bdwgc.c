/*
 * gc_bdwgc.c - bdwgc behind the collector interface (runtime/src/gc_bdwgc.c, linked with the
 * target's bdwgc from cmake/LlgoWasmBdwgc.cmake; docs/gc-bdwgc.md). Every list lives in the
 * collected heap and is reachable only through the ranges the root callback pushes: the slots
 * of `roots` are in the libc heap, which bdwgc does not scan, and no global holds a list.
 *   lists-survive      lists reachable only through the callback outlive forced collections
 *                      and garbage that reuses freed memory; their checksums hold
 *   garbage-reclaimed  16 MiB allocated while 320 KiB stay live, no explicit collection: the
 *                      heap stays under 4 MiB (llgo_gc_alloc triggers collections)
 *   roots-withheld     the same lists with a callback that pushes nothing: after one forced
 *                      collection the checksums no longer hold (proves the roots come only
 *                      through the callback, and that the check above can fail)
 *   collects-at-safepoint  a forced collection from a goroutine runs on the host at the runtime's
 *                      safepoint, and the goroutine resumes before the one already runnable
 *                      (single-worker backends: the pthread backend has no safepoint)
 */
#include "test_program.h"

#include <gc.h>

#include <stdint.h>
#include <stdlib.h>

/* The collector interface (runtime/include/llgo_runtime.h on the gc-roots branch). */
typedef void (*llgo_gc_root_fn)(void *lo, void *hi, void *ctx);
void llgo_gc_for_each_root(llgo_gc_root_fn fn, void *ctx);
void *llgo_gc_alloc(size_t size);
void llgo_gc_collect(void);

typedef struct node {
  struct node *next;
  uint32_t value;
  uint32_t pad[5]; /* 32 bytes on wasm32 */
} node;

#define LISTS 64
#define NODES 1000

static node **roots;           /* LISTS slots in the libc heap (calloc): not a bdwgc root */
static int withhold_roots;
static int roots_asked, roots_asked_in_goroutine; /* calls of the root callback, and in a goroutine */

/* TEST STUB, not the runtime's: until the gc-roots branch lands, the only roots the runtime
 * would report are these slots. */
void llgo_gc_for_each_root(llgo_gc_root_fn fn, void *ctx) {
  roots_asked++;
  roots_asked_in_goroutine += llgo_current_g() != NULL;
  if (!withhold_roots && roots != NULL) {
    fn(roots, roots + LISTS, ctx);
  }
}

static uint32_t value_of(int list, int index) { return (uint32_t)list * 7919u + (uint32_t)index * 31u + 1u; }

/* Each new node is stored in its slot before the next allocation: no list is ever reachable
 * from a local alone when llgo_gc_alloc may collect. */
static void build_lists(void) {
  for (int l = 0; l < LISTS; l++) {
    for (int i = 0; i < NODES; i++) {
      node *n = llgo_gc_alloc(sizeof(node));
      REQUIRE(n != NULL);
      n->value = value_of(l, i);
      n->next = roots[l];
      roots[l] = n;
    }
  }
}

static uint64_t expected_sum(void) {
  uint64_t sum = 0;
  for (int l = 0; l < LISTS; l++) {
    for (int i = 0; i < NODES; i++) {
      sum += value_of(l, i);
    }
  }
  return sum;
}

/* Sum of every list's values and number of nodes (a walk stops after NODES + 1 nodes). */
static uint64_t list_sum(long *count) {
  uint64_t sum = 0;
  *count = 0;
  for (int l = 0; l < LISTS; l++) {
    long seen = 0;
    for (node *n = roots[l]; n != NULL && seen <= NODES; n = n->next, seen++) {
      sum += n->value;
    }
    *count += seen;
  }
  return sum;
}

/* Garbage of the lists' size class, filled with other values: it reuses whatever was freed. */
static void churn(int nodes) {
  for (int i = 0; i < nodes; i++) {
    node *n = llgo_gc_alloc(sizeof(node));
    REQUIRE(n != NULL);
    n->value = 0xdead0000u + (uint32_t)i;
  }
}

static int lists_after_collections(int collections) {
  roots = calloc(LISTS, sizeof(node *));
  REQUIRE(roots != NULL);
  build_lists();
  GC_word before = GC_get_gc_no();
  for (int c = 0; c < collections; c++) {
    llgo_gc_collect();
    churn(LISTS * NODES);
  }
  REQUIRE(GC_get_gc_no() >= before + (GC_word)collections);
  long count = 0;
  uint64_t sum = list_sum(&count);
  return sum == expected_sum() && count == (long)LISTS * NODES;
}

static int lists_survive(int argc, char **argv) {
  (void)argc, (void)argv;
  int intact = lists_after_collections(4);
  printf("lists %s after 4 forced collections\n", intact ? "intact" : "CORRUPTED");
  return intact ? 0 : 1;
}

static int roots_withheld(int argc, char **argv) {
  (void)argc, (void)argv;
  withhold_roots = 1;
  int intact = lists_after_collections(1);
  printf("without roots the lists are %s\n", intact ? "still intact (roots come from elsewhere)" : "gone");
  return intact ? 1 : 0;
}

static int garbage_reclaimed(int argc, char **argv) {
  (void)argc, (void)argv;
  roots = calloc(LISTS, sizeof(node *));
  REQUIRE(roots != NULL);
  /* 10,000 live nodes (320 KiB on wasm32) in 10 lists, then 512 Ki garbage nodes (16 MiB). */
  for (int l = 0; l < 10; l++) {
    for (int i = 0; i < NODES; i++) {
      node *n = llgo_gc_alloc(sizeof(node));
      REQUIRE(n != NULL);
      n->value = value_of(l, i);
      n->next = roots[l];
      roots[l] = n;
    }
  }
  GC_word before = GC_get_gc_no();
  size_t garbage = 0;
  while (garbage < (size_t)16 << 20) {
    churn(1024);
    garbage += 1024 * sizeof(node);
  }
  size_t heap = GC_get_heap_size();
  long count = 0;
  uint64_t sum = 0;
  for (int l = 0; l < 10; l++) {
    long seen = 0;
    for (node *n = roots[l]; n != NULL && seen <= NODES; n = n->next, seen++) {
      sum += n->value;
    }
    count += seen;
  }
  uint64_t want = 0;
  for (int l = 0; l < 10; l++) {
    for (int i = 0; i < NODES; i++) {
      want += value_of(l, i);
    }
  }
  REQUIRE(count == 10L * NODES && sum == want);
  REQUIRE(GC_get_gc_no() > before);
  int bounded = heap < (size_t)4 << 20;
  printf("heap %s after 16 MiB of garbage\n", bounded ? "under 4 MiB" : "NOT BOUNDED");
  if (!bounded) {
    fprintf(stderr, "heap size %zu bytes after %lu collections\n", heap, (unsigned long)(GC_get_gc_no() - before));
  }
  return bounded ? 0 : 1;
}

static int other_ran;

static void other_goroutine(void *arg) {
  (void)arg;
  other_ran = 1;
}

/* A forced collection from a goroutine runs at the runtime's safepoint (llgo_gc_at_safepoint):
 * the goroutine switches out, the host loop collects (no goroutine running, so the root
 * callback sees none) and resumes it before the runnable goroutine already queued. */
static int collects_at_safepoint(int argc, char **argv) {
  (void)argc, (void)argv;
  llgo_go(other_goroutine, NULL);
  GC_word before = GC_get_gc_no();
  llgo_gc_collect();
  REQUIRE(GC_get_gc_no() > before);
  printf("a collection from a goroutine: root callback called %s, %s\n",
         roots_asked > 0 && roots_asked_in_goroutine == 0 ? "on the host only" : "IN A GOROUTINE (no safepoint)",
         other_ran ? "ANOTHER GOROUTINE RAN FIRST" : "the goroutine resumed first");
  llgo_gosched();
  REQUIRE(other_ran);
  return 0;
}

static const test_case cases[] = {
    {"collects-at-safepoint", collects_at_safepoint, NULL},
    {"lists-survive", lists_survive, NULL},
    {"garbage-reclaimed", garbage_reclaimed, NULL},
    {"roots-withheld", roots_withheld, NULL},
};

int main(int argc, char **argv) { return TEST_PROGRAM_MAIN(argc, argv, cases); }
