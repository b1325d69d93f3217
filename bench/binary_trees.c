/* binary_trees: the Benchmarks Game's binary-trees against the runtime's collector (docs/gc.md),
 * written twice, here against the C API and in Go (bench/go/binarytrees/main.go), doing the same
 * work and printing the same lines (bench/run.py checks the outputs equal before it takes any
 * figure):
 *
 *   binary_trees N   a stretch tree of depth N+1 (checked, then garbage); a long-lived tree of
 *                    depth N; for each depth d = 4, 6, ..., N one goroutine (the Go version's
 *                    shape) allocating and checking 2^(N-d+4) trees of depth d; the outputs
 *                    printed in depth order after every goroutine ended (a WaitGroup); the
 *                    long-lived tree checked last.
 *
 * Every node comes from llgo_gc_alloc and nothing is freed: the collector reclaims the trees.
 * On stderr: "gc: <collections> collections, max pause <ns> ns", the collector's own figures
 * (llgo_test_gc_collections, llgo_test_gc_max_pause_ns: each collection timed on the host around
 * the collection itself), which bench/run.py reports beside Go's runtime.MemStats pause. */
#include "llgo_runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct node {
  struct node *left, *right;
} node;

static node *bottom_up_tree(int depth) {
  node *n = llgo_gc_alloc(sizeof *n);
  if (depth > 0) {
    n->left = bottom_up_tree(depth - 1);
    n->right = bottom_up_tree(depth - 1);
  }
  return n;
}

static long check(const node *n) {
  return n->left == NULL ? 1 : 1 + check(n->left) + check(n->right);
}

enum { MIN_DEPTH = 4, MAX_DEPTHS = 64 };

static int max_depth;
static char outputs[MAX_DEPTHS][96];
static llgo_waitgroup done;

static void trees_of_depth(void *arg) {
  int depth = (int)(intptr_t)arg;
  long iterations = 1L << (max_depth - depth + MIN_DEPTH);
  long sum = 0;
  for (long i = 1; i <= iterations; i++) sum += check(bottom_up_tree(depth));
  snprintf(outputs[depth], sizeof outputs[depth], "%ld\t trees of depth %d\t check: %ld\n", iterations, depth, sum);
  llgo_waitgroup_done(&done);
}

static int binary_trees(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  max_depth = n > MIN_DEPTH + 2 ? n : MIN_DEPTH + 2;
  if (max_depth >= MAX_DEPTHS) {
    fprintf(stderr, "binary_trees: depth %d is too large\n", max_depth);
    return 1;
  }
  int stretch = max_depth + 1;
  printf("stretch tree of depth %d\t check: %ld\n", stretch, check(bottom_up_tree(stretch)));
  node *long_lived = bottom_up_tree(max_depth);
  for (int depth = MIN_DEPTH; depth <= max_depth; depth += 2) {
    llgo_waitgroup_add(&done, 1);
    llgo_go(trees_of_depth, (void *)(intptr_t)depth);
  }
  llgo_waitgroup_wait(&done);
  for (int depth = MIN_DEPTH; depth <= max_depth; depth += 2) fputs(outputs[depth], stdout);
  printf("long lived tree of depth %d\t check: %ld\n", max_depth, check(long_lived));
  fflush(stdout);
  fprintf(stderr, "gc: %llu collections, max pause %lld ns\n", (unsigned long long)llgo_test_gc_collections(),
          (long long)llgo_test_gc_max_pause_ns());
  return 0;
}

int main(int argc, char **argv) { return llgo_run_main(binary_trees, argc, argv); }
