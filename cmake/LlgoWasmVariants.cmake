# LlgoWasmVariants.cmake: what the superbuild builds and tests for LLGO_WASM_VARIANT.
#
#   native         the smoke program with the host compiler, run natively;
#   J32 J64 P1 P1T cmake/wasm-variant as an external project with the variant's toolchain file,
#                  after the driver; its outputs run under the variant's engines:
#                  J32/J64: Node >= 24, `.js` directly and `.mjs` through `import`;
#                  P1:      Node's WASI (tests/runners/run-wasi.mjs), and Wasmtime when on PATH;
#                  P1T:     the wasi-threads runner (tests/runners/run-wasi-threads.mjs).
# Every run is a ctest case checked by tests/harness/check_run.py (exact exit status and lines),
# labelled with the variant.
include_guard(GLOBAL)
include(LlgoWasmToolchainPaths)
include(ExternalProject)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(LLGO_WASM_CHECK_RUN "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tests/harness/check_run.py")
set(LLGO_WASM_RUNNERS "${PROJECT_SOURCE_DIR}/tests/runners")

# The data model each variant must have (uintptr, long, ssize_t), from ARCHITECTURE.md's table.
set(_llgo_model_J32 "4 4 4")
set(_llgo_model_J64 "8 8 8")
set(_llgo_model_P1 "4 4 4")
set(_llgo_model_P1T "4 4 4")

function(llgo_wasm_require_node)
  if(NOT LLGO_WASM_NODE OR NOT EXISTS "${LLGO_WASM_NODE}")
    message(FATAL_ERROR "Node >= 24 not found (looked at NODE, ${LLGO_WASM_TOOLCHAIN_DIR}/bin/node, PATH). Run tools/setup-toolchain.sh or set NODE.")
  endif()
  execute_process(COMMAND "${LLGO_WASM_NODE}" --version OUTPUT_VARIABLE _v OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _v MATCHES "^v([0-9]+)\\." OR CMAKE_MATCH_1 LESS 24)
    message(FATAL_ERROR "${LLGO_WASM_NODE} is Node '${_v}'; llgo-wasm needs Node >= 24 (exnref, final Memory64). Set NODE or run tools/setup-toolchain.sh.")
  endif()
endfunction()

# llgo_wasm_add_run_test(NAME name VARIANT v ENGINE e COMMAND cmd... EXIT n
#                        [STDOUT lines...] [STDERR lines...] [ENV K=V...])
function(llgo_wasm_add_run_test)
  cmake_parse_arguments(PARSE_ARGV 0 T "" "NAME;VARIANT;ENGINE;EXIT;TIMEOUT" "COMMAND;STDOUT;STDERR;ENV;LABELS")
  set(args --exit ${T_EXIT})
  foreach(l IN LISTS T_STDOUT)
    list(APPEND args "--stdout-line=${l}")
  endforeach()
  foreach(l IN LISTS T_STDERR)
    list(APPEND args "--stderr-line=${l}")
  endforeach()
  foreach(e IN LISTS T_ENV)
    list(APPEND args "--env=${e}")
  endforeach()
  if(T_TIMEOUT)
    list(APPEND args --timeout ${T_TIMEOUT})
  endif()
  add_test(NAME ${T_NAME} COMMAND ${LLGO_WASM_CHECK_RUN} ${args} -- ${T_COMMAND})
  # LLGO_WASM_ENGINE_LABELS_<engine>: labels every case of an engine carries (chromium: browser)
  set_tests_properties(${T_NAME} PROPERTIES LABELS
    "${T_VARIANT};${T_ENGINE};${LLGO_WASM_ENGINE_LABELS_${T_ENGINE}};${T_LABELS}")
endfunction()

# The commands that run <artifact> of <variant> on each engine: sets <out>_ENGINES and
# <out>_CMD_<engine> in the caller. J32/J64 artifacts are given without suffix (.js/.mjs added).
function(llgo_wasm_engines variant artifact out)
  set(engines "")
  if(variant MATCHES "^J")
    list(APPEND engines node-js node-esm)
    set(${out}_CMD_node-js "${LLGO_WASM_NODE};${artifact}.js" PARENT_SCOPE)
    set(${out}_CMD_node-esm "${LLGO_WASM_NODE};${LLGO_WASM_RUNNERS}/run-emscripten-esm.mjs;${artifact}_esm.mjs" PARENT_SCOPE)
  elseif(variant STREQUAL "P1")
    list(APPEND engines node-wasi)
    set(${out}_CMD_node-wasi "${LLGO_WASM_NODE};${LLGO_WASM_RUNNERS}/run-wasi.mjs;${artifact}" PARENT_SCOPE)
    if(LLGO_WASM_WASMTIME)
      list(APPEND engines wasmtime)
      set(${out}_CMD_wasmtime "${LLGO_WASM_WASMTIME};run;-W;exceptions=y;${artifact}" PARENT_SCOPE)
    endif()
  elseif(variant STREQUAL "P1T")
    list(APPEND engines node-wasi-threads)
    set(${out}_CMD_node-wasi-threads "${LLGO_WASM_NODE};${LLGO_WASM_RUNNERS}/run-wasi-threads.mjs;${artifact}" PARENT_SCOPE)
    if(LLGO_WASM_WASMTIME)
      list(APPEND engines wasmtime)
      set(${out}_CMD_wasmtime "${LLGO_WASM_WASMTIME};run;-W;threads=y;-S;threads=y;${artifact}" PARENT_SCOPE)
    endif()
  else()
    list(APPEND engines native)
    set(${out}_CMD_native "${artifact}" PARENT_SCOPE)
  endif()
  # NO_BROWSER (4th argument): Node/WASI engines only; the test programs (hundreds of cases) use
  # it, so a browser starts only for the smoke program and the scheduler fixture's modes.
  if(COMMAND llgo_wasm_add_browser_engine AND NOT "NO_BROWSER" IN_LIST ARGN)
    llgo_wasm_add_browser_engine(${variant} "${artifact}" engines ${out}) # LlgoWasmBrowserTests.cmake
  endif()
  set(${out}_ENGINES "${engines}" PARENT_SCOPE)
