/*
 * link_refused.c - a program that allocates collected memory, for the targets and backends
 * WITHOUT the gc-roots capability: its link must fail with an undefined symbol that says why
 * (runtime/src/gc_refused.c; docs/gc.md, "Which targets have a collector"). Never run; the ctest
 * case gc-link-refused.* links it and checks the failure (tests/harness/check_link_refused.py).
 */
#include "llgo_runtime.h"

#include <stdio.h>

static int program_main(int argc, char **argv) {
  (void)argc, (void)argv;
  void *block = llgo_gc_alloc(64);
  llgo_gc_collect();
  printf("allocated %p\n", block);
  return 0;
}

int main(int argc, char **argv) { return llgo_run_main(program_main, argc, argv); }
