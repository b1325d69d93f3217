/*
 * gc.c - garbage collection roots and safepoints (docs/gc.md), on every variant and backend
 * whose target has the gc-roots capability:
 *   - live data: N goroutines, each with an M-node list reachable only from its own stack and
 *     locals, park sending a collected value on an unbuffered channel (the value then lives only
 *     in the runtime's waiter buffer); main forces K collections, each followed by garbage that
 *     reuses whatever was freed and fills it; then every sent value and every list is checked;
 *   - locals: the running goroutine holds a list only in its locals across collections its own
 *     allocations trigger;
 *   - static data and runtime values: a pointer held only by a global variable, a channel buffer, a timer's AfterFunc argument, a
 *     deferred call's argument, a not yet started goroutine's argument and a panic value;
 *   - reclaim: 10^6 (full tier: 10^7) garbage allocations with yields keep the heap below a bound.
 * The default tier's sizes are smaller than the (full tier) so that WasmEdge's interpreter
 * runs each case in seconds, not minutes.
 * A live object that a collection wrongly frees is reused by the garbage that follows and
 * overwritten, so its checksum fails: each check can fail (docs/gc.md says which broken root
 * enumeration each case caught).
 */
#include "test_program.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
  struct node *next;
  uint64_t value;
} node;

static node *build_list(uint64_t seed, int length) {
  node *head = NULL;
  for (int i = 0; i < length; i++) {
    node *n = llgo_gc_alloc(sizeof *n);
    n->value = seed * 1000003u + (uint64_t)i;
    n->next = head;
    head = n;
  }
  return head;
}

static uint64_t expected_sum(uint64_t seed, int length) {
  uint64_t sum = 0;
  for (int i = 0; i < length; i++) {
    sum += seed * 1000003u + (uint64_t)i;
  }
  return sum;
}

static uint64_t list_sum(const node *n, int *length) {
  uint64_t sum = 0;
  int count = 0;
  for (; n != NULL; n = n->next) {
    sum += n->value;
    count++;
  }
  *length = count;
  return sum;
}

/* Garbage that reuses freed memory and overwrites it (objects of the lists' size class). */
static void churn(size_t objects) {
  for (size_t i = 0; i < objects; i++) {
    node *n = llgo_gc_alloc(sizeof *n);
    memset(n, 0xab, sizeof *n);
  }
}

/* ---- live data: N goroutines x M nodes, K collections ---- */

typedef struct token token;

typedef struct worker {
  llgo_chan *sent;    /* unbuffered: the worker blocks sending its token */
  token **cell;       /* C heap (not scanned): the token's only holder until main clears it */
  llgo_chan *results; /* shared: each worker's verdict */
  uint64_t seed;
  int length;
} worker;

struct token {
  uint64_t seed;
  uint64_t check;
};

/* Clears the stack below the caller's frame, so that no stale copy of a pointer a finished call
 * left there keeps its object alive: each check below then depends on the one root it names. */
static __attribute__((noinline)) void scrub_stack(void) {
  volatile unsigned char area[16384];
  for (size_t i = 0; i < sizeof area; i++) {
    area[i] = 0;
  }
}

static __attribute__((noinline)) void make_token(token **cell, uint64_t seed) {
  token *t = llgo_gc_alloc(sizeof *t);
  t->seed = seed;
  t->check = ~seed;
  *cell = t;
}

static void worker_main(void *arg) {
  worker *w = arg;
  node *head = build_list(w->seed, w->length); /* only in this goroutine's locals and stack */
  make_token(w->cell, w->seed);
  scrub_stack();
  /* Parks: main clears the cell, and the token is then only in the runtime's waiter. */
  llgo_chan_send(w->sent, w->cell);
  int length = 0;
  uint64_t sum = list_sum(head, &length);
  int ok = length == w->length && sum == expected_sum(w->seed, w->length);
  llgo_chan_send(w->results, &ok);
}

