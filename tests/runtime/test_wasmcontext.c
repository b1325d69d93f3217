/*
 * test_wasmcontext.c - the context layer on its own (it links only
 * llgo_wasmcontext, never the scheduler), built once per storage (shared and
 * separate stacks): argument checks, allocation failures, resume/suspend/exit
 * round trips with address-taken locals on two interleaved contexts and 1,000
 * frames deep, re-arming for reuse, and overflow reports.
 */
#include "test_harness.h"
#include "wasmcontext_storage.h"

#include <stdint.h>

/* Inside a context a failed check cannot return to the test: it ends the test at once. */
#define REQUIRE(cond)                                                                \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond);    \
      exit(99);                                                                      \
    }                                                                                \
  } while (0)

typedef struct counting_allocator {
  int attempts;
  int live;
  int fail_at_attempt; /* 1-based; 0 = never fail */
} counting_allocator;

static void *counting_alloc(size_t size, void *user) {
  counting_allocator *counter = user;
  counter->attempts++;
  if (counter->attempts == counter->fail_at_attempt) {
    return NULL;
  }
  counter->live++;
  return aligned_alloc(16, (size + 15) & ~(size_t)15);
}

static void counting_free(void *memory, size_t size, void *user) {
  (void)size;
  counting_allocator *counter = user;
  counter->live--;
  free(memory);
}

#define STACK ((size_t)256 * 1024) /* 1,000 frames under AddressSanitizer need ~150 KiB */

static counting_allocator counter;
static const llgo_wasmcontext_allocator allocator = {counting_alloc, counting_free, &counter};
static int shared_stacks;

static void never_runs(void *arg) { (void)arg; }

static void test_init_and_arguments(void) {
  llgo_wasmcontext ctx;
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, STACK) ==
        LLGO_WASMCONTEXT_INVALID_ARGUMENT); /* before init */
  CHECK(llgo_wasmcontext_max_stack_size() == 0);
  CHECK(llgo_wasmcontext_init(STACK, NULL) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  llgo_wasmcontext_allocator no_free = {counting_alloc, NULL, NULL};
  CHECK(llgo_wasmcontext_init(STACK, &no_free) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_init(100, &allocator) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_init(SIZE_MAX, &allocator) == LLGO_WASMCONTEXT_STACK_TOO_LARGE);
  CHECK(counter.attempts == 0);
  if (shared_stacks) {
    counter.fail_at_attempt = 1; /* the shared stack cannot be allocated */
    CHECK(llgo_wasmcontext_init(STACK, &allocator) == LLGO_WASMCONTEXT_OUT_OF_MEMORY);
    CHECK(counter.live == 0);
  }
  CHECK(llgo_wasmcontext_init(STACK - 1, &allocator) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_init(STACK, &allocator) == LLGO_WASMCONTEXT_OK); /* again: no new stack */
  CHECK(counter.live == (shared_stacks ? 1 : 0));
  CHECK(llgo_wasmcontext_max_stack_size() == (shared_stacks ? STACK : (SIZE_MAX / 4) & ~(size_t)15));

  CHECK(llgo_wasmcontext_create(NULL, never_runs, NULL, STACK) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_create(&ctx, NULL, NULL, STACK) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, 100) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, SIZE_MAX) ==
        LLGO_WASMCONTEXT_STACK_TOO_LARGE);
  if (shared_stacks) {
    CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, STACK + 16) ==
          LLGO_WASMCONTEXT_STACK_TOO_LARGE);
  } else {
    counter.fail_at_attempt = counter.attempts + 1;
    CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, STACK) == LLGO_WASMCONTEXT_OUT_OF_MEMORY);
    counter.fail_at_attempt = 0;
  }
  const llgo_wasmcontext_description *description = llgo_wasmcontext_describe();
  CHECK(strcmp(description->backend, "native") == 0);
  CHECK(description->stacks ==
        (shared_stacks ? LLGO_WASMCONTEXT_SHARED_STACKS : LLGO_WASMCONTEXT_SEPARATE_STACKS));
}

/* ---- round trips ---- */

