# tests/programs.cmake: the C test programs that run on every variant and backend, one process per
# case (cmake/LlgoTestPrograms.cmake builds and registers them; tests/harness/test_program.h is
# their main). Add a program with one line: its sources and its case file (and, optionally, a Go
# module whose <case>/main.go programs show what Go itself prints for those cases).
llgo_test_program(scenarios
  SOURCES tests/runtime/scenarios.c
  CASES tests/runtime/scenarios.json
  GO_REFERENCE tests/runtime/go)
llgo_test_program(stacks
  SOURCES tests/stacks/stacks.c
  CASES tests/stacks/cases.json
  DEFAULT_EXTENSION_ONLY)
llgo_test_program(stack_size
  SOURCES tests/stack_size/stack_size.c
  CASES tests/stack_size/cases.json
  DEFAULT_EXTENSION_ONLY
  STACK_SIZE 16777216)
llgo_test_program(go_chan
  SOURCES tests/go_chan/doubleselect.c tests/go_chan/fifo.c tests/go_chan/go_chan_main.c
          tests/go_chan/goroutines.c tests/go_chan/nonblock.c tests/go_chan/select.c
          tests/go_chan/select3.c tests/go_chan/select4.c tests/go_chan/select6.c
          tests/go_chan/select7.c tests/go_chan/sendstmt.c tests/go_chan/sieve1.c
          tests/go_chan/zerosize.c
  CASES tests/go_chan/cases.json
  DEFAULT_EXTENSION_ONLY)
llgo_test_program(blocking
  SOURCES tests/blocking/blocking_main.c tests/blocking/chan_cases.c tests/blocking/select_cases.c
          tests/blocking/sync_cases.c tests/blocking/timer_cases.c
  CASES tests/blocking/cases.json
  DEFAULT_EXTENSION_ONLY)
llgo_test_program(yield_only
  SOURCES tests/yield_only/yield_only.c
  CASES tests/yield_only/cases.json
  DEFAULT_EXTENSION_ONLY
  # no debug info: with it emcc runs limited Binaryen optimisations (no inlining), which hid the bug
  OPTIONS -g0)
llgo_test_program(host_events
  SOURCES tests/host_events/host_events.c
  CASES tests/host_events/cases.json
  DEFAULT_EXTENSION_ONLY
  # a page's event loop, timers and Promises, in Chromium (not the deadlock cases: a page's event
  # loop never runs empty, docs/browser.md)
  SAMPLED_ENGINE_CASES promise-wakes-only-its-waiter wake-before-end js-callback-starts-goroutine
                       event-loop-runs-while-sleeping)
llgo_test_program(gc
  SOURCES tests/gc/gc.c
  CASES tests/gc/cases.json
  DEFAULT_EXTENSION_ONLY
  # llgo_gc_alloc links only where a collector can find every root (docs/gc.md)
  REQUIRES gc-roots)
# bdwgc behind the collector interface, where the target build has it (cmake/LlgoWasmBdwgc.cmake;
# a target without it gets the skipped test gc_bdwgc.<variant>.unavailable saying why).
if(TARGET llgo_bdwgc)
  llgo_test_program(gc_bdwgc
    SOURCES tests/gc_bdwgc/gc_bdwgc.c runtime/src/gc_bdwgc.c
    CASES tests/gc_bdwgc/cases.json
    DEFAULT_EXTENSION_ONLY
    LIBRARIES llgo_bdwgc)
endif()
