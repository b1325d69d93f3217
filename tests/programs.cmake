# tests/programs.cmake: the C test programs that run on every variant and backend, one process per
# case (cmake/LlgoTestPrograms.cmake builds and registers them; tests/harness/test_program.h is
# their main). Add a program with one line: its sources and its case file (and, optionally, a Go
# module whose <case>/main.go programs show what Go itself prints for those cases).
llgo_test_program(scenarios
  SOURCES tests/runtime/scenarios.c
  CASES tests/runtime/scenarios.json
  GO_REFERENCE tests/runtime/go)
