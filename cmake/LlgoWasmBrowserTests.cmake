# LlgoWasmBrowserTests.cmake: every J32, J64 and P1 program the variant tests run under Node also
# runs in a real browser, headless Chromium, checked for the same lines and exit status.
#
# The engine is called "chromium" and its tests carry the label "browser". llgo_wasm_engines
# (LlgoWasmVariants.cmake) asks llgo_wasm_add_browser_engine for it, so the smoke program and
# every scheduler-fixture mode (ok, deadlock, main-goexit, panic; both context backends on
# J32/J64) get a chromium case beside their Node cases. J32/J64 run their ES-module build (.mjs),
# P1 its .wasm through npm's @bjorn3/browser_wasi_shim. tests/browser/run-in-chromium.mjs serves
# the page on a loopback port, drives Debian's Chromium through npm's playwright-core and reports
# like a process (docs/browser.md). On J32 the example page (examples/browser) is opened too.
#
# Inputs (cache variables):
#   LLGO_WASM_BROWSER_TESTS  ON (default): add the chromium cases. OFF leaves them out and says so.
#   LLGO_WASM_CHROMIUM       the browser: $CHROMIUM, else `chromium` on PATH (Debian's package).
#   LLGO_WASM_NODE_MODULES   where playwright-core and the WASI shim are: the toolchain's npm
#                            folder (tools/setup-toolchain.sh installs both, pinned).
# A missing browser or package does not stop the configuration: the chromium cases then fail,
# each saying what is missing, so they are never silently skipped.
include_guard(GLOBAL)
include(LlgoWasmToolchainPaths)

option(LLGO_WASM_BROWSER_TESTS "Run the J32, J64 and P1 programs in headless Chromium too" ON)
if(DEFINED ENV{CHROMIUM} AND NOT "$ENV{CHROMIUM}" STREQUAL "")
  set(LLGO_WASM_CHROMIUM "$ENV{CHROMIUM}" CACHE FILEPATH "Chromium for the browser tests")
else()
  find_program(LLGO_WASM_CHROMIUM NAMES chromium)
endif()
set(LLGO_WASM_NODE_MODULES "${LLGO_WASM_TOOLCHAIN_DIR}/npm/node_modules" CACHE PATH
  "node_modules holding playwright-core and @bjorn3/browser_wasi_shim")

set(LLGO_WASM_ENGINE_LABELS_chromium browser)
set(LLGO_WASM_BROWSER_RUN "${LLGO_WASM_NODE}" "${PROJECT_SOURCE_DIR}/tests/browser/run-in-chromium.mjs"
  --chromium "${LLGO_WASM_CHROMIUM}" --node-modules "${LLGO_WASM_NODE_MODULES}")

if(NOT LLGO_WASM_BROWSER_TESTS)
  message(STATUS "browser tests: off (LLGO_WASM_BROWSER_TESTS=OFF)")
elseif(LLGO_WASM_VARIANT MATCHES "^(J32|J64|P1)$")
  foreach(_missing_check IN ITEMS "${LLGO_WASM_CHROMIUM}" "${LLGO_WASM_NODE_MODULES}/playwright-core/package.json"
                                  "${LLGO_WASM_NODE_MODULES}/@bjorn3/browser_wasi_shim/package.json")
    if(NOT EXISTS "${_missing_check}")
      message(WARNING "browser tests: '${_missing_check}' not found; the chromium cases will fail until "
        "tools/setup-toolchain.sh has installed Chromium and the npm packages (or set CHROMIUM / LLGO_WASM_NODE_MODULES)")
    endif()
  endforeach()
endif()

# llgo_wasm_add_browser_engine(<variant> <artifact> <engines-var> <out>): called inside
# llgo_wasm_engines; a macro so it appends to that function's engine list and sets the command
# in its caller (<out>_CMD_chromium), as the function does for its own engines.
macro(llgo_wasm_add_browser_engine _browser_variant _browser_artifact _browser_engines _browser_out)
  if(LLGO_WASM_BROWSER_TESTS AND "${_browser_variant}" MATCHES "^(J32|J64|P1)$")
    list(APPEND ${_browser_engines} chromium)
    if("${_browser_variant}" MATCHES "^J")
      set(${_browser_out}_CMD_chromium "${LLGO_WASM_BROWSER_RUN};emscripten;${_browser_artifact}_esm.mjs" PARENT_SCOPE)
    else()
      set(${_browser_out}_CMD_chromium "${LLGO_WASM_BROWSER_RUN};wasi;${_browser_artifact}" PARENT_SCOPE)
    endif()
  endif()
endmacro()

# The WASI host calls the fixtures do not make (clocks, random bytes, a sleep through poll_oneoff),
# compiled here and run on every P1 engine, so the browser's WASI shim must answer as Node does.
if(LLGO_WASM_VARIANT STREQUAL "P1")
  set(_browser_wasi_host "${CMAKE_BINARY_DIR}/browser/wasi_host.wasm")
  add_custom_command(OUTPUT "${_browser_wasi_host}"
    COMMAND "${LLGO_WASM_CLANG}" --target=wasm32-wasip1 "--sysroot=${LLGO_WASM_WASI_SYSROOT}"
            -resource-dir "${LLGO_WASM_CLANG_RESOURCE_DIR}" -O2 -Wall -Wextra -Werror
            "${PROJECT_SOURCE_DIR}/tests/browser/fixtures/wasi_host.c" -o "${_browser_wasi_host}"
    DEPENDS "${PROJECT_SOURCE_DIR}/tests/browser/fixtures/wasi_host.c"
    COMMENT "browser: compiling tests/browser/fixtures/wasi_host.c" VERBATIM)
  add_custom_target(browser_wasi_host ALL DEPENDS "${_browser_wasi_host}")
  llgo_wasm_engines(P1 "${_browser_wasi_host}" _browser_host)
  foreach(_engine IN LISTS _browser_host_ENGINES)
    llgo_wasm_add_run_test(NAME wasi-host.P1.${_engine} VARIANT P1 ENGINE ${_engine} LABELS wasi-host
      COMMAND ${_browser_host_CMD_${_engine}} 3 EXIT 3
      STDOUT "realtime clock: after 2020" "random: two draws differ"
             "sleep 20 ms: monotonic clock advanced at least 20 ms")
  endforeach()
endif()

# The example page (examples/browser, built by cmake/wasm-variant on J32), opened as a person
# would: its visible text must show each goroutine's bar label as its callbacks left it, the exit
# status, and the log of the workers taking turns (FIFO: 1, 2, 3, 1, ...) with the right total.
if(LLGO_WASM_BROWSER_TESTS AND LLGO_WASM_VARIANT STREQUAL "J32")
  llgo_wasm_add_run_test(NAME examples.browser.goroutines VARIANT J32 ENGINE chromium LABELS example
    COMMAND ${LLGO_WASM_BROWSER_RUN} page "${LLGO_WASM_VARIANT_BINARY_DIR}/examples/browser"
    EXIT 0
    STDOUT "goroutine 1" "1229 primes (chunk 4/4)" "goroutine 2" "1033 primes (chunk 4/4)"
           "goroutine 3" "983 primes (chunk 4/4)" "exited with status 0"
           "goroutine 1: chunk 1/4, 367 primes so far" "goroutine 2: chunk 1/4, 263 primes so far"
           "goroutine 3: chunk 1/4, 253 primes so far" "goroutine 1: chunk 2/4, 669 primes so far"
           "goroutine 3: chunk 4/4, 983 primes so far"
           "3 goroutines found 3245 primes below 30000 (a plain loop finds 3245)")
endif()
