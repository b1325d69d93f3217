/* scenario.h - running a whole program under the runtime in a child process.
 *
 * expect_scenario(name, main_fn, expect) forks, runs main_fn as the program's main goroutine
 * through llgo_run_main, and checks the child's exit status and output against `expect`
 * (test_harness.h). Shared by the scheduler tests of both backends. */
#ifndef LLGO_TEST_SCENARIO_H
#define LLGO_TEST_SCENARIO_H

#include "llgo_runtime.h"
#include "test_harness.h"

#include <stdio.h>
#include <stdlib.h>

static int (*scenario_main)(int, char **);

static void run_scenario(void) {
  char program[] = "scenario";
  char *argv[] = {program, NULL};
  exit(llgo_run_main(scenario_main, 1, argv));
}

static __attribute__((unused)) void expect_scenario(const char *name, int (*main_fn)(int, char **),
                                                    child_expectation expect) {
  scenario_main = main_fn;
  run_in_child(name, run_scenario, expect);
}

/* A deferred call that prints its argument: makes the order of deferred calls visible. */
static __attribute__((unused)) void print_text(void *text) { printf("%s", (const char *)text); }

#endif /* LLGO_TEST_SCENARIO_H */