static int live_data(int goroutines, int nodes, int collections) {
  worker *workers = calloc((size_t)goroutines, sizeof *workers);
  llgo_chan *results = llgo_chan_make(sizeof(int), (size_t)goroutines);
  REQUIRE(workers != NULL);
  for (int i = 0; i < goroutines; i++) {
    workers[i].sent = llgo_chan_make(sizeof(token *), 0);
    workers[i].cell = malloc(sizeof(token *));
    REQUIRE(workers[i].cell != NULL);
    workers[i].results = results;
    workers[i].seed = (uint64_t)i + 1;
    workers[i].length = nodes;
    llgo_go(worker_main, &workers[i]);
  }
  uint64_t before = llgo_test_gc_collections();
  llgo_gosched(); /* every worker runs until it parks sending */
  for (int i = 0; i < goroutines; i++) {
    *workers[i].cell = NULL;
  }
  for (int k = 0; k < collections; k++) {
    llgo_gc_collect();
    churn((size_t)nodes * 4);
  }
  REQUIRE(llgo_test_gc_collections() >= before + (uint64_t)collections);
  int tokens_ok = 0;
  for (int i = 0; i < goroutines; i++) {
    token *t = NULL;
    llgo_chan_recv(workers[i].sent, &t);
    tokens_ok += t != NULL && t->seed == workers[i].seed && t->check == ~workers[i].seed;
  }
  int lists_ok = 0;
  for (int i = 0; i < goroutines; i++) {
    int ok = 0;
    llgo_chan_recv(results, &ok);
    lists_ok += ok;
  }
  printf("%d goroutines x %d nodes, %d collections: %d tokens and %d lists intact\n", goroutines,
         nodes, collections, tokens_ok, lists_ok);
  return tokens_ok == goroutines && lists_ok == goroutines ? 0 : 1;
}

static int live_data_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return live_data(500, 100, 5);
}

static int live_data_full_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return live_data(10000, 1000, 100);
}

/* ---- the running goroutine's locals across its own collections ---- */

static __attribute__((noinline)) int locals_across_collections(void) {
  node *head = build_list(7, 1000); /* in a local only */
  uint64_t start = llgo_test_gc_collections();
  size_t garbage = 0;
  while (llgo_test_gc_collections() < start + 1) {
    node *n = llgo_gc_alloc(sizeof *n); /* one of these switches out and collects */
    memset(n, 0xab, sizeof *n);
    garbage++;
  }
  churn(20000);
  int length = 0;
  uint64_t sum = list_sum(head, &length);
  printf("a list in locals only, across %llu collection(s) its own allocations triggered: %s\n",
         (unsigned long long)(llgo_test_gc_collections() - start),
         length == 1000 && sum == expected_sum(7, 1000) ? "intact" : "DAMAGED");
  return length == 1000 && sum == expected_sum(7, 1000) && garbage > 0 ? 0 : 1;
}

static int locals_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return locals_across_collections();
}

/* ---- values only the runtime holds ---- */

static llgo_chan *done;

static int list_ok(const node *list, uint64_t seed) {
  int length = 0;
  return list_sum(list, &length) == expected_sum(seed, 500) && length == 500;
}

static void report(const char *what, int ok) { printf("%s: %s\n", what, ok ? "intact" : "DAMAGED"); }

static void collect_and_churn(void) {
  scrub_stack();
  llgo_gc_collect();
  churn(20000);
  llgo_gc_collect();
  churn(20000);
}

static void check_list_goroutine(void *arg) {
  int ok = list_ok(arg, 3);
  llgo_chan_send(done, &ok);
}

static __attribute__((noinline)) void start_goroutine_with_list(void) {
  llgo_go(check_list_goroutine, build_list(3, 500));
}

static void check_timer_list(void *arg, int64_t now) {
  (void)now;
  int ok = list_ok(arg, 2);
  llgo_chan_try_send(done, &ok);
}

static __attribute__((noinline)) llgo_timer *timer_with_list(void) {
  return llgo_timer_new(check_timer_list, build_list(2, 500));
}

static void deferred_check(void *arg) { report("a deferred call's argument", list_ok(arg, 4)); }

static __attribute__((noinline)) void defer_list(llgo_defer_frame *frame) {
  llgo_defer(frame, deferred_check, build_list(4, 500));
}

static void with_deferred_list(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    defer_list(&frame);
    collect_and_churn();
  }
  llgo_defer_end(&frame);
}

static uintptr_t hidden_panic_text; /* the text's address xor 1: not a pointer to the scan */

static void recover_and_check(void *unused) {
  (void)unused;
  const char *message = llgo_recover();
  report("a panic value", (uintptr_t)message == (hidden_panic_text ^ 1) &&
                              strcmp(message, "collected panic value") == 0);
}

static void collect_in_deferred_call(void *unused) {
  (void)unused;
  collect_and_churn(); /* the panic record is the value's only holder here */
}

