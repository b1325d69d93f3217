# LlgoWasmFixtureTests.cmake: the scheduler fixture (tests/fixtures/scheduler.c) as ctest cases,
# one per variant x engine x backend x mode, with the exact expected lines and status. A backend
# is a context backend in its default stack mode ("asyncify": shared stacks) or in the other one
# ("asyncify-separate"). Names: fixture.<variant>.<engine>.<backend>.<mode>; the "ok" mode is
# also labelled "demo" (tools/run-demo.sh runs those). Included by LlgoWasmVariants.cmake.
include_guard(GLOBAL)
include(LlgoTestPrograms)
llgo_test_programs(_llgo_test_programs)

# The backends each variant's descriptor supports (cmake/wasm-variant builds one fixture each;
# a missing artifact fails its tests loudly), and those that share one stack.
set(_llgo_contexts_J32 emscripten-fiber asyncify asyncify-separate)
set(_llgo_contexts_J64 emscripten-fiber asyncify asyncify-separate)
set(_llgo_contexts_P1 asyncify asyncify-separate)
set(_llgo_contexts_P1T pthread)
set(_llgo_contexts_native ucontext ucontext-separate pthread)
set(_llgo_shared_stack_backends asyncify ucontext)

# The executable <exe> of this variant as llgo_wasm_engines takes it: a native target's file, a
# J32/J64 program without its .js/.mjs suffix, a P1/P1T module.
function(llgo_variant_artifact exe out)
  if(LLGO_WASM_VARIANT STREQUAL "native")
    set(${out} "$<TARGET_FILE:${exe}>" PARENT_SCOPE)
  elseif(LLGO_WASM_VARIANT MATCHES "^J")
    set(${out} "${LLGO_WASM_VARIANT_BINARY_DIR}/${exe}" PARENT_SCOPE)
  else()
    set(${out} "${LLGO_WASM_VARIANT_BINARY_DIR}/${exe}.wasm" PARENT_SCOPE)
  endif()
endfunction()

if(LLGO_WASM_VARIANT STREQUAL "native")
  # Native fixtures link the runtime libraries runtime/CMakeLists.txt builds for the host.
  set(_llgo_native_lib_ucontext llgo_runtime)
  set(_llgo_native_lib_ucontext-separate llgo_runtime_separate_stacks)
  set(_llgo_native_lib_pthread llgo_runtime_pthread)
  set(_contexts "")
  foreach(_ctx IN LISTS _llgo_contexts_native)
    if(NOT TARGET ${_llgo_native_lib_${_ctx}})
      message(WARNING "runtime library ${_llgo_native_lib_${_ctx}} not defined: no native ${_ctx} fixture")
      continue()
    endif()
    string(REPLACE "-" "_" _cid "${_ctx}")
    add_executable(scheduler_${_cid} tests/fixtures/scheduler.c)
    target_link_libraries(scheduler_${_cid} PRIVATE ${_llgo_native_lib_${_ctx}})
    target_compile_definitions(scheduler_${_cid} PRIVATE LLGO_FIXTURE_PTR=${CMAKE_SIZEOF_VOID_P}
      LLGO_FIXTURE_LONG=${LLGO_SIZEOF_LONG} LLGO_FIXTURE_SSIZE=${LLGO_SIZEOF_SSIZE_T})
    if(_ctx STREQUAL "pthread")
      target_compile_definitions(scheduler_${_cid} PRIVATE LLGO_FIXTURE_THREADED=1)
    endif()
    foreach(_program IN LISTS _llgo_test_programs)
      llgo_native_add_test_program(${_program} ${_cid} ${_llgo_native_lib_${_ctx}})
    endforeach()
    list(APPEND _contexts ${_ctx})
  endforeach()
  # Go's own output for the cases that mirror a Go program (the plain native preset only: the
  # sanitizer and coverage presets rebuild the C code, Go does not change).
  if(NOT LLGO_WASM_SANITIZE AND NOT LLGO_WASM_COVERAGE)
    foreach(_program IN LISTS _llgo_test_programs)
      llgo_add_go_reference_tests(${_program})
    endforeach()
  endif()
else()
  set(_contexts ${_llgo_contexts_${LLGO_WASM_VARIANT}})
endif()

