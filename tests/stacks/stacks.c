/*
 * stacks.c - goroutine stacks as roomy and as safe as Go's (docs/runtime.md, "Stacks"), on every
 * variant and backend:
 *   - room: main and goroutines use 7 MiB of C stack, and three goroutines, each started at the
 *     bottom of the one before, go 1,024 frames of 1 KiB deep (1 MiB), park there and at four
 *     depths on the way back up, and find every byte of every frame as they left it;
 *   - cost: goroutines that once parked more than 64 KiB deep and then park shallow hold what
 *     their shallow depth needs, not what they once used;
 *   - overflow: by one frame, by 1 MiB at once, inside a deferred call while a panic runs, and in
 *     main: Go's report ("runtime: goroutine stack exceeds N-byte limit", "fatal error: stack
 *     overflow"), exit status 2, and a canary placed in the memory right below the stack's limit
 *     is intact afterwards (checked by an atexit handler while the fatal error exits), which shows
 *     that nothing was written past the limit before the overflow was caught.
 * Sizes that are the same on every target are asked for explicitly (8 MiB for the overflowing
 * goroutines), so the expected text is the same everywhere; the target's defaults are checked by
 * the room cases (at least 8 MiB for main, and for goroutines on shared stacks).
 */
#include "test_program.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)

/* AddressSanitizer (native-sanitize) puts redzones around every frame's locals: the depth checks
 * below get twice the room there, and the bounds are the for plain builds. */
#if defined(__SANITIZE_ADDRESS__)
#define FRAME_GROWTH 2
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FRAME_GROWTH 2
#endif
#endif
#ifndef FRAME_GROWTH
#define FRAME_GROWTH 1
#endif

/* Keeps a buffer alive in memory (the C stack) and opaque to the optimiser. */
static __attribute__((noinline)) void touch(volatile unsigned char *buffer, size_t size, unsigned char value) {
  for (size_t i = 0; i < size; i += 512) buffer[i] = value;
  buffer[size - 1] = value;
}

/* Waits for other goroutines by yielding: a handful of yields on the single worker, a spin on
 * threads. */
#define YIELD_UNTIL(cond)                                                                        \
  do {                                                                                            \
    while (!(cond)) llgo_gosched();                                                               \
  } while (0)

/* ---- room ------------------------------------------------------------------------------- */

#define ROOM_FRAME (8 * KIB)

/* Recurses `bytes` deep in 8 KiB frames, touching every page, and yields once at the bottom (a
 * switch: with shared stacks the whole used stack is copied away and back). */
static __attribute__((noinline)) size_t use_stack(size_t bytes) {
  volatile unsigned char frame[ROOM_FRAME];
  touch(frame, sizeof frame, (unsigned char)bytes);
  size_t below = 0;
  if (bytes > ROOM_FRAME) {
    below = use_stack(bytes - ROOM_FRAME);
  } else {
    llgo_gosched();
  }
  return below + frame[0] + frame[ROOM_FRAME - 1];
}

static atomic_int room_done;

static void goroutine_uses_7mib(void *unused) {
  (void)unused;
  use_stack(7 * MIB);
  printf("goroutine: used 7 MiB of C stack (its stack is %s 8 MiB)\n",
         llgo_test_stack_size() >= 8 * MIB ? "at least" : "LESS THAN");
  room_done = 1;
}

static int main_uses_7mib_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  use_stack(7 * MIB);
  printf("main: used 7 MiB of C stack (its stack is %s 8 MiB)\n",
         llgo_test_stack_size() >= 8 * MIB ? "at least" : "LESS THAN");
  return 0;
}

/* Shared stacks: a goroutine started with llgo_go runs on the shared stack, the target's
 * default-stack-size. */
static int goroutine_uses_7mib_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(goroutine_uses_7mib, NULL);
  YIELD_UNTIL(room_done);
  return 0;
}

/* ---- three levels, 1 MiB deep each, parked and resumed --------------------------------- */

#define LEVELS 3
#define DEEP_FRAMES 1024
#define DEEP_FRAME KIB
#define PARK_EVERY 256 /* parks again at these depths on the way up */

typedef struct level {
  int number;
  llgo_g *g;
  atomic_int parks;  /* times it parked (or is about to) */
  int readied;       /* times main readied it */
  atomic_int done;
  int intact;        /* every frame held its bytes */
} level;

static level levels[LEVELS];

static unsigned char frame_byte(int level_number, int depth, size_t i) {
  return (unsigned char)(level_number * 131 + depth * 7 + i * 13);
}

static void deep_level(void *arg);

static void park_in(level *self) {
  atomic_fetch_add(&self->parks, 1);
  llgo_park();
}

