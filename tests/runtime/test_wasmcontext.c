/*
 * test_wasmcontext.c - the context layer on its own (it links only
 * llgo_wasmcontext, never the scheduler), built once per storage (shared and
 * separate stacks): argument checks, allocation failures, resume/suspend/exit
 * round trips with address-taken locals on two interleaved contexts and 1,000
 * frames deep, re-arming for reuse, and overflow reports.
 */
#include "test_harness.h"
#include "wasmcontext_storage.h"

#include <fenv.h>
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

/* 1,000 frames under AddressSanitizer need ~150 KiB with gcc's, more than 384 KiB with clang's
 * (-O0, native-sanitize) */
#define STACK ((size_t)512 * 1024)

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

/* ---- what the switch must preserve ---- */

/* Values live across a switch sit in callee-saved registers (x86-64: rbx, rbp, r12-r15;
 * aarch64: x19-x28, d8-d15) when the compiler optimises; each side keeps different ones
 * there, so a register the switch does not restore shows up as the other side's value.
 * Each is read from a volatile of its own, so the compiler can neither rematerialise nor
 * derive one from another after the call. The floating-point environment (x86-64: MXCSR and
 * the x87 control word; aarch64: FPCR) is per context too: a fresh context starts in the
 * default rounding mode, and a mode one side sets is not seen by the other. */
static volatile long host_i[10] = {1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009};
static volatile long context_i[10] = {2000, 2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008, 2009};
static volatile double host_d[8] = {1000.5, 1001.5, 1002.5, 1003.5, 1004.5, 1005.5, 1006.5, 1007.5};
static volatile double context_d[8] = {2000.5, 2001.5, 2002.5, 2003.5, 2004.5, 2005.5, 2006.5, 2007.5};
static llgo_wasmcontext register_context;

#define LIVE_VALUES(side)                                                                  \
  long i0 = side##_i[0], i1 = side##_i[1], i2 = side##_i[2], i3 = side##_i[3],             \
       i4 = side##_i[4], i5 = side##_i[5], i6 = side##_i[6], i7 = side##_i[7],             \
       i8 = side##_i[8], i9 = side##_i[9];                                                 \
  double d0 = side##_d[0], d1 = side##_d[1], d2 = side##_d[2], d3 = side##_d[3],           \
         d4 = side##_d[4], d5 = side##_d[5], d6 = side##_d[6], d7 = side##_d[7]
/* Out of line, with every value an argument: the values stay scalars in registers until the
 * call, where an inline comparison would let the compiler pack them into vector registers,
 * which AAPCS64 does not preserve (only d8-d15, the low halves of v8-v15) and so spills. */
static __attribute__((noinline)) int values_intact(long base, long i0, long i1, long i2, long i3,
                                                   long i4, long i5, long i6, long i7, long i8,
                                                   long i9, double d0, double d1, double d2,
                                                   double d3, double d4, double d5, double d6,
                                                   double d7) {
  return i0 == base && i1 == base + 1 && i2 == base + 2 && i3 == base + 3 && i4 == base + 4 &&
         i5 == base + 5 && i6 == base + 6 && i7 == base + 7 && i8 == base + 8 && i9 == base + 9 &&
         d0 == base + 0.5 && d1 == base + 1.5 && d2 == base + 2.5 && d3 == base + 3.5 &&
         d4 == base + 4.5 && d5 == base + 5.5 && d6 == base + 6.5 && d7 == base + 7.5;
}
#define LIVE_VALUES_INTACT(base) \
  values_intact(base, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, d0, d1, d2, d3, d4, d5, d6, d7)

/* The rounding mode of the SSE unit: on x86-64 MXCSR.RC, which fegetround does not read (glibc
 * reads the x87 control word; fesetround sets both), so a switch that lost MXCSR would pass the
 * fegetround checks; elsewhere fegetround itself. */
static int sse_rounding(void) {
#if defined(__x86_64__)
  static const int modes[4] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};
  return modes[(__builtin_ia32_stmxcsr() >> 13) & 3];
#else
  return fegetround();
#endif
}

static __attribute__((noinline)) void registers_entry(void *arg) {
  (void)arg;
  REQUIRE(fegetround() == FE_TONEAREST); /* the default, whatever the host had set */
  REQUIRE(sse_rounding() == FE_TONEAREST);
  REQUIRE(fesetround(FE_DOWNWARD) == 0);
  LIVE_VALUES(context);
  for (int i = 0; i < 2; i++) {
    REQUIRE(llgo_wasmcontext_suspend(&register_context) == LLGO_WASMCONTEXT_OK);
    REQUIRE(LIVE_VALUES_INTACT(2000));
    REQUIRE(fegetround() == FE_DOWNWARD);
    REQUIRE(sse_rounding() == FE_DOWNWARD);
  }
}

static __attribute__((noinline)) void test_preserved_registers(void) {
  CHECK(llgo_wasmcontext_create(&register_context, registers_entry, NULL, STACK) == LLGO_WASMCONTEXT_OK);
  CHECK(fesetround(FE_UPWARD) == 0);
  LIVE_VALUES(host);
  for (int i = 0; i < 2; i++) {
    CHECK(llgo_wasmcontext_resume(&register_context) == LLGO_WASMCONTEXT_OK);
    CHECK(LIVE_VALUES_INTACT(1000));
    CHECK(fegetround() == FE_UPWARD);
    CHECK(sse_rounding() == FE_UPWARD);
  }
  CHECK(llgo_wasmcontext_resume(&register_context) == LLGO_WASMCONTEXT_RETURNED);
  CHECK(LIVE_VALUES_INTACT(1000));
  CHECK(fegetround() == FE_UPWARD);
  CHECK(fesetround(FE_TONEAREST) == 0);
  llgo_wasmcontext_destroy(&register_context);
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
  test_preserved_registers();
  test_deep_stack();
  test_exit_and_overflow();
  test_result_names();
  printf("wasmcontext (%s stacks): %s\n", shared_stacks ? "shared" : "separate",
         test_failures == 0 ? "ok" : "FAILED");
  return test_harness_exit_status();
}
