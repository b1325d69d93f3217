# cmake/wasm-variant/fixtures.cmake: the runtime, the scheduler fixture and the test programs
# (tests/programs.cmake) for one wasm variant, once per execution-context backend the variant
# supports (J32/J64: emscripten-fiber and
# asyncify; P1: asyncify; P1T: pthread) and, where the backend can share a stack, once per stack
# mode: <name>_<cid> with the descriptor's default mode, <name>_<cid>_<mode> with the other one
# (e.g. scheduler_asyncify = shared, scheduler_asyncify_separate).
#
# Everything variant-specific comes from the driver: `llgo-wasm resolve --json` gives the data
# model and flags, `llgo-wasm sources` the runtime files whose //llgo:build line matches.
# The driver runs at configure time; the superbuild builds it before configuring this project.
if(NOT LLGO_WASM_DRIVER OR NOT EXISTS "${LLGO_WASM_DRIVER}")
  message(FATAL_ERROR "cmake/wasm-variant needs LLGO_WASM_DRIVER (the llgo-wasm CLI) to select runtime sources; got '${LLGO_WASM_DRIVER}'")
endif()
enable_language(ASM)
# Re-run this configuration when the driver (descriptors are built into it) or the set of
# runtime files changes: the selection below is computed here, at configure time.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${LLGO_WASM_DRIVER}")
file(GLOB _llgo_runtime_files CONFIGURE_DEPENDS "${ROOT}/runtime/src/*")

set(_target_J32 wasm)
set(_target_J64 js-wasm)
set(_target_P1 wasip1)
set(_target_P1T wasip1-threads)
set(LLGO_WASM_TARGET ${_target_${LLGO_WASM_VARIANT}})

# llgo_wasm_driver(<out-var> ARGS...): runs the driver; a failure stops the configuration with
# the driver's own message.
function(llgo_wasm_driver out)
  execute_process(COMMAND "${LLGO_WASM_DRIVER}" ${ARGN}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0)
    string(REPLACE ";" " " _args "${ARGN}")
    message(FATAL_ERROR "llgo-wasm ${_args} failed (${_rc}):\n${_err}")
  endif()
  set(${out} "${_out}" PARENT_SCOPE)
endfunction()

# JSON array -> CMake list of compile/link options; an entry may hold a flag and its argument
# ("-mllvm -x").
function(llgo_wasm_json_flags out json)
  set(_list "")
  string(JSON _n ERROR_VARIABLE _e LENGTH "${json}" ${ARGN})
  if(_e OR _n EQUAL 0)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  math(EXPR _last "${_n} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _v GET "${json}" ${ARGN} ${_i})
    # "SHELL:" keeps a flag and its argument together: CMake de-duplicates options, which
    # would otherwise merge two "-mllvm" into one.
    if(_v MATCHES " ")
      list(APPEND _list "SHELL:${_v}")
    else()
      list(APPEND _list "${_v}")
    endif()
  endforeach()
  set(${out} "${_list}" PARENT_SCOPE)
endfunction()

# llgo_wasm_add_runtime(<suffix> [OPTIONS <compile options>...]): the runtime as two static
# libraries: llgo_runtime_<suffix> (scheduler, G/M/P, panic, fatal) and llgo_wasmcontext_<suffix>
# (the context layer, built apart from the scheduler so it cannot reach into G/M/P state; the
# pthread backend has none). Uses _runtime_sources, _context_sources, _cflags and
# _runtime_defines (what the runtime takes from the descriptor) of the caller.
function(llgo_wasm_add_runtime suffix)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "OPTIONS")
  add_library(llgo_runtime_${suffix} STATIC ${_runtime_sources})
  target_include_directories(llgo_runtime_${suffix} PUBLIC "${ROOT}/runtime/include" PRIVATE "${ROOT}/runtime/src")
  target_compile_options(llgo_runtime_${suffix} PRIVATE ${_cflags} ${arg_OPTIONS})
  target_compile_definitions(llgo_runtime_${suffix} PRIVATE ${_runtime_defines})
  if(_context_sources)
    add_library(llgo_wasmcontext_${suffix} STATIC ${_context_sources})
    target_compile_options(llgo_wasmcontext_${suffix} PRIVATE ${_cflags} ${arg_OPTIONS})
    target_link_libraries(llgo_runtime_${suffix} PUBLIC llgo_wasmcontext_${suffix})
  endif()
endfunction()

