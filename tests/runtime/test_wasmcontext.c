/*
 * test_wasmcontext.c - the context layer on its own (it links only
 * llgo_wasmcontext, never the scheduler): storage allocation through the
 * callbacks and its failure paths, canaries and overflow checks, re-arming for
 * reuse, and switching between the host and two contexts (native backend).
 */
#include "test_harness.h"
#include "wasmcontext_storage.h"

#include <stdint.h>

typedef struct counting_allocator {
  int attempts;
  int live;
  int frees;
  int fail_at_attempt; /* 1-based; 0 = never fail */
  size_t freed_sizes[4];
} counting_allocator;

static void *counting_alloc(size_t size, void *user) {
  counting_allocator *counter = user;
  counter->attempts++;
  if (counter->attempts == counter->fail_at_attempt) {
    return NULL;
  }
  counter->live++;
  return aligned_alloc(16, size);
}

static void counting_free(void *memory, size_t size, void *user) {
  counting_allocator *counter = user;
  if (counter->frees < 4) {
    counter->freed_sizes[counter->frees] = size;
  }
  counter->frees++;
  counter->live--;
  free(memory);
}

static void never_runs(void *arg) { (void)arg; }

static void test_invalid_arguments(void) {
  counting_allocator counter = {0};
  llgo_wasmcontext ctx;
  CHECK(llgo_wasmcontext_create(NULL, never_runs, NULL, 8192, 4096, counting_alloc,
                                counting_free, &counter) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_create(&ctx, NULL, NULL, 8192, 4096, counting_alloc, counting_free,
                                &counter) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, 8192, 4096, NULL, counting_free,
                                &counter) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, 8192, 4096, counting_alloc, NULL,
                                &counter) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, 100, 4096, counting_alloc,
                                counting_free, &counter) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, 8192, 100, counting_alloc,
                                counting_free, &counter) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(counter.attempts == 0);
  CHECK(llgo_wasmcontext_init_main(NULL) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
}

static void test_allocation_failures(void) {
  llgo_wasmcontext ctx;
  counting_allocator first_fails = {.fail_at_attempt = 1};
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, 8192, 4096, counting_alloc,
                                counting_free, &first_fails) ==
        LLGO_WASMCONTEXT_STACK_ALLOC_FAILED);
  CHECK(first_fails.attempts == 1 && first_fails.live == 0 && first_fails.frees == 0);

  counting_allocator second_fails = {.fail_at_attempt = 2};
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, 8192, 4096, counting_alloc,
                                counting_free, &second_fails) ==
        LLGO_WASMCONTEXT_ASYNCIFY_ALLOC_FAILED);
  /* The stack that was allocated first is freed again, with its size. */
  CHECK(second_fails.attempts == 2 && second_fails.live == 0 && second_fails.frees == 1);
  CHECK(second_fails.freed_sizes[0] == 8192);
}