foreach(_ctx IN LISTS _contexts)
  string(REPLACE "-" "_" _cid "${_ctx}")
  llgo_variant_artifact(scheduler_${_cid} _artifact)
  if(_ctx STREQUAL "pthread")
    set(_order "goroutines: park/ready, gosched/ready, panic/recover, goexit ok (causal order, threaded)")
    if(LLGO_WASM_VARIANT STREQUAL "native")
      set(_parked 10000)
    else()
      set(_parked 64)
    endif()
  else()
    set(_order "goroutines: park/ready, gosched/ready, panic/recover, goexit ok (exact FIFO order)")
    set(_parked 10000)
    if(_ctx IN_LIST _llgo_shared_stack_backends AND NOT LLGO_WASM_VARIANT STREQUAL "native")
      set(_parked 1000000)
    endif()
  endif()
  # The test programs (tests/programs.cmake), one ctest case per program case. The native
  # coverage preset counts their runs too (its report needs every one).
  set(_program_properties "")
  set(_program_checks "")
  if(LLGO_WASM_COVERAGE)
    set(_program_properties FIXTURES_REQUIRED llgo_runtime_cov)
  endif()
  foreach(_program IN LISTS _llgo_test_programs)
    llgo_variant_artifact(${_program}_${_cid} _program_artifact)
    llgo_add_test_program_cases(${_program} ${_ctx} "${_program_artifact}"
      PROPERTIES ${_program_properties} CHECK_OPTIONS ${_program_checks})
  endforeach()

  llgo_wasm_engines(${LLGO_WASM_VARIANT} "${_artifact}" _fx)
  foreach(_engine IN LISTS _fx_ENGINES)
    set(_name fixture.${LLGO_WASM_VARIANT}.${_engine}.${_ctx})
    llgo_wasm_add_run_test(NAME ${_name}.ok VARIANT ${LLGO_WASM_VARIANT} ENGINE ${_engine}
      LABELS fixture demo ${_ctx} COMMAND ${_fx_CMD_${_engine}} EXIT 0
      STDOUT "data model: uintptr=${_ptr} long=${_long} ssize_t=${_ssize}"
             "main: g=1 m=1 p=0 g.status=_Grunning p.status=_Prunning"
             "${_order}"
             "serial lifecycles: 5000 ok"
             "parked at once: ${_parked}, readied and finished ok"
             "parked 1000 frames deep, every address-taken local intact"
             "yield storm: 64 goroutines x 100 yields at depths 1-8 ok"
             "wasm scheduler ok")
    llgo_wasm_add_run_test(NAME ${_name}.deadlock VARIANT ${LLGO_WASM_VARIANT} ENGINE ${_engine}
      LABELS fixture ${_ctx} COMMAND ${_fx_CMD_${_engine}} EXIT 2
      ENV LLGO_WASM_SCHEDULER_DEADLOCK=1
      STDOUT "worker exiting while main is parked"
      STDERR "fatal error: all goroutines are asleep - deadlock!")
    llgo_wasm_add_run_test(NAME ${_name}.main-goexit VARIANT ${LLGO_WASM_VARIANT} ENGINE ${_engine}
      LABELS fixture ${_ctx} COMMAND ${_fx_CMD_${_engine}} EXIT 2
      ENV LLGO_WASM_SCHEDULER_MAIN_GOEXIT=1
      STDOUT "WORKER_RETURNING"
      STDERR "fatal error: no goroutines (main called runtime.Goexit) - deadlock!")
    llgo_wasm_add_run_test(NAME ${_name}.panic VARIANT ${LLGO_WASM_VARIANT} ENGINE ${_engine}
      LABELS fixture ${_ctx} COMMAND ${_fx_CMD_${_engine}} EXIT 2
      ENV LLGO_WASM_SCHEDULER_PANIC=1
      STDERR "panic: fixture panic in a goroutine")
    # SIZE_MAX, and the largest stack: the shared stack (main's 256 KiB), or (SIZE_MAX / 4) & ~15
    if(_ptr EQUAL 4)
      set(_size_max 4294967295)
      set(_largest 1073741808)
    else()
      set(_size_max 18446744073709551615)
      set(_largest 4611686018427387888)
    endif()
    if(_ctx IN_LIST _llgo_shared_stack_backends)
      set(_largest 262144)
    endif()
    llgo_wasm_add_run_test(NAME ${_name}.huge-stack VARIANT ${LLGO_WASM_VARIANT} ENGINE ${_engine}
      LABELS fixture ${_ctx} COMMAND ${_fx_CMD_${_engine}} EXIT 2
      ENV LLGO_WASM_SCHEDULER_HUGE_STACK=1
      STDERR "fatal error: llgo_go_stack: a ${_size_max}-byte stack is more than a goroutine can have here (at most ${_largest} bytes)")
    if(NOT LLGO_WASM_VARIANT STREQUAL "native" AND NOT _ctx STREQUAL "pthread")
      # Overflow on wasm lands in memory the context layer owns (its save space and stack), so
      # it is reported, never a trap. Natively a separate stack has nothing below it to land in.
      llgo_wasm_add_run_test(NAME ${_name}.save-overflow VARIANT ${LLGO_WASM_VARIANT} ENGINE ${_engine}
        LABELS fixture ${_ctx} COMMAND ${_fx_CMD_${_engine}} EXIT 2
        ENV LLGO_WASM_SCHEDULER_SAVE_OVERFLOW=1
        STDOUT "recursing with fat frames"
        STDERR "fatal error: goroutine 2: Asyncify save area overflow (the suspended call stack does not fit)")
      llgo_wasm_add_run_test(NAME ${_name}.stack-overflow VARIANT ${LLGO_WASM_VARIANT} ENGINE ${_engine}
        LABELS fixture ${_ctx} COMMAND ${_fx_CMD_${_engine}} EXIT 2
        ENV LLGO_WASM_SCHEDULER_STACK_OVERFLOW=1
        STDOUT "recursing past the stack"
        STDERR "fatal error: goroutine 2: stack overflow (the C stack went past its limit)")
    endif()
  endforeach()
