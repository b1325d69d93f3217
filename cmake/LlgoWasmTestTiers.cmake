# LlgoWasmTestTiers.cmake: the two test tiers (docs/testing.md).
#
# Every ctest case belongs to the default tier (what `tools/run-tests.sh` and CI run) or to the
# full tier (what `tools/run-tests.sh --full` adds): a full-tier case carries the label `full`,
# and a case that needs the wall clock also `timing` (it runs serially: RUN_SERIAL). The test
# presets leave `full` out; `ctest -L full` runs only those, plain `ctest` both.
#
# The default tier runs every case of every test program at least once on every variant and
# context backend: on each target's first engine that is not sampled (its primary engine). The
# full tier adds the whole cross product: the same cases on the target's other engines, the
# post-link optimisation levels, the plain native tree (whose cases the sanitizer tree runs in the
# default tier), longer fuzzing and more random scheduler programs.
#
#   LLGO_WASM_FULL_TESTS       ON: build the programs only full-tier cases run (other optimisation
#                              levels, a second loader's copies). OFF: they are not built, and
#                              their cases say so when run.
#   LLGO_WASM_PROGRAM_CASES_TIER  the tier of this tree's test-program cases: "default", or "full"
#                              for a tree whose cases another tree of the same run already runs
#                              (tools/run-tests.sh: the plain native tree, next to native-sanitize).
#
#   llgo_wasm_tier_labels(<out> <tier> [TIMING])   "full" (and "timing") or ""
#   llgo_wasm_program_exclusion(<out> <tier>)      EXCLUDE_FROM_ALL for a full-tier-only program
#                                                  when LLGO_WASM_FULL_TESTS is off, else ""
include_guard(GLOBAL)

option(LLGO_WASM_FULL_TESTS "Build the programs that only full-tier test cases run (tools/run-tests.sh --full)" OFF)
set(LLGO_WASM_PROGRAM_CASES_TIER "default" CACHE STRING
    "Tier of this tree's test-program cases: default, or full when another tree of the run runs them")
set_property(CACHE LLGO_WASM_PROGRAM_CASES_TIER PROPERTY STRINGS default full)
if(NOT LLGO_WASM_PROGRAM_CASES_TIER MATCHES "^(default|full)$")
  message(FATAL_ERROR "LLGO_WASM_PROGRAM_CASES_TIER is '${LLGO_WASM_PROGRAM_CASES_TIER}': use default or full")
endif()

function(llgo_wasm_tier_labels out tier)
  set(labels "")
  if(tier STREQUAL "full" OR "TIMING" IN_LIST ARGN)
    list(APPEND labels full)
  endif()
  if("TIMING" IN_LIST ARGN)
    list(APPEND labels timing)
  endif()
  set(${out} "${labels}" PARENT_SCOPE)
endfunction()

function(llgo_wasm_program_exclusion out tier)
  if(tier STREQUAL "full" AND NOT LLGO_WASM_FULL_TESTS)
    set(${out} EXCLUDE_FROM_ALL PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()
