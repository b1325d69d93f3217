/* blocking_test.h - shared by the cases of the `blocking` test program: channels,
 * select, sync and timers of the runtime against Go's semantics, one case per
 * process (blocking_main.c lists them; cases.json says what each must print and
 * exit with, on which variant/backend).
 *
 * A case is a function run as the main goroutine. It prints a fixed text on
 * success; a failed EXPECT prints "FAIL: file:line: ..." and the case exits 1.
 * Goroutine arguments and shared state live in static or heap memory, never in a
 * goroutine's locals (llgo_runtime.h). The event log is a string the goroutines
 * append to, printed at the end, so the exact interleaving is what is checked. */
#ifndef BLOCKING_TEST_H
#define BLOCKING_TEST_H

#include "llgo_runtime.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(cond, ...)                                              \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("FAIL: %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
      printf(__VA_ARGS__);                                             \
      printf("\n");                                                    \
      fflush(stdout);                                                  \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

/* The event log (one buffer per process; goroutines on the pthread backend are
 * threads, so appends take a lock that is not the runtime's). */
void event(const char *format, ...) __attribute__((format(printf, 1, 2)));
const char *events(void);

/* Heap memory or death. */
void *test_new(size_t size);

/* Waits (yielding) until the goroutine stored in *slot exists and is parked:
 * ordering that holds on both backends (on the pthread backend goroutines are
 * threads and run when the OS says, so the slot, which the goroutine writes and
 * main reads, is atomic). Fails the case after 60 s. */
void wait_parked(_Atomic(llgo_g *) *slot);

/* Milliseconds in nanoseconds. */
#define MS ((int64_t)1000000)

typedef int (*blocking_case_fn)(int argc, char **argv);
typedef struct blocking_case {
  const char *name;
  blocking_case_fn main_fn;
} blocking_case;

/* Each area's table of cases, terminated by {NULL, NULL}. */
extern const blocking_case chan_cases[];
extern const blocking_case select_cases[];
extern const blocking_case sync_cases[];
extern const blocking_case timer_cases[];

#endif /* BLOCKING_TEST_H */