static void test_storage_checks_and_reuse(void) {
  counting_allocator counter = {0};
  llgo_wasmcontext ctx;
  CHECK(llgo_wasmcontext_create(&ctx, never_runs, NULL, 8190, 4093, counting_alloc,
                                counting_free, &counter) == LLGO_WASMCONTEXT_OK);
  CHECK(counter.live == 2);
  /* Sizes are rounded up to 16; the canary is not usable stack. */
  CHECK(llgo_wasmcontext_stack_size(&ctx) == 8192 - LLGO_WASMCONTEXT_CANARY_BYTES);
  CHECK(llgo_wasmcontext_check(&ctx) == LLGO_WASMCONTEXT_OK);

  llgo_wasmcontext_smash_stack_canary(&ctx);
  CHECK(llgo_wasmcontext_check(&ctx) == LLGO_WASMCONTEXT_STACK_OVERFLOW);
  CHECK(llgo_wasmcontext_rearm(&ctx, never_runs, NULL) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_check(&ctx) == LLGO_WASMCONTEXT_OK);

  llgo_wasmcontext_overflow_asyncify_area(&ctx);
  CHECK(llgo_wasmcontext_check(&ctx) == LLGO_WASMCONTEXT_ASYNCIFY_OVERFLOW);
  CHECK(llgo_wasmcontext_rearm(&ctx, never_runs, NULL) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_check(&ctx) == LLGO_WASMCONTEXT_OK);

  /* Writing past the save space (over its canary) is caught too. */
  llgo_wasmcontext_storage *storage = llgo_wasmcontext_storage_of(&ctx);
  unsigned char *save_end = llgo_wasmcontext_asyncify_space_end(storage);
  CHECK(save_end + LLGO_WASMCONTEXT_CANARY_BYTES == storage->asyncify + storage->asyncify_size);
  CHECK(storage->asyncify_size == 4096);
  save_end[3] ^= 0xff;
  CHECK(llgo_wasmcontext_check(&ctx) == LLGO_WASMCONTEXT_ASYNCIFY_OVERFLOW);
  CHECK(llgo_wasmcontext_rearm(&ctx, never_runs, NULL) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_check(&ctx) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_rearm(&ctx, NULL, NULL) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);

  CHECK(counter.attempts == 2); /* re-arming never allocates */
  llgo_wasmcontext_destroy(&ctx, counting_free, &counter);
  CHECK(counter.live == 0 && counter.frees == 2);
  CHECK(counter.freed_sizes[0] == 8192 && counter.freed_sizes[1] == 4096);
  /* A destroyed context cannot be re-armed; destroying twice frees nothing. */
  CHECK(llgo_wasmcontext_rearm(&ctx, never_runs, NULL) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  llgo_wasmcontext_destroy(&ctx, counting_free, &counter);
  CHECK(counter.frees == 2);
}

static void test_main_context(void) {
  llgo_wasmcontext host;
  CHECK(llgo_wasmcontext_init_main(&host) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_check(&host) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_stack_size(&host) == 0);
  llgo_wasmcontext_smash_stack_canary(&host);    /* no storage: nothing to smash */
  llgo_wasmcontext_overflow_asyncify_area(&host);
  CHECK(llgo_wasmcontext_check(&host) == LLGO_WASMCONTEXT_OK);
}

/* Ping-pong: host -> a -> b -> a -> host, each step logged. */
static llgo_wasmcontext host, ctx_a, ctx_b;
static char switch_log[32];
static size_t switch_log_length;

static void log_step(char step) { switch_log[switch_log_length++] = step; }

static void entry_a(void *arg) {
  CHECK(arg == &ctx_a);
  log_step('a');
  CHECK(llgo_wasmcontext_switch(&ctx_a, &ctx_b) == LLGO_WASMCONTEXT_OK);
  log_step('A');
  CHECK(llgo_wasmcontext_switch(&ctx_a, &host) == LLGO_WASMCONTEXT_OK);
  CHECK(0 && "a context that switched to the host for good was resumed");
}

static void entry_b(void *arg) {
  CHECK(arg == &ctx_b);
  log_step('b');
  CHECK(llgo_wasmcontext_switch(&ctx_b, &ctx_a) == LLGO_WASMCONTEXT_OK);
  CHECK(0 && "b is never resumed");
}

static void test_switching(void) {
  counting_allocator counter = {0};
  CHECK(llgo_wasmcontext_init_main(&host) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_create(&ctx_a, entry_a, &ctx_a, 65536, 4096, counting_alloc,
                                counting_free, &counter) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_create(&ctx_b, entry_b, &ctx_b, 65536, 4096, counting_alloc,
                                counting_free, &counter) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_switch(NULL, &ctx_a) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_switch(&host, NULL) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  CHECK(llgo_wasmcontext_switch(&host, &host) == LLGO_WASMCONTEXT_INVALID_ARGUMENT);
  log_step('h');
  CHECK(llgo_wasmcontext_switch(&host, &ctx_a) == LLGO_WASMCONTEXT_OK);
  log_step('H');
  CHECK(strcmp(switch_log, "habAH") == 0);
  CHECK(llgo_wasmcontext_check(&ctx_a) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_check(&ctx_b) == LLGO_WASMCONTEXT_OK);

  /* Reuse: a re-armed context starts its (new) entry from the beginning. */
  switch_log_length = 0;
  memset(switch_log, 0, sizeof switch_log);
  CHECK(llgo_wasmcontext_rearm(&ctx_a, entry_a, &ctx_a) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_rearm(&ctx_b, entry_b, &ctx_b) == LLGO_WASMCONTEXT_OK);
  CHECK(llgo_wasmcontext_switch(&host, &ctx_a) == LLGO_WASMCONTEXT_OK);
  CHECK(strcmp(switch_log, "abA") == 0);
  CHECK(counter.attempts == 4);

  llgo_wasmcontext_destroy(&ctx_a, counting_free, &counter);
  llgo_wasmcontext_destroy(&ctx_b, counting_free, &counter);
  CHECK(counter.live == 0);
}

static void test_result_names(void) {
  const llgo_wasmcontext_result all[] = {
      LLGO_WASMCONTEXT_OK,
      LLGO_WASMCONTEXT_INVALID_ARGUMENT,
      LLGO_WASMCONTEXT_STACK_ALLOC_FAILED,
      LLGO_WASMCONTEXT_ASYNCIFY_ALLOC_FAILED,
      LLGO_WASMCONTEXT_STACK_OVERFLOW,
      LLGO_WASMCONTEXT_ASYNCIFY_OVERFLOW,
      LLGO_WASMCONTEXT_BACKEND_FAILED};
  const char *unknown = llgo_wasmcontext_result_name((llgo_wasmcontext_result)99);
  CHECK(strcmp(unknown, "unknown context result") == 0);
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    const char *name = llgo_wasmcontext_result_name(all[i]);
    CHECK(name != NULL && name[0] != '\0' && strcmp(name, unknown) != 0);
    for (size_t j = 0; j < i; j++) {
      CHECK(strcmp(name, llgo_wasmcontext_result_name(all[j])) != 0);
    }
  }
}

int main(void) {
  test_invalid_arguments();
  test_allocation_failures();
  test_storage_checks_and_reuse();
  test_main_context();
  test_switching();
  test_result_names();
  return test_harness_exit_status();
}
