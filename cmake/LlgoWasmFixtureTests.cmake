# LlgoWasmFixtureTests.cmake: the ctest cases of the target build (cmake/wasm-variant), one per
# program x engine x context backend x mode, with the exact expected lines and exit status, checked
# by tests/harness/check_run.cpp. The superbuild's ctest runs them (LlgoWasmTargetBuild.cmake).
#   smoke.<variant>.<engine>.exit<status>       the data model and the exit status reach the host
#   fixture.<variant>.<engine>.<backend>.<mode> the scheduler fixture; "ok" is also labelled "demo"
#                                               (tools/run-demo.sh runs those). A backend is a
#                                               context in a stack mode (fixtures.cmake):
#                                               "asyncify", "asyncify-separate", ...; on
#                                               stack-switching targets also the
#                                               goroutine-limits fixture
#   module.<variant>.<program>                  a final module the driver linked, read by other tools
#   <program>.<variant>.<engine>.<backend>.<case>  every case of every test program (tests/programs.cmake,
#                                               cmake/LlgoTestPrograms.cmake), on the engines not sampled
#   scheddiff.<variant>.<engine>.<backend>[.seeds-M-N]  random goroutine programs in one engine
#                                               process, each trace equal to Go's semantics' (a
#                                               single-worker backend, engines not sampled;
#                                               tests/harness/check_scheddiff.py): the first
#                                               LLGO_WASM_SCHEDDIFF_DEFAULT_SEEDS in the default
#                                               tier (on the primary and every-case engines), up
#                                               to LLGO_WASM_SCHEDDIFF_SEEDS in the full one
#   scheddiff-gc.<variant>.<engine>.<backend>[.seeds-M-N]  the same with the programs' values in
#                                               collected memory and a collection forced every
#                                               LLGO_WASM_SCHEDDIFF_GC_EVERY-th allocation (a
#                                               gc-roots backend; docs/gc.md): the first
#                                               LLGO_WASM_SCHEDDIFF_GC_DEFAULT_SEEDS by default
#   alloc-faults.<variant>.<engine>.<backend>   each runtime allocation failing in turn ends in the
#                                               documented fatal error (the primary engine;
#                                               tests/harness/check_alloc_faults.py)
# <variant> is the target's display label; engines, backends and expectations come from the
# driver (LlgoWasmTargetFacts.cmake), and the programs from fixtures.cmake.
include_guard(GLOBAL)
include(LlgoWasmRunTest)
include(LlgoTestPrograms)

set(_variant "${LLGO_WASM_TARGET_VARIANT}")
# Programs per engine run of the differential scheduler test (docs/reliability.md: the long run).
set(LLGO_WASM_SCHEDDIFF_SEEDS 1000 CACHE STRING "Random programs per backend and engine in the full tier")
set(LLGO_WASM_SCHEDDIFF_DEFAULT_SEEDS 200 CACHE STRING "Of those, the ones the default tier runs (on the primary engine)")
set(LLGO_WASM_SCHEDDIFF_GC_DEFAULT_SEEDS 40 CACHE STRING
    "Random programs the default tier runs with their values in collected memory (scheddiff-gc)")
set(LLGO_WASM_SCHEDDIFF_GC_EVERY 2 CACHE STRING "scheddiff-gc forces a collection at every N-th of the programs' allocations")
set(LLGO_WASM_ALLOC_FAULTS_DEFAULT_SAMPLE 24 CACHE STRING
    "Allocations the default tier's alloc-faults case fails, one run each (the full tier fails every one)")
# The undefined symbol a program that allocates collected memory fails to link on where the
# target has no gc-roots: named once, in runtime/src/gc_refused.c.
file(STRINGS "${ROOT}/runtime/src/gc_refused.c" _refusal REGEX "^extern void llgo_gc_is_not_supported[a-z_]*\\(")
string(REGEX REPLACE "^extern void ([a-z_]+)\\(.*" "\\1" LLGO_WASM_GC_REFUSAL_SYMBOL "${_refusal}")
if(NOT LLGO_WASM_GC_REFUSAL_SYMBOL MATCHES "^llgo_gc_is_not_supported")
  message(FATAL_ERROR "runtime/src/gc_refused.c no longer declares the refusal symbol (extern void llgo_gc_is_not_supported...)")
