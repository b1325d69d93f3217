/*
 * stack_size.c - a program that chooses its own goroutine stack size at its link (STACK_SIZE in
 * tests/programs.cmake: `llgo-wasm link --stack-size 16M` for the wasm targets, a generated source
 * writing LLGO_STACK_SIZE(16777216u) of llgo_runtime.h natively; docs/runtime.md, Stacks): every
 * goroutine and main get it, they can use it, and an overflow names it.
 */
#include "test_program.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)
#define FRAME (8 * KIB)

static atomic_int done;

static __attribute__((noinline)) size_t use_stack(size_t bytes) {
  volatile unsigned char frame[FRAME];
  for (size_t i = 0; i < FRAME; i += 512) frame[i] = (unsigned char)bytes;
  size_t below = bytes > FRAME ? use_stack(bytes - FRAME) : 0;
  return below + frame[0];
}

/* The frame escapes to a function the compiler does not see into, so it keeps all of it (with
 * only a few bytes used, clang shrinks the array to them and the recursion would need 16 MiB
 * worth of frames, more than an engine's own call stack allows). */
static __attribute__((noinline)) void touch(volatile unsigned char *buffer, size_t size, unsigned char value) {
  for (size_t i = 0; i < size; i += 512) buffer[i] = value;
  buffer[size - 1] = value;
}

static __attribute__((noinline)) size_t recurse_forever(size_t depth) {
  volatile unsigned char frame[FRAME];
  touch(frame, sizeof frame, (unsigned char)depth);
  if (depth == SIZE_MAX) return 0; /* never: the stack ends first */
  return recurse_forever(depth + 1) + frame[FRAME / 2];
}

static void report_size(void *unused) {
  (void)unused;
  printf("goroutine: %zu\n", llgo_test_stack_size());
  done = 1;
}

static int sizes_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  printf("main: %zu\n", llgo_test_stack_size());
  llgo_go(report_size, NULL);
  while (!done) llgo_gosched();
  return 0;
}

static void uses_15mib(void *unused) {
  (void)unused;
  use_stack(15 * MIB);
  printf("goroutine: used 15 MiB of C stack\n");
  done = 1;
}

static int uses_15mib_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(uses_15mib, NULL);
  while (!done) llgo_gosched();
  return 0;
}

static void overflows(void *unused) {
  (void)unused;
  recurse_forever(0);
}

static int overflow_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_go(overflows, NULL);
  for (;;) {
    llgo_gosched(); /* until the goroutine's overflow ends the program */
    if (llgo_test_live_g_count() == 0) return 1;
  }
}

static const test_case cases[] = {
    {"sizes", sizes_main, NULL},
    {"goroutine-uses-15mib", uses_15mib_main, NULL},
    {"overflow-names-the-program-size", overflow_main, NULL},
};

int main(int argc, char **argv) { return TEST_PROGRAM_MAIN(argc, argv, cases); }