# llgo_wasm_add_program(<exe> SOURCES <files>... RUNTIME <lib> [OPTIONS <compile and link
# options>...]): a C program on the runtime, linked the variant's way (Emscripten flags; P1/P1T
# through the driver's link); an <exe> ending in _esm is the J32/J64 ES-module form.
# Uses _defs, _cflags, _ldflags and _ctx of the caller.
function(llgo_wasm_add_program exe)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "RUNTIME" "SOURCES;OPTIONS")
  add_executable(${exe} ${arg_SOURCES})
  target_compile_definitions(${exe} PRIVATE ${_defs})
  target_compile_options(${exe} PRIVATE ${_cflags} ${arg_OPTIONS})
  target_link_libraries(${exe} PRIVATE ${arg_RUNTIME})
  target_link_options(${exe} PRIVATE ${_ldflags} ${arg_OPTIONS})
  if(LLGO_WASM_VARIANT MATCHES "^J")
    # main's status must reach the host; the environment must reach getenv (a pre-js copies
    # Node's process.env, which Emscripten does not do by itself).
    target_link_options(${exe} PRIVATE -sEXIT_RUNTIME=1 -sSTACK_SIZE=1048576
      "--pre-js=${ROOT}/tests/runners/emscripten-env-pre.js")
    set_property(TARGET ${exe} APPEND PROPERTY LINK_DEPENDS "${ROOT}/tests/runners/emscripten-env-pre.js")
    if(exe MATCHES "_esm$")
      set_target_properties(${exe} PROPERTIES SUFFIX ".mjs")
    endif()
    if(_ctx STREQUAL "asyncify")
      # emcc checks import names before its Asyncify pass replaces the asyncify.* intrinsics
      # the raw backend imports; this library names them (docs/runtime.md).
      target_link_options(${exe} PRIVATE "--js-library=${ROOT}/runtime/emscripten/asyncify_intrinsics.js")
    endif()
  endif()
  if(LLGO_WASM_VARIANT MATCHES "^P1")
    if(NOT COMMAND llgo_wasm_use_driver_link)
      message(FATAL_ERROR "cmake/LlgoWasmLink.cmake is missing: P1 executables are linked by the driver")
    endif()
    llgo_wasm_use_driver_link(${exe} DRIVER "${LLGO_WASM_DRIVER}" TARGET_NAME ${LLGO_WASM_TARGET} CONTEXT ${_ctx})
  endif()
endfunction()

# llgo_wasm_add_fixture(<exe> RUNTIME <lib> [OPTIONS ...]): the scheduler fixture.
function(llgo_wasm_add_fixture exe)
  llgo_wasm_add_program(${exe} SOURCES "${ROOT}/tests/fixtures/scheduler.c" ${ARGN})
endfunction()

llgo_wasm_driver(_resolved resolve --json --target ${LLGO_WASM_TARGET})
string(JSON _contexts GET "${_resolved}" capabilities supported_contexts)
string(JSON _ncontexts LENGTH "${_contexts}")
math(EXPR _ncontexts "${_ncontexts} - 1")

if(EXISTS "${ROOT}/cmake/LlgoWasmLink.cmake")
  include("${ROOT}/cmake/LlgoWasmLink.cmake")
endif()
include("${ROOT}/cmake/LlgoTestPrograms.cmake")