static __attribute__((noinline)) int descend(level *self, int depth) {
  volatile unsigned char frame[DEEP_FRAME];
  for (size_t i = 0; i < DEEP_FRAME; i++) frame[i] = frame_byte(self->number, depth, i);
  int intact = 1;
  if (depth + 1 < DEEP_FRAMES) {
    intact = descend(self, depth + 1);
  } else {
    if (self->number < LEVELS) {
      /* The next level starts while this one is 1 MiB deep. */
      llgo_go_stack(deep_level, &levels[self->number], 2 * MIB);
    }
    park_in(self);
  }
  if (depth % PARK_EVERY == 0) park_in(self);
  for (size_t i = 0; i < DEEP_FRAME; i++) intact &= frame[i] == frame_byte(self->number, depth, i);
  return intact;
}

static void deep_level(void *arg) {
  level *self = arg;
  self->g = llgo_current_g();
  self->intact = descend(self, 0);
  self->done = 1;
}

/* Readies whichever level has parked and not been readied yet, rotating, until all returned. */
static int three_levels_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (int i = 0; i < LEVELS; i++) levels[i].number = i + 1;
  /* 2 MiB: with separate stacks a goroutine's own size (the default is smaller); with shared
   * stacks a minimum, and each gets the whole shared stack. */
  llgo_go_stack(deep_level, &levels[0], 2 * MIB);
  int finished = 0;
  for (int turn = 1; finished < LEVELS; turn++) {
    finished = 0;
    for (int k = 0; k < LEVELS; k++) {
      level *l = &levels[(k + turn) % LEVELS];
      if (l->done) {
        finished++;
      } else if (l->parks > l->readied && llgo_test_g_status(l->g) == LLGO_G_WAITING) {
        l->readied++;
        llgo_ready(l->g);
      }
    }
    llgo_gosched();
  }
  for (int i = 0; i < LEVELS; i++) {
    printf("level %d: %d frames of 1 KiB, parked %d times: %s\n", levels[i].number, DEEP_FRAMES,
           levels[i].readied, levels[i].intact ? "every frame intact" : "FRAMES CORRUPTED");
  }
  return 0;
}

/* ---- once deep, then parked shallow ----------------------------------------------------- */

#define ONCE_DEEP_FRAMES 80 /* 80 frames of 1 KiB: more than 64 KiB */

static atomic_int once_deep_phase; /* 1: parked deep, 2: parked shallow */

static __attribute__((noinline)) void once_deep(int depth) {
  volatile unsigned char frame[DEEP_FRAME];
  touch(frame, sizeof frame, (unsigned char)depth);
  if (depth + 1 < ONCE_DEEP_FRAMES) {
    once_deep(depth + 1);
  } else {
    once_deep_phase = 1;
    llgo_park();
  }
}

static void deep_then_shallow(void *unused) {
  (void)unused;
  once_deep(0);
  once_deep_phase = 2;
  llgo_park(); /* shallow: this function's frame and the switch */
}

static llgo_g *volatile once_deep_g;

static void deep_then_shallow_named(void *unused) {
  once_deep_g = llgo_current_g();
  deep_then_shallow(unused);
}

/* `count` goroutines in turn go 80 KiB deep, park there, come back up and park shallow; then the
 * memory their contexts hold is measured, and they are readied and finish. */
static int parked_shallow_after_deep(int count, size_t stack_size, size_t bound) {
  llgo_g **parked = malloc((size_t)count * sizeof *parked);
  REQUIRE(parked != NULL);
  for (int i = 0; i < count; i++) {
    once_deep_phase = 0;
    once_deep_g = NULL;
    if (stack_size == 0) {
      llgo_go(deep_then_shallow_named, NULL);
    } else {
      llgo_go_stack(deep_then_shallow_named, NULL, stack_size);
    }
    YIELD_UNTIL(once_deep_phase == 1 && llgo_test_g_status(once_deep_g) == LLGO_G_WAITING);
    llgo_ready(once_deep_g);
    YIELD_UNTIL(once_deep_phase == 2 && llgo_test_g_status(once_deep_g) == LLGO_G_WAITING);
    parked[i] = once_deep_g;
  }
  size_t held = llgo_test_parked_stack_bytes();
  size_t each = held / (size_t)count;
  printf("%d goroutines parked shallow after parking %d KiB deep: %s\n", count, ONCE_DEEP_FRAMES,
         each <= bound ? "each holds what its shallow depth needs" : "EACH HOLDS MORE");
  if (each > bound) printf("held %zu bytes each, more than %zu\n", each, bound);
  for (int i = 0; i < count; i++) llgo_ready(parked[i]);
  while (llgo_test_live_g_count() > 1) llgo_gosched();
  free(parked);
  return 0;
}

/* Shared stacks: a parked goroutine holds a right-sized copy of what it used. */
static int shared_parked_shallow_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return parked_shallow_after_deep(10000, 0, 512 * FRAME_GROWTH);
}

/* Separate stacks: a parked goroutine holds its stack and what it saved at its shallow depth
 * (Asyncify data), not the save space of a deep park. */
