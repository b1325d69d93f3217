/*
 * test_program.h - one C test program, many named cases, one case per process.
 *
 * A program under the runtime (llgo_run_main runs once per process, and many cases must die)
 * lists its cases in a table and hands main to test_program_main:
 *
 *     static const test_case cases[] = {
 *         {"fifo-order", fifo_main, NULL},        // runs as the main goroutine
 *         {"park-outside", NULL, park_outside},   // runs on the host, outside llgo_run_main
 *     };
 *     int main(int argc, char **argv) { return TEST_PROGRAM_MAIN(argc, argv, cases); }
 *
 *   PROGRAM CASE [ARG...]  runs CASE: its main function gets argv = {CASE, ARG...} through
 *                          llgo_run_main, and the process exits with its status;
 *   PROGRAM --list         prints every case name, one per line.
 * An unknown case prints a message to stderr and exits 64; a failed REQUIRE(cond) prints the
 * condition and exits 99.
 *
 * The same program runs natively and under every wasm variant's engines (a process per case
 * everywhere: no fork). What each case must print and exit with is written in the program's case
 * file (JSON, read by tests/harness/check_run.py --case-file); see cmake/LlgoTestPrograms.cmake.
 */
#ifndef LLGO_TEST_PROGRAM_H
#define LLGO_TEST_PROGRAM_H

#include "llgo_runtime.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#define TEST_PROGRAM_UNKNOWN_CASE 64
#define TEST_PROGRAM_REQUIRE_FAILED 99

/* A failed requirement ends the case at once with its own status and the failed condition. */
#define REQUIRE(cond)                                                                \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond);    \
      fflush(stderr);                                                                \
      exit(TEST_PROGRAM_REQUIRE_FAILED);                                             \
    }                                                                                \
  } while (0)

typedef struct test_case {
  const char *name;
  int (*main_fn)(int argc, char **argv); /* run as the main goroutine, or NULL */
  void (*host_body)(void);               /* run outside llgo_run_main, or NULL */
} test_case;

static int test_program_main(int argc, char **argv, const test_case *cases, size_t count) {
  if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < count; i++) {
      printf("%s\n", cases[i].name);
    }
    return 0;
  }
  for (size_t i = 0; argc >= 2 && i < count; i++) {
    if (strcmp(argv[1], cases[i].name) != 0) {
      continue;
    }
    if (cases[i].main_fn != NULL) {
      return llgo_run_main(cases[i].main_fn, argc - 1, argv + 1);
    }
    cases[i].host_body();
    return 0;
  }
  fprintf(stderr, "%s: unknown case '%s' (--list prints the cases)\n",
          argc >= 1 ? argv[0] : "test program", argc >= 2 ? argv[1] : "");
  return TEST_PROGRAM_UNKNOWN_CASE;
}

/* For a program that, like a Go program, leaves freeing to a garbage collector: turns off
 * AddressSanitizer's leak check (native-sanitize), which would only list memory the program
 * still reaches from Go's point of view (channels, goroutine arguments). Use once, at file
 * scope. */
#define TEST_PROGRAM_WITHOUT_LEAK_CHECK                 \
  const char *__asan_default_options(void);             \
  const char *__asan_default_options(void) { return "detect_leaks=0"; }

#define TEST_PROGRAM_MAIN(argc, argv, cases) \
  test_program_main((argc), (argv), (cases), sizeof(cases) / sizeof((cases)[0]))

#endif /* LLGO_TEST_PROGRAM_H */