# The stack modes to build for one context: the resolved default first, then each other mode
# the descriptor supports and the driver accepts for this context.
function(llgo_wasm_stack_modes out context)
  llgo_wasm_driver(_r resolve --json --target ${LLGO_WASM_TARGET} --context ${context})
  string(JSON _default GET "${_r}" capabilities stacks)
  string(JSON _supported GET "${_r}" capabilities supported_stacks)
  string(JSON _n LENGTH "${_supported}")
  math(EXPR _n "${_n} - 1")
  set(_modes "${_default}")
  foreach(_i RANGE ${_n})
    string(JSON _mode GET "${_supported}" ${_i})
    if(NOT _mode STREQUAL _default)
      execute_process(COMMAND "${LLGO_WASM_DRIVER}" resolve --target ${LLGO_WASM_TARGET} --context ${context}
                              --stacks ${_mode}
                      RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
      if(_rc EQUAL 0)
        list(APPEND _modes "${_mode}")
      endif()
    endif()
  endforeach()
  set(${out} "${_modes}" PARENT_SCOPE)
endfunction()

# LLGO_WASM_FIXTURE_BACKENDS: one entry per built runtime, "<context>" for the default stack
# mode and "<context>-<mode>" for the other (the ids the tests and benchmarks use).
set(LLGO_WASM_FIXTURE_CONTEXTS "")
set(LLGO_WASM_FIXTURE_BACKENDS "")
foreach(_ci RANGE ${_ncontexts})
  string(JSON _ctx GET "${_contexts}" ${_ci})
  list(APPEND LLGO_WASM_FIXTURE_CONTEXTS ${_ctx})
  llgo_wasm_stack_modes(_modes ${_ctx})
  list(GET _modes 0 _default_mode)
  foreach(_mode IN LISTS _modes)
    string(REPLACE "-" "_" _cid "${_ctx}")
    set(_backend "${_ctx}")
    set(_stacks_args "")
    if(NOT _mode STREQUAL _default_mode)
      string(APPEND _cid "_${_mode}")
      string(APPEND _backend "-${_mode}")
      set(_stacks_args --stacks ${_mode})
    endif()
    list(APPEND LLGO_WASM_FIXTURE_BACKENDS ${_backend})

    llgo_wasm_driver(_r resolve --json --target ${LLGO_WASM_TARGET} --context ${_ctx} ${_stacks_args})
    llgo_wasm_json_flags(_cflags "${_r}" cflags)
    llgo_wasm_json_flags(_ldflags "${_r}" ldflags)
    string(JSON _ptr GET "${_r}" data_model pointer)
    string(JSON _long GET "${_r}" data_model long)
    string(JSON _ssize GET "${_r}" data_model ssize_t)
    string(JSON _stack_size GET "${_r}" default_stack_size)
    set(_runtime_defines LLGO_DEFAULT_STACK_SIZE=${_stack_size})

    llgo_wasm_driver(_files sources --dir "${ROOT}/runtime/src" --target ${LLGO_WASM_TARGET} --context ${_ctx}
                     ${_stacks_args})
    string(REPLACE "\n" ";" _files "${_files}")
    set(_context_sources "")
    set(_runtime_sources "")
    foreach(_f IN LISTS _files)
      if(NOT _f MATCHES "\\.(c|S|s)$")
        continue()
      endif()
      if(_f MATCHES "^wasmcontext")
        list(APPEND _context_sources "${ROOT}/runtime/src/${_f}")
      else()
        list(APPEND _runtime_sources "${ROOT}/runtime/src/${_f}")
      endif()
    endforeach()
    message(STATUS "${LLGO_WASM_VARIANT}/${_backend}: runtime sources selected by the driver: ${_files}")

    llgo_wasm_add_runtime(${_cid})

    set(_defs LLGO_FIXTURE_PTR=${_ptr} LLGO_FIXTURE_LONG=${_long} LLGO_FIXTURE_SSIZE=${_ssize})
    if(_ctx STREQUAL "pthread")
      # one thread (a Worker in Node) per goroutine: 10,000 parked would be 10,000 Workers
      list(APPEND _defs LLGO_FIXTURE_THREADED=1 LLGO_FIXTURE_PARKED_COUNT=64)
    elseif(_mode STREQUAL "shared")
      # a parked goroutine keeps only the stack it used: a million fit in linear memory
      list(APPEND _defs LLGO_FIXTURE_PARKED_COUNT=1000000)
    endif()

    llgo_wasm_add_fixture(scheduler_${_cid} RUNTIME llgo_runtime_${_cid})
    if(LLGO_WASM_VARIANT MATCHES "^J")
      llgo_wasm_add_fixture(scheduler_${_cid}_esm RUNTIME llgo_runtime_${_cid})
    endif()
    llgo_wasm_add_test_programs(${_cid} RUNTIME llgo_runtime_${_cid})
    if(LLGO_WASM_VARIANT STREQUAL "P1" AND _mode STREQUAL _default_mode)
      # P1 at other optimisation levels, with ThinLTO and with full LTO (runtime and fixture
      # alike): the link pipeline (SjLj legacy EH -> Asyncify -> exnref) must hold for each.
      # (Upstream LLGo hits an LLVM 19 crash with full LTO in Go's runtime.printany; this C runtime
      # does not, so full LTO is an ordinary case here.)
      foreach(_opt O0 O3 thinlto lto)
        if(_opt STREQUAL "thinlto")
          set(_opt_flags -flto=thin)
        elseif(_opt STREQUAL "lto")
          set(_opt_flags -flto)
        else()
          set(_opt_flags -${_opt})
        endif()
        llgo_wasm_add_runtime(${_cid}_${_opt} OPTIONS ${_opt_flags})
        llgo_wasm_add_fixture(scheduler_${_cid}_${_opt} RUNTIME llgo_runtime_${_cid}_${_opt} OPTIONS ${_opt_flags})
      endforeach()
    endif()
  endforeach()
endforeach()

# What the superbuild's tests need to know about this build.
file(WRITE "${CMAKE_BINARY_DIR}/fixtures.env" "LLGO_WASM_FIXTURE_CONTEXTS=${LLGO_WASM_FIXTURE_CONTEXTS}\n"
  "LLGO_WASM_FIXTURE_BACKENDS=${LLGO_WASM_FIXTURE_BACKENDS}\n")