static llgo_wasmcontext contexts[2];
static llgo_wasmcontext *counting_context[2] = {&contexts[0], &contexts[1]}; /* what each suspends */
static int steps[2];
static volatile int *local_addresses[2];

/* Each context keeps an address-taken local across three suspends and checks it
 * every time it is resumed; it also records where the local lives. */
static void counting_entry(void *arg) {
  int which = (int)(intptr_t)arg;
  volatile int local = 1000 * (which + 1);
  local_addresses[which] = &local;
  for (int i = 0; i < 3; i++) {
    steps[which]++;
    local += 1;
    REQUIRE(llgo_wasmcontext_suspend(counting_context[which]) == LLGO_WASMCONTEXT_OK);
    REQUIRE(local == 1000 * (which + 1) + i + 1);
  }
}

static void test_round_trips(void) {
  for (int which = 0; which < 2; which++) {
    CHECK(llgo_wasmcontext_create(&contexts[which], counting_entry, (void *)(intptr_t)which,
                                  STACK) == LLGO_WASMCONTEXT_OK);
    CHECK(llgo_wasmcontext_stack_size(&contexts[which]) == STACK);
  }
  /* Interleaved: with shared stacks both locals live at the same address. */
  for (int round = 0; round < 3; round++) {
    for (int which = 0; which < 2; which++) {
      CHECK(llgo_wasmcontext_resume(&contexts[which]) == LLGO_WASMCONTEXT_OK);
      CHECK(steps[which] == round + 1);
      size_t held = llgo_wasmcontext_held_bytes(&contexts[which]);
      CHECK(shared_stacks ? held > 0 && held < 4096 : held >= STACK);
    }
  }
  CHECK((local_addresses[0] == local_addresses[1]) == shared_stacks);
  for (int which = 0; which < 2; which++) {
    CHECK(llgo_wasmcontext_resume(&contexts[which]) == LLGO_WASMCONTEXT_RETURNED);
  }
  /* Re-armed with the same storage, the context starts again from its entry. */
  int live = counter.live;
  steps[0] = 0;
  CHECK(llgo_wasmcontext_rearm(&contexts[0], counting_entry, (void *)(intptr_t)0) ==
        LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_resume(&contexts[0]) == LLGO_WASMCONTEXT_OK && steps[0] == 1);
  CHECK(counter.live == live);
  CHECK(llgo_wasmcontext_rearm(&contexts[0], NULL, NULL) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  for (int which = 0; which < 2; which++) {
    llgo_wasmcontext_destroy(&contexts[which]);
  }
  CHECK(counter.live == (shared_stacks ? 1 : 0));
  /* A destroyed context cannot be re-armed; destroying twice frees nothing. */
  CHECK(llgo_wasmcontext_rearm(&contexts[0], never_runs, NULL) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  llgo_wasmcontext_destroy(&contexts[0]);
  CHECK(counter.live == (shared_stacks ? 1 : 0));
}

/* ---- 1,000 frames deep ---- */

#define DEPTH 1000
static llgo_wasmcontext deep;
static long deep_checked;

static __attribute__((noinline)) long descend(int depth) {
  volatile long local[2] = {depth * 7L, -depth};
  long below = 0;
  if (depth > 0) {
    below = descend(depth - 1);
  } else {
    REQUIRE(llgo_wasmcontext_suspend(&deep) == LLGO_WASMCONTEXT_OK);
  }
  REQUIRE(local[0] == depth * 7L && local[1] == -depth);
  deep_checked++;
  return below + local[0];
}

static void deep_entry(void *arg) {
  (void)arg;
  long sum = descend(DEPTH);
  REQUIRE(sum == 7L * DEPTH * (DEPTH + 1) / 2);
}

static void test_deep_stack(void) {
  CHECK(llgo_wasmcontext_create(&deep, deep_entry, NULL, STACK) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_resume(&deep) == LLGO_WASMCONTEXT_OK);
  /* Another context runs on the (shared) stack meanwhile. */
  CHECK(llgo_wasmcontext_create(&contexts[1], counting_entry, (void *)(intptr_t)1, STACK) ==
        LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_resume(&contexts[1]) == LLGO_WASMCONTEXT_OK);
  size_t held = llgo_wasmcontext_held_bytes(&deep);
  CHECK(held >= DEPTH * 2 * sizeof(long));
  CHECK(llgo_wasmcontext_resume(&deep) == LLGO_WASMCONTEXT_RETURNED);
  CHECK(deep_checked == DEPTH + 1);
  /* Suspending shallow again, a copy that is far too large is given back. */
  CHECK(llgo_wasmcontext_resume(&contexts[1]) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_rearm(&deep, counting_entry, (void *)(intptr_t)0) == LLGO_WASMCONTEXT_OK);
  counting_context[0] = &deep;
  CHECK(llgo_wasmcontext_resume(&deep) == LLGO_WASMCONTEXT_OK);
  if (shared_stacks) {
    CHECK(llgo_wasmcontext_held_bytes(&deep) < held / 4);
  }
  llgo_wasmcontext_destroy(&deep);
  llgo_wasmcontext_destroy(&contexts[1]);
}

/* ---- exit, overflow reports, out of memory ---- */

static llgo_wasmcontext victim;
static llgo_wasmcontext_result suspend_result;

static void exiting_entry(void *arg) {
  (void)arg;
  llgo_wasmcontext_exit(&victim);
  REQUIRE(!"exit returned");
}

static void smashing_entry(void *arg) {
  int then_return = (int)(intptr_t)arg;
  llgo_wasmcontext_smash_stack_canary(&victim);
  if (!then_return) {
    suspend_result = llgo_wasmcontext_suspend(&victim); /* refused: not suspended */
  }
}

static void injecting_entry(void *arg) {
  (void)arg;
  llgo_wasmcontext_inject_save_overflow(&victim);
  REQUIRE(llgo_wasmcontext_suspend(&victim) == LLGO_WASMCONTEXT_OK);
}

static void test_exit_and_overflow(void) {
  CHECK(llgo_wasmcontext_create(&victim, exiting_entry, NULL, STACK) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_resume(&victim) == LLGO_WASMCONTEXT_RETURNED);

  CHECK(llgo_wasmcontext_rearm(&victim, smashing_entry, (void *)(intptr_t)0) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_resume(&victim) == LLGO_WASMCONTEXT_STACK_OVERFLOW);
  CHECK(suspend_result == LLGO_WASMCONTEXT_STACK_OVERFLOW);

  CHECK(llgo_wasmcontext_rearm(&victim, smashing_entry, (void *)(intptr_t)1) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_resume(&victim) == LLGO_WASMCONTEXT_STACK_OVERFLOW);

  CHECK(llgo_wasmcontext_rearm(&victim, injecting_entry, NULL) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_resume(&victim) == LLGO_WASMCONTEXT_SAVE_OVERFLOW);

  if (shared_stacks) {
    /* The copy of a suspending context cannot be allocated. */
    CHECK(llgo_wasmcontext_rearm(&victim, counting_entry, (void *)(intptr_t)0) == LLGO_WASMCONTEXT_OK);
    counting_context[0] = &victim;
    counter.fail_at_attempt = counter.attempts + 1;
    CHECK(llgo_wasmcontext_resume(&victim) == LLGO_WASMCONTEXT_OUT_OF_MEMORY);
    counter.fail_at_attempt = 0;
  }
  llgo_wasmcontext_destroy(&victim);
}

static void test_result_names(void) {
  for (int result = LLGO_WASMCONTEXT_OK; result <= LLGO_WASMCONTEXT_ESCAPED; result++) {
    CHECK(strcmp(llgo_wasmcontext_result_name((llgo_wasmcontext_result)result),
                 "unknown context result") != 0);
  }
  CHECK(strcmp(llgo_wasmcontext_result_name((llgo_wasmcontext_result)99),
               "unknown context result") == 0);
}

int main(void) {
  shared_stacks = llgo_wasmcontext_storage_stacks == LLGO_WASMCONTEXT_SHARED_STACKS;
  test_init_and_arguments();
  test_round_trips();
  test_deep_stack();
  test_exit_and_overflow();
  test_result_names();
  printf("wasmcontext (%s stacks): %s\n", shared_stacks ? "shared" : "separate",
         test_failures == 0 ? "ok" : "FAILED");
  return test_harness_exit_status();
}