static int separate_parked_shallow_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  const size_t stack = 96 * KIB * FRAME_GROWTH;
  return parked_shallow_after_deep(1000, stack, stack + 8 * KIB);
}

/* ---- overflow --------------------------------------------------------------------------- */

#define OVERFLOW_STACK (8 * MIB)
#define OVERFLOW_FRAME (2 * KIB)

static volatile unsigned char *canary;
static size_t canary_bytes;

static unsigned char canary_byte(size_t i) { return (unsigned char)(0xa5 ^ (i * 29)); }

static void check_canary(void) {
  size_t damaged = 0;
  for (size_t i = 0; i < canary_bytes; i++) damaged += canary[i] != canary_byte(i);
  if (canary == NULL || canary_bytes == 0) {
    printf("no canary below the stack limit\n");
  } else if (damaged == 0) {
    printf("canary below the stack limit intact\n");
  } else {
    printf("canary below the stack limit OVERWRITTEN (%zu of %zu bytes)\n", damaged, canary_bytes);
  }
  fflush(stdout);
}

/* Fills the memory right below the running goroutine's stack limit, to be checked when the
 * process exits (the fatal error's exit runs atexit handlers). */
static void place_canary(void) {
  size_t bytes = 0;
  unsigned char *floor = llgo_test_stack_floor(&bytes);
  canary = floor;
  canary_bytes = floor == NULL ? 0 : bytes;
  for (size_t i = 0; i < canary_bytes; i++) canary[i] = canary_byte(i);
  atexit(check_canary);
}

static volatile size_t recursion_depth;

static __attribute__((noinline)) size_t recurse_forever(size_t depth) {
  volatile unsigned char frame[OVERFLOW_FRAME];
  touch(frame, sizeof frame, (unsigned char)depth);
  recursion_depth = depth;
  if (depth == SIZE_MAX) return 0; /* never: the stack ends first */
  return recurse_forever(depth + 1) + frame[0];
}

static void overflow_by_one_frame(void *unused) {
  (void)unused;
  place_canary();
  printf("recursing in 2 KiB frames\n");
  fflush(stdout);
  recurse_forever(0);
}

/* A frame 1 MiB larger than the whole stack: the overflow is caught before its first byte is
 * written. */
static __attribute__((noinline)) void huge_frame(size_t bytes) {
  volatile unsigned char frame[bytes];
  frame[0] = 1;
  frame[bytes - 1] = 2;
  printf("unreachable %d\n", frame[bytes / 2]);
}

static void overflow_by_1mib(void *unused) {
  (void)unused;
  place_canary();
  printf("a frame 1 MiB larger than the stack\n");
  fflush(stdout);
  huge_frame(llgo_test_stack_size() + MIB);
}

static void deferred_recursion(void *unused) {
  (void)unused;
  printf("the deferred call recurses\n");
  fflush(stdout);
  recurse_forever(0);
}

static void overflow_during_panic(void *unused) {
  (void)unused;
  place_canary();
  llgo_defer_frame frame;
  if (llgo_defer_begin(&frame)) {
    llgo_defer(&frame, deferred_recursion, NULL);
    printf("panicking\n");
    fflush(stdout);
    llgo_panic("boom");
  }
  llgo_defer_end(&frame);
}

static int run_overflow(llgo_go_fn fn) {
  llgo_go_stack(fn, NULL, OVERFLOW_STACK);
  for (;;) {
    llgo_gosched(); /* until the goroutine's overflow ends the program */
    if (llgo_test_live_g_count() == 0) return 1;
  }
}

static int overflow_by_one_frame_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return run_overflow(overflow_by_one_frame);
}

static int overflow_by_1mib_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return run_overflow(overflow_by_1mib);
}

static int overflow_during_panic_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return run_overflow(overflow_during_panic);
}

/* Main's stack is the target's default-stack-size (8 MiB) on every backend. */
static int main_overflows_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  overflow_by_one_frame(NULL);
  return 0;
}

static const test_case cases[] = {
    {"main-uses-7mib", main_uses_7mib_main, NULL},
    {"goroutine-uses-7mib", goroutine_uses_7mib_main, NULL},
    {"three-levels-1mib-deep-parked-and-resumed", three_levels_main, NULL},
    {"shared-parked-shallow-after-deep", shared_parked_shallow_main, NULL},
    {"separate-parked-shallow-after-deep", separate_parked_shallow_main, NULL},
    {"overflow-by-one-frame", overflow_by_one_frame_main, NULL},
    {"overflow-by-1mib", overflow_by_1mib_main, NULL},
    {"overflow-in-deferred-call-during-panic", overflow_during_panic_main, NULL},
    {"main-overflows", main_overflows_main, NULL},
};

int main(int argc, char **argv) { return TEST_PROGRAM_MAIN(argc, argv, cases); }