endif()
list(GET LLGO_WASM_TARGET_DATA_MODEL 0 _ptr)
list(GET LLGO_WASM_TARGET_DATA_MODEL 1 _long)
list(GET LLGO_WASM_TARGET_DATA_MODEL 2 _ssize)

# Smoke: the data model reaches the program as the driver says, and exit status 2 reaches ctest.
foreach(_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
  if(LLGO_WASM_DEMO_ONLY)
    break()   # a demo build has the scheduler fixture only (fixtures.cmake)
  endif()
  llgo_wasm_program_for(_program smoke ${_engine})
  llgo_wasm_engine_command(_command ${_engine} "$<TARGET_FILE:${_program}>")
  foreach(_status 0 2)
    llgo_wasm_add_run_test(NAME smoke.${_variant}.${_engine}.exit${_status}
      VARIANT ${_variant} ENGINE ${_engine} LABELS smoke
      COMMAND ${_command} ${_status}
      EXIT ${_status}
      STDOUT "data model: uintptr=${_ptr} long=${_long} ssize_t=${_ssize}" "exiting with ${_status}")
  endforeach()
endforeach()

# The scheduler fixture and the test programs, per backend and engine.
llgo_test_programs(_llgo_test_programs)
# SIZE_MAX, and the largest stack a goroutine may ask for with separate stacks: (SIZE_MAX / 4) & ~15.
if(_ptr EQUAL 4)
  set(_size_max 4294967295)
  set(_largest_separate 1073741808)
else()
  set(_size_max 18446744073709551615)
  set(_largest_separate 4611686018427387888)
endif()
set(_all_engines "${LLGO_WASM_TARGET_ENGINES}")
foreach(_backend IN LISTS LLGO_WASM_FIXTURE_BACKENDS)
  string(REPLACE "-" "_" _cid "${_backend}")
  set(_ctx "${LLGO_WASM_BACKEND_${_cid}_CONTEXT}")
  # Only the engines that run this context (fixtures.cmake: the resolved target's engines; e.g.
  # WasmEdge runs no jspi module).
  set(LLGO_WASM_TARGET_ENGINES "${LLGO_WASM_BACKEND_${_cid}_ENGINES}")
  set(_largest ${_largest_separate})
  if(LLGO_WASM_BACKEND_${_cid}_STACKS STREQUAL "shared")
    # the shared stack: the target's default-stack-size (stack_size.c)
    set(_largest ${LLGO_WASM_TARGET_DEFAULT_STACK_SIZE})
  endif()
  if("threaded" IN_LIST LLGO_WASM_BACKEND_${_cid}_CAPABILITIES)
    set(_order "goroutines: park/ready, gosched/ready, panic/recover, goexit ok (causal order, threaded)")
  else()
    set(_order "goroutines: park/ready, gosched/ready, panic/recover, goexit ok (exact FIFO order)")
  endif()
  # What fixtures.cmake gave the fixture (LLGO_FIXTURE_PARKED_COUNT lowers the default 10,000).
  # The test programs, one ctest case per program case. The coverage build counts their runs too
  # (its report, runtime.coverage in the superbuild, needs every one).
  set(_program_properties "")
  set(_program_checks "")
  if(LLGO_WASM_COVERAGE)
    set(_program_properties FIXTURES_REQUIRED llgo_runtime_cov)
  endif()
  if(LLGO_WASM_DEMO_ONLY)
    set(_llgo_test_programs "")
  endif()
  foreach(_program IN LISTS _llgo_test_programs)
    llgo_add_test_program_cases(${_program} ${_backend} PROPERTIES ${_program_properties} CHECK_OPTIONS ${_program_checks})
  endforeach()
  if(TARGET gc_link_refused_${_cid})
    # A backend without gc-roots: a program calling llgo_gc_alloc must fail to link, naming the
    # refusal symbol (fixtures.cmake; docs/gc.md). The case runs the tree's own link of it, so
    # such cases take the tree's build lock one at a time.
    llgo_wasm_tier_labels(_tree_tier ${LLGO_WASM_PROGRAM_CASES_TIER})
    set(_refused gc-link-refused.${_variant}.${_backend})
    add_test(NAME ${_refused}
      COMMAND "${Python3_EXECUTABLE}" "${ROOT}/tests/harness/check_link_refused.py"
              --symbol ${LLGO_WASM_GC_REFUSAL_SYMBOL} --output "$<TARGET_FILE:gc_link_refused_${_cid}>"
              -- "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}" --target gc_link_refused_${_cid})
    set_tests_properties(${_refused} PROPERTIES LABELS "${_variant};${_backend};gc;${_tree_tier}"
                         RESOURCE_LOCK "build-tree-${_variant}" TIMEOUT 600)
  endif()
  foreach(_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
    if(NOT TARGET blocking_${_cid} OR NOT "wasi-poll-audit" IN_LIST LLGO_WASM_ENGINE_${_engine}_PROVIDES)
      continue()
    endif()
    # The runtime's idle wait on P1 is poll_oneoff with a RELATIVE clock (Node's WASI hangs on
    # absolute ones; run-wasi.mjs refuses them with status 125): its audit shows that a timer case
    # really waited through clock subscriptions, and only relative ones.
    llgo_wasm_program_for(_program blocking_${_cid} ${_engine})
    llgo_wasm_engine_command(_command ${_engine} "$<TARGET_FILE:${_program}>")
    llgo_wasm_add_run_test(NAME blocking.${_variant}.${_engine}.${_backend}.poll-oneoff-relative-clocks
      VARIANT ${_variant} ENGINE ${_engine} LABELS blocking ${_backend}
      COMMAND ${_command} sleep-50ms EXIT 0 ENV LLGO_WASM_POLL_AUDIT=1
      STDOUT "slept 50 ms, not woken before 50 ms had passed"
      STDERR "run-wasi: poll_oneoff audit: relative clock subscriptions only")
    if("engine-stacks" IN_LIST LLGO_WASM_BACKEND_${_cid}_CAPABILITIES AND "jspi" IN_LIST LLGO_WASM_ENGINE_${_engine}_PROVIDES)
      # JSPI on a JavaScript host: the idle wait never blocks the event loop in poll_oneoff (its
      # clock only looks); the 50 ms go by on a timer the host loop suspends on.
      llgo_wasm_add_run_test(NAME blocking.${_variant}.${_engine}.${_backend}.idle-wait-in-event-loop
        VARIANT ${_variant} ENGINE ${_engine} LABELS blocking ${_backend}
        COMMAND ${_command} sleep-50ms EXIT 0 ENV LLGO_WASM_POLL_AUDIT=1
        STDOUT "slept 50 ms, not woken before 50 ms had passed"
        STDERR "run-wasi: poll_oneoff audit: 0 clock subscriptions waited more than 1 ms")
    endif()
  endforeach()

  # Random goroutine programs against Go's semantics, and each runtime allocation failing in turn
  # (on the primary engine only: one engine process per allocation). Single-worker backends: the
  # interpreter is not thread-safe, and the pthread backend has no order to compare. The default
  # tier runs the first LLGO_WASM_SCHEDDIFF_DEFAULT_SEEDS seeds on the primary engine and the
  # every-case ones; the full tier the rest of LLGO_WASM_SCHEDDIFF_SEEDS there, and all of them on
  # the other engines.
  llgo_wasm_primary_engine(_primary)
  foreach(_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
    if(NOT TARGET scheddiff_${_cid} OR LLGO_WASM_ENGINE_${_engine}_SAMPLED)
      continue()
    endif()
    llgo_wasm_program_for(_program scheddiff_${_cid} ${_engine})
    llgo_wasm_engine_command(_command ${_engine} "$<TARGET_FILE:${_program}>")
    set(_name scheddiff.${_variant}.${_engine}.${_backend})
    set(_check "${Python3_EXECUTABLE}" "${ROOT}/tests/harness/check_scheddiff.py")
    llgo_wasm_tier_labels(_tree_tier ${LLGO_WASM_PROGRAM_CASES_TIER})
    set(_labels "${_variant};${_engine};${_backend};scheddiff")
    if(_engine STREQUAL _primary OR LLGO_WASM_ENGINE_${_engine}_EVERY_CASE)
      add_test(NAME ${_name} COMMAND ${_check} --seeds 0:${LLGO_WASM_SCHEDDIFF_DEFAULT_SEEDS} -- ${_command})
      add_test(NAME ${_name}.seeds-${LLGO_WASM_SCHEDDIFF_DEFAULT_SEEDS}-${LLGO_WASM_SCHEDDIFF_SEEDS}
               COMMAND ${_check} --seeds ${LLGO_WASM_SCHEDDIFF_DEFAULT_SEEDS}:${LLGO_WASM_SCHEDDIFF_SEEDS} -- ${_command})
      set_tests_properties(${_name} PROPERTIES LABELS "${_labels};${_tree_tier}")
      set_tests_properties(${_name}.seeds-${LLGO_WASM_SCHEDDIFF_DEFAULT_SEEDS}-${LLGO_WASM_SCHEDDIFF_SEEDS}
                           PROPERTIES LABELS "${_labels};full")
      set(_tests ${_name} ${_name}.seeds-${LLGO_WASM_SCHEDDIFF_DEFAULT_SEEDS}-${LLGO_WASM_SCHEDDIFF_SEEDS})
    else()
      add_test(NAME ${_name} COMMAND ${_check} --seeds 0:${LLGO_WASM_SCHEDDIFF_SEEDS} -- ${_command})
      set_tests_properties(${_name} PROPERTIES LABELS "${_labels};full")
      set(_tests ${_name})
    endif()
    if("gc-roots" IN_LIST LLGO_WASM_BACKEND_${_cid}_CAPABILITIES)
      # The same programs with their values in collected memory and a collection forced at every
      # LLGO_WASM_SCHEDDIFF_GC_EVERY-th of their allocations: the traces must not change
      # (docs/gc.md). Collections cost a scan each, so the default tier runs fewer seeds.
      set(_gc_name scheddiff-gc.${_variant}.${_engine}.${_backend})
      set(_gc_command ${_command} --gc-every ${LLGO_WASM_SCHEDDIFF_GC_EVERY})
      set(_gc_full ${LLGO_WASM_SCHEDDIFF_GC_DEFAULT_SEEDS}:${LLGO_WASM_SCHEDDIFF_SEEDS})
      if(_engine STREQUAL _primary OR LLGO_WASM_ENGINE_${_engine}_EVERY_CASE)
        add_test(NAME ${_gc_name} COMMAND ${_check} --seeds 0:${LLGO_WASM_SCHEDDIFF_GC_DEFAULT_SEEDS} -- ${_gc_command})
        add_test(NAME ${_gc_name}.seeds-${LLGO_WASM_SCHEDDIFF_GC_DEFAULT_SEEDS}-${LLGO_WASM_SCHEDDIFF_SEEDS}
                 COMMAND ${_check} --seeds ${_gc_full} -- ${_gc_command})
        set_tests_properties(${_gc_name} PROPERTIES LABELS "${_labels};gc;${_tree_tier}")
        set_tests_properties(${_gc_name}.seeds-${LLGO_WASM_SCHEDDIFF_GC_DEFAULT_SEEDS}-${LLGO_WASM_SCHEDDIFF_SEEDS}
                             PROPERTIES LABELS "${_labels};gc;full")
        list(APPEND _tests ${_gc_name} ${_gc_name}.seeds-${LLGO_WASM_SCHEDDIFF_GC_DEFAULT_SEEDS}-${LLGO_WASM_SCHEDDIFF_SEEDS})
      else()
        add_test(NAME ${_gc_name} COMMAND ${_check} --seeds 0:${LLGO_WASM_SCHEDDIFF_SEEDS} -- ${_gc_command})
        set_tests_properties(${_gc_name} PROPERTIES LABELS "${_labels};gc;full")
        list(APPEND _tests ${_gc_name})
      endif()
    endif()
    if(_engine STREQUAL _primary)
      # Each allocation failing in turn costs an engine start: the default tier fails a sample.
      set(_faults alloc-faults.${_variant}.${_engine}.${_backend})
      add_test(NAME ${_faults} COMMAND "${Python3_EXECUTABLE}" "${ROOT}/tests/harness/check_alloc_faults.py"
               --sample ${LLGO_WASM_ALLOC_FAULTS_DEFAULT_SAMPLE} -- ${_command})
      add_test(NAME ${_faults}.every-allocation
               COMMAND "${Python3_EXECUTABLE}" "${ROOT}/tests/harness/check_alloc_faults.py" -- ${_command})
      set_tests_properties(${_faults} PROPERTIES LABELS "${_labels};${_tree_tier}")
      set_tests_properties(${_faults}.every-allocation PROPERTIES LABELS "${_labels};full")
      list(APPEND _tests ${_faults} ${_faults}.every-allocation)
    endif()
    set_tests_properties(${_tests} PROPERTIES TIMEOUT 900 ${_program_properties})
  endforeach()

  set(_parked ${LLGO_WASM_BACKEND_${_cid}_PARKED_COUNT})
  foreach(_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
    llgo_wasm_program_for(_program scheduler_${_cid} ${_engine})
    llgo_wasm_engine_command(_command ${_engine} "$<TARGET_FILE:${_program}>")
    set(_name fixture.${_variant}.${_engine}.${_backend})
    # A sampled engine (a browser: a start each) runs the normal mode in the default tier on the
    # target's primary backend, the failing modes and the other backends in the full one; the
    # other engines run every mode in both.
    set(_modes_tier "")
    set(_ok_tier "")
    if(LLGO_WASM_ENGINE_${_engine}_SAMPLED)
      set(_modes_tier full)
      if(NOT _backend STREQUAL LLGO_WASM_PRIMARY_BACKEND)
        set(_ok_tier full)
      endif()
    endif()
    llgo_wasm_add_run_test(NAME ${_name}.ok VARIANT ${_variant} ENGINE ${_engine}
      LABELS fixture demo ${_backend} ${_ok_tier} COMMAND ${_command} EXIT 0
      STDOUT "data model: uintptr=${_ptr} long=${_long} ssize_t=${_ssize}"
             "main: g=1 m=1 p=0 g.status=_Grunning p.status=_Prunning"
             "${_order}"
             "serial lifecycles: 5000 ok"
             "parked at once: ${_parked}, readied and finished ok"
             "parked 1000 frames deep, every address-taken local intact"
             "yield storm: 64 goroutines x 100 yields at depths 1-8 ok"
             "wasm scheduler ok")
    llgo_wasm_add_run_test(NAME ${_name}.deadlock VARIANT ${_variant} ENGINE ${_engine}
      LABELS fixture ${_backend} ${_modes_tier} COMMAND ${_command} EXIT 2
      ENV LLGO_WASM_SCHEDULER_DEADLOCK=1
      STDOUT "worker exiting while main is parked"
      STDERR "fatal error: all goroutines are asleep - deadlock!")
    llgo_wasm_add_run_test(NAME ${_name}.main-goexit VARIANT ${_variant} ENGINE ${_engine}
      LABELS fixture ${_backend} ${_modes_tier} COMMAND ${_command} EXIT 2
      ENV LLGO_WASM_SCHEDULER_MAIN_GOEXIT=1
      STDOUT "WORKER_RETURNING"
      STDERR "fatal error: no goroutines (main called runtime.Goexit) - deadlock!")
    llgo_wasm_add_run_test(NAME ${_name}.panic VARIANT ${_variant} ENGINE ${_engine}
      LABELS fixture ${_backend} ${_modes_tier} COMMAND ${_command} EXIT 2
      ENV LLGO_WASM_SCHEDULER_PANIC=1
      STDERR "panic: fixture panic in a goroutine")
    llgo_wasm_add_run_test(NAME ${_name}.huge-stack VARIANT ${_variant} ENGINE ${_engine}
      LABELS fixture ${_backend} ${_modes_tier} COMMAND ${_command} EXIT 2
      ENV LLGO_WASM_SCHEDULER_HUGE_STACK=1
      STDERR "fatal error: llgo_go_stack: a ${_size_max}-byte stack is more than a goroutine can have here (at most ${_largest} bytes)")
    if(NOT LLGO_WASM_TARGET_ASYNCIFY STREQUAL "none" AND "single-worker" IN_LIST LLGO_WASM_BACKEND_${_cid}_CAPABILITIES)
      # A separate stack's save space is as large as its stack (8 KiB here), so a deep enough
      # suspended call chain overflows it and is reported, never a trap. A shared stack's save
      # space is the whole shared stack (default-stack-size): no smaller limit than the stack.
      # (A backend on engine stacks saves nothing: no save space to overflow.)
      if(LLGO_WASM_BACKEND_${_cid}_STACKS STREQUAL "separate" AND
         NOT "engine-stacks" IN_LIST LLGO_WASM_BACKEND_${_cid}_CAPABILITIES)
        llgo_wasm_add_run_test(NAME ${_name}.save-overflow VARIANT ${_variant} ENGINE ${_engine}
          LABELS fixture ${_backend} ${_modes_tier} COMMAND ${_command} EXIT 2
          ENV LLGO_WASM_SCHEDULER_SAVE_OVERFLOW=1
          STDOUT "recursing with fat frames"
          STDERR "fatal error: goroutine 2: Asyncify save area overflow (the suspended call stack does not fit)")
      endif()
      # A goroutine that recurses without end is stopped at its stack's limit by the stack guard
      # (wasmcontext_stack_guard.h) with Go's report: its own 8 KiB with separate stacks, the
      # shared stack (default-stack-size) with shared ones.
      set(_overflow_limit 8192)
      if(LLGO_WASM_BACKEND_${_cid}_STACKS STREQUAL "shared")
        set(_overflow_limit ${LLGO_WASM_TARGET_DEFAULT_STACK_SIZE})
      endif()
      llgo_wasm_add_run_test(NAME ${_name}.stack-overflow VARIANT ${_variant} ENGINE ${_engine}
        LABELS fixture ${_backend} ${_modes_tier} COMMAND ${_command} EXIT 2
        ENV LLGO_WASM_SCHEDULER_STACK_OVERFLOW=1
        STDOUT "recursing past the stack"
        STDERR "runtime: goroutine stack exceeds ${_overflow_limit}-byte limit" "fatal error: stack overflow")
    endif()

    # The other optimisation levels and LTO builds of a post-link target (fixtures.cmake): the
    # normal run and an unrecovered panic (setjmp/longjmp through Asyncify and exnref) for each.
    # The full tier's (LlgoWasmTestTiers.cmake): the default tier runs the target's own level.
    foreach(_opt O0 O3 thinlto lto)
      if(NOT TARGET scheduler_${_cid}_${_opt})
        continue()
      endif()
      llgo_wasm_program_for(_program scheduler_${_cid}_${_opt} ${_engine})
      llgo_wasm_engine_command(_command ${_engine} "$<TARGET_FILE:${_program}>")
      set(_name fixture.${_variant}.${_engine}.${_backend}-${_opt})
      set(_program_file "$<TARGET_FILE:${_program}>")
      llgo_wasm_add_run_test(NAME ${_name}.ok VARIANT ${_variant} ENGINE ${_engine} PROGRAM "${_program_file}"
        LABELS fixture ${_backend} ${_opt} full COMMAND ${_command} EXIT 0
        STDOUT "main: g=1 m=1 p=0 g.status=_Grunning p.status=_Prunning"
               "${_order}"
               "serial lifecycles: 5000 ok" "parked at once: ${_parked}, readied and finished ok"
               "parked 1000 frames deep, every address-taken local intact"
               "yield storm: 64 goroutines x 100 yields at depths 1-8 ok"
               "wasm scheduler ok")
      llgo_wasm_add_run_test(NAME ${_name}.panic VARIANT ${_variant} ENGINE ${_engine} PROGRAM "${_program_file}"
        LABELS fixture ${_backend} ${_opt} full COMMAND ${_command} EXIT 2
        ENV LLGO_WASM_SCHEDULER_PANIC=1 STDERR "panic: fixture panic in a goroutine")
    endforeach()
  endforeach()
endforeach()
set(LLGO_WASM_TARGET_ENGINES "${_all_engines}")

# The goroutine-limits fixture (fixtures.cmake builds it for backends with engine stacks).
foreach(_backend IN LISTS LLGO_WASM_FIXTURE_BACKENDS)
  string(REPLACE "-" "_" _cid "${_backend}")
  if(NOT TARGET goroutine_limits_${_cid})
    continue()
  endif()
  llgo_wasm_read_target("${LLGO_WASM_TARGET}" CONTEXT ${LLGO_WASM_BACKEND_${_cid}_CONTEXT}
                        STACKS ${LLGO_WASM_BACKEND_${_cid}_STACKS})
  set(_cap ${LLGO_WASM_TARGET_MAX_GOROUTINES})
  foreach(_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
    llgo_wasm_program_for(_program goroutine_limits_${_cid} ${_engine})
    llgo_wasm_engine_command(_command ${_engine} "$<TARGET_FILE:${_program}>")
    set(_name fixture.${_variant}.${_engine}.${_backend})
    llgo_wasm_add_run_test(NAME ${_name}.panics-across-switches VARIANT ${_variant} ENGINE ${_engine}
      LABELS fixture ${_backend} COMMAND ${_command} EXIT 0 STDOUT "panics across switches ok")
    llgo_wasm_add_run_test(NAME ${_name}.escaping-longjmp VARIANT ${_variant} ENGINE ${_engine}
      LABELS fixture ${_backend} COMMAND ${_command} escape EXIT 2
      STDOUT "goroutine longjmps to main's jmp_buf"
      STDERR "fatal error: goroutine 2: a longjmp left the goroutine's stack (to a jmp_buf none of its frames set)")
    if("jspi-stack-cap" IN_LIST LLGO_WASM_ENGINE_${_engine}_PROVIDES AND "engine-stacks" IN_LIST LLGO_WASM_TARGET_CAPABILITIES
       AND NOT _cap GREATER 0)
      # An engine that caps suspended stacks at run time (JSPI on V8 14: the glue asks the
      # engine's version and, under Node, vm.max_map_count): past the cap, the runtime's fatal
      # error, never the engine's abort (Node) or a crashed tab (a browser). The cap the glue
      # should compute, restated: in a browser (which cannot read the setting) 15,000; under Node
      # 30,000 per 65,530 mappings of this machine's vm.max_map_count (Linux's default 65,530 when
      # it cannot be read). A sampled engine (a browser) runs it in the full tier, as its other
      # failing modes.
      set(_cap_tier "")
      if(LLGO_WASM_ENGINE_${_engine}_SAMPLED)
        set(_cap_tier full)
      endif()
      if("browser" IN_LIST LLGO_WASM_ENGINE_${_engine}_LABELS)
        set(_engine_cap 15000)
      else()
        set(_maps 65530)
        if(EXISTS /proc/sys/vm/max_map_count)
          file(STRINGS /proc/sys/vm/max_map_count _maps LIMIT_COUNT 1)
        endif()
        math(EXPR _engine_cap "${_maps} * 30000 / 65530")
      endif()
      math(EXPR _engine_past "${_engine_cap} + 1")
      llgo_wasm_add_run_test(NAME ${_name}.past-engine-cap VARIANT ${_variant} ENGINE ${_engine}
        LABELS fixture ${_backend} ${_cap_tier} COMMAND ${_command} until-refused 200000 EXIT 2 TIMEOUT 600
        STDERR "fatal error: cannot create goroutine ${_engine_past} (stack 4096 bytes): more than ${_engine_cap} goroutines alive at once (the JSPI backend's cap on this engine: it maps memory for every suspended stack and aborts the process past vm.max_map_count)")
    endif()
    if(_cap GREATER 0)
      math(EXPR _past "${_cap} + 1")
      llgo_wasm_add_run_test(NAME ${_name}.at-goroutine-cap VARIANT ${_variant} ENGINE ${_engine}
        LABELS fixture ${_backend} COMMAND ${_command} cap EXIT 0 TIMEOUT 300
        STDOUT "live goroutines at the cap: ${_cap} ok")
      llgo_wasm_add_run_test(NAME ${_name}.past-goroutine-cap VARIANT ${_variant} ENGINE ${_engine}
        LABELS fixture ${_backend} COMMAND ${_command} past-cap EXIT 2 TIMEOUT 300
        STDERR "fatal error: cannot create goroutine ${_past} (stack 4096 bytes): more than ${_cap} goroutines alive at once (the stack-switching backend's cap: the engine maps a stack for each)")
    endif()
  endforeach()
endforeach()
llgo_wasm_read_target("${LLGO_WASM_TARGET}")

# The final modules the driver linked (every target's: no legacy exception handling; each against
# the exception-handling model its context's resolved target says; a WASI one's also against what
# the target's capabilities promise), read with independent tools (wabt, Binaryen):
# tests/harness/check_module.py.
if(LLGO_WASM_DRIVER_LINKED_MODULES)
  set(_written "")
  foreach(_module IN LISTS LLGO_WASM_DRIVER_LINKED_MODULES)
    if(NOT _module MATCHES "^scheduler_")
      continue()
    endif()
    # Checked against the resolved target of the context and stack mode it is linked for
    # (capabilities.eh is per context: context-eh).
    get_target_property(_module_context ${_module} LLGO_WASM_CONTEXT)
    get_target_property(_module_stacks ${_module} LLGO_WASM_STACKS)
    set(_module_json "${CMAKE_BINARY_DIR}/resolved-target-${_module_context}-${_module_stacks}.json")
    if(NOT _module_json IN_LIST _written)
      llgo_wasm_read_target("${LLGO_WASM_TARGET}" CONTEXT ${_module_context} STACKS ${_module_stacks})
      file(WRITE "${_module_json}" "${LLGO_WASM_TARGET_JSON}\n")
      list(APPEND _written "${_module_json}")
    endif()
    add_test(NAME module.${_variant}.${_module}
      COMMAND ${Python3_EXECUTABLE} "${ROOT}/tests/harness/check_module.py"
              --target-json "${_module_json}" --wasm-opt "${LLGO_WASM_WASMOPT}"
              "$<TARGET_FILE:${_module}>")
    # A module built only for the full tier is checked there (LlgoWasmTestTiers.cmake).
    get_target_property(_module_tier ${_module} LLGO_WASM_TIER)
    if(NOT _module_tier STREQUAL "full")
      set(_module_tier "")
    endif()
    set_tests_properties(module.${_variant}.${_module} PROPERTIES LABELS "${_variant};module;${_module_tier}")
  endforeach()
  llgo_wasm_read_target("${LLGO_WASM_TARGET}")
endif()

# The raw Asyncify backend's switch path after a real link (tests/harness/check_switch_path.py):
# the host side declared non-switching is not instrumented, the host loop's batch stays a function
# of its own, and a parked channel operation has one scheduler frame.
foreach(_cid IN LISTS LLGO_WASM_SWITCH_PATH_BACKENDS)
  add_test(NAME switch-path.${_variant}.${_cid}
    COMMAND ${Python3_EXECUTABLE} "${ROOT}/tests/harness/check_switch_path.py"
            --driver "${LLGO_WASM_DRIVER}" --target "${LLGO_WASM_TARGET}"
            --context "${LLGO_WASM_BACKEND_${_cid}_CONTEXT}" --stacks "${LLGO_WASM_BACKEND_${_cid}_STACKS}"
            --wasm-opt "${LLGO_WASM_WASMOPT}" --out "${CMAKE_CURRENT_BINARY_DIR}/switch-path-${_cid}"
            -- $<TARGET_OBJECTS:switch_path_objects_${_cid}> $<TARGET_FILE:llgo_runtime_${_cid}>
            $<TARGET_FILE:llgo_wasmcontext_${_cid}>
    COMMAND_EXPAND_LISTS)
  set_tests_properties(switch-path.${_variant}.${_cid} PROPERTIES LABELS "${_variant};module")
endforeach()