endfunction()

set(LLGO_WASM_VARIANT_LABEL "${LLGO_WASM_VARIANT}")

if(LLGO_WASM_VARIANT STREQUAL "native")
  include(CheckTypeSize)
  check_type_size(long LLGO_SIZEOF_LONG)
  check_type_size(ssize_t LLGO_SIZEOF_SSIZE_T)
  set(_llgo_model_native "${CMAKE_SIZEOF_VOID_P} ${LLGO_SIZEOF_LONG} ${LLGO_SIZEOF_SSIZE_T}")
  add_executable(smoke tests/fixtures/smoke.c)
  set(_artifact "$<TARGET_FILE:smoke>")
  set(LLGO_WASM_VARIANT_BINARY_DIR "${CMAKE_BINARY_DIR}")
else()
  llgo_wasm_require_node()
  set(_tc_J32 emscripten-wasm32)
  set(_tc_J64 emscripten-wasm64)
  set(_tc_P1 wasip1)
  set(_tc_P1T wasip1-threads)
  set(LLGO_WASM_VARIANT_BINARY_DIR "${CMAKE_BINARY_DIR}/wasm")
  set(_deps "")
  set(_driver_arg "")
  if(TARGET llgo-wasm)
    set(_deps llgo-wasm)
    set(_driver_arg "-DLLGO_WASM_DRIVER=$<TARGET_FILE:llgo-wasm>")
  endif()
  ExternalProject_Add(wasm-variant
    SOURCE_DIR "${PROJECT_SOURCE_DIR}/cmake/wasm-variant"
    BINARY_DIR "${LLGO_WASM_VARIANT_BINARY_DIR}"
    CMAKE_GENERATOR Ninja
    CMAKE_ARGS
      "-DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/cmake/toolchains/${_tc_${LLGO_WASM_VARIANT}}.cmake"
      "-DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}"
      "-DLLGO_WASM_VARIANT=${LLGO_WASM_VARIANT}"
      "-DLLGO_WASM_SOURCE_ROOT=${PROJECT_SOURCE_DIR}"
      "-DLLGO_WASM_TOOLCHAIN_DIR=${LLGO_WASM_TOOLCHAIN_DIR}"
      ${_driver_arg}
    DEPENDS ${_deps}
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    USES_TERMINAL_CONFIGURE ON
    USES_TERMINAL_BUILD ON)
  if(LLGO_WASM_VARIANT MATCHES "^J")
    set(_artifact "${LLGO_WASM_VARIANT_BINARY_DIR}/smoke")
  else()
    set(_artifact "${LLGO_WASM_VARIANT_BINARY_DIR}/smoke.wasm")
  endif()
endif()

# Headless Chromium as one more engine of J32, J64 and P1 (label "browser").
if(EXISTS "${PROJECT_SOURCE_DIR}/cmake/LlgoWasmBrowserTests.cmake")
  include(LlgoWasmBrowserTests)
endif()

# Smoke: the data model reaches the program as the variant says, and exit status 2 reaches ctest.
string(REPLACE " " ";" _model "${_llgo_model_${LLGO_WASM_VARIANT}}")
list(GET _model 0 _ptr)
list(GET _model 1 _long)
list(GET _model 2 _ssize)
llgo_wasm_engines(${LLGO_WASM_VARIANT} "${_artifact}" _smoke)
foreach(_engine IN LISTS _smoke_ENGINES)
  foreach(_status 0 2)
    llgo_wasm_add_run_test(NAME smoke.${LLGO_WASM_VARIANT}.${_engine}.exit${_status}
      VARIANT ${LLGO_WASM_VARIANT} ENGINE ${_engine} LABELS smoke
      COMMAND ${_smoke_CMD_${_engine}} ${_status}
      EXIT ${_status}
      STDOUT "data model: uintptr=${_ptr} long=${_long} ssize_t=${_ssize}" "exiting with ${_status}")
  endforeach()
endforeach()

if(EXISTS "${PROJECT_SOURCE_DIR}/cmake/LlgoWasmFixtureTests.cmake")
  include(LlgoWasmFixtureTests)
endif()

# Benchmarks (bench/): native benchmark programs and the bench targets of the superbuild.
if(EXISTS "${PROJECT_SOURCE_DIR}/bench/superbuild.cmake")
  include("${PROJECT_SOURCE_DIR}/bench/superbuild.cmake")
endif()