static __attribute__((noinline)) void panic_with_collected_text(void) {
  char *text = llgo_gc_alloc(32);
  strcpy(text, "collected panic value");
  hidden_panic_text = (uintptr_t)text ^ 1;
  llgo_panic(text);
}

static void panic_with_collected_value(void) {
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, recover_and_check, NULL);
    llgo_defer(&frame, collect_in_deferred_call, NULL);
    panic_with_collected_text();
  }
  llgo_defer_end(&frame);
}

static __attribute__((noinline)) void buffer_list(llgo_chan *c) {
  node *list = build_list(1, 500);
  llgo_chan_send(c, &list);
}


static void receive_list(void *c) {
  node *list = NULL;
  llgo_chan_recv(c, &list);
  int ok = list_ok(list, 5);
  llgo_chan_send(done, &ok);
}

static __attribute__((noinline)) void hand_list_to_parked_receiver(llgo_chan *c) {
  node *list = build_list(5, 500);
  llgo_chan_send(c, &list); /* the receiver is parked: the value goes into its waiter */
  list = NULL;
}

static node *global_list; /* static data */

static __attribute__((noinline)) void make_global_list(void) { global_list = build_list(6, 500); }

static int runtime_values_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  done = llgo_chan_make(sizeof(int), 4);
  int ok = 0;

  make_global_list();
  collect_and_churn();
  report("a global variable", list_ok(global_list, 6));

  /* a goroutine not started yet: only its argument holds the list */
  start_goroutine_with_list();
  collect_and_churn();
  llgo_chan_recv(done, &ok);
  report("a not yet started goroutine's argument", ok);

  /* a stopped timer's argument, started after the collections */
  llgo_timer *timer = timer_with_list();
  collect_and_churn();
  llgo_timer_reset(timer, llgo_when(0), 0);
  llgo_chan_recv(done, &ok);
  report("a timer's argument", ok);
  llgo_timer_free(timer);

  with_deferred_list();
  panic_with_collected_value();

  /* a channel buffer */
  llgo_chan *buffered = llgo_chan_make(sizeof(node *), 1);
  buffer_list(buffered);
  collect_and_churn();
  node *list = NULL;
  llgo_chan_recv(buffered, &list);
  report("a channel buffer", list_ok(list, 1));

  /* a value handed to a woken receiver that has not run yet: in its waiter */
  llgo_chan *unbuffered = llgo_chan_make(sizeof(node *), 0);
  llgo_go(receive_list, unbuffered);
  llgo_gosched(); /* it parks receiving */
  hand_list_to_parked_receiver(unbuffered);
  collect_and_churn(); /* the collections switch to the host, not to the receiver */
  llgo_chan_recv(done, &ok);
  report("a woken receiver's value", ok);
  return 0;
}

/* ---- reclaim ---- */

static int reclaim(long allocations, uint64_t least_collections) {
  size_t most = 0;
  uint64_t start = llgo_test_gc_collections();
  for (long i = 0; i < allocations; i++) {
    void *garbage = llgo_gc_alloc(32);
    ((char *)garbage)[0] = 1;
    if (i % 1000 == 0) {
      llgo_gosched();
      size_t held = llgo_test_gc_heap_bytes();
      if (held > most) most = held;
    }
  }
  uint64_t collections = llgo_test_gc_collections() - start;
  const size_t bound = (size_t)16 << 20;
  printf("%ld garbage allocations of 32 bytes: the heap stayed %s 16 MiB, %s %llu collections\n",
         allocations, most < bound ? "below" : "ABOVE",
         collections >= least_collections ? "at least" : "FEWER than",
         (unsigned long long)least_collections);
  return most < bound && collections >= least_collections ? 0 : 1;
}

static int reclaim_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return reclaim(1000 * 1000, 5);
}

static int reclaim_full_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return reclaim(10 * 1000 * 1000, 50);
}

static const test_case cases[] = {
    {"live-data", live_data_main, NULL},
    {"live-data-full", live_data_full_main, NULL},
    {"locals-across-own-collections", locals_main, NULL},
    {"runtime-values", runtime_values_main, NULL},
    {"reclaim", reclaim_main, NULL},
    {"reclaim-full", reclaim_full_main, NULL},
};

int main(int argc, char **argv) { return TEST_PROGRAM_MAIN(argc, argv, cases); }