endforeach()

# P1 at -O0, -O3, ThinLTO and full LTO: the normal run and an unrecovered panic (setjmp/longjmp
# through Asyncify and exnref) for each build.
if(LLGO_WASM_VARIANT STREQUAL "P1")
  foreach(_opt O0 O3 thinlto lto)
    llgo_wasm_engines(P1 "${LLGO_WASM_VARIANT_BINARY_DIR}/scheduler_asyncify_${_opt}.wasm" _fx)
    foreach(_engine IN LISTS _fx_ENGINES)
      set(_name fixture.P1.${_engine}.asyncify-${_opt})
      llgo_wasm_add_run_test(NAME ${_name}.ok VARIANT P1 ENGINE ${_engine}
        LABELS fixture asyncify ${_opt} COMMAND ${_fx_CMD_${_engine}} EXIT 0
        STDOUT "main: g=1 m=1 p=0 g.status=_Grunning p.status=_Prunning"
               "goroutines: park/ready, gosched/ready, panic/recover, goexit ok (exact FIFO order)"
               "serial lifecycles: 5000 ok" "parked at once: 1000000, readied and finished ok"
               "parked 1000 frames deep, every address-taken local intact"
               "yield storm: 64 goroutines x 100 yields at depths 1-8 ok"
               "wasm scheduler ok")
      llgo_wasm_add_run_test(NAME ${_name}.panic VARIANT P1 ENGINE ${_engine}
        LABELS fixture asyncify ${_opt} COMMAND ${_fx_CMD_${_engine}} EXIT 2
        ENV LLGO_WASM_SCHEDULER_PANIC=1 STDERR "panic: fixture panic in a goroutine")
    endforeach()
  endforeach()
endif()

# The final modules themselves (P1: a single-worker module, exnref only; P1T: shared memory).
if(LLGO_WASM_VARIANT MATCHES "^P1")
  if(LLGO_WASM_VARIANT STREQUAL "P1")
    set(_modules scheduler_asyncify scheduler_asyncify_O0 scheduler_asyncify_O3
                 scheduler_asyncify_thinlto scheduler_asyncify_lto)
  else()
    set(_modules scheduler_pthread)
  endif()
  foreach(_m IN LISTS _modules)
    add_test(NAME module.${LLGO_WASM_VARIANT}.${_m}
      COMMAND ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/tests/harness/check_module.py"
              --variant ${LLGO_WASM_VARIANT} --wasm-opt "${LLGO_WASM_WASMOPT}"
              "${LLGO_WASM_VARIANT_BINARY_DIR}/${_m}.wasm")
    set_tests_properties(module.${LLGO_WASM_VARIANT}.${_m} PROPERTIES LABELS "${LLGO_WASM_VARIANT};module")
  endforeach()
endif()

