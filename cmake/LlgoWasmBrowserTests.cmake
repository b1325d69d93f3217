# LlgoWasmBrowserTests.cmake (target build): what the browser engines need besides their commands.
#
# The descriptors give J32, J64 and P1 an engine "chromium" (label "browser", sampled): headless
# Chromium runs the smoke program and every scheduler-fixture mode there too, checked for the same
# lines and exit status (tests/browser/run-in-chromium.mjs serves the page on a loopback port and
# drives Debian's Chromium through npm's playwright-core; docs/browser.md). This module:
#   - tells those runs where the browser and the npm packages are (LLGO_WASM_LABEL_ENVIRONMENT_browser);
#   - on a WASI target with a browser engine, builds tests/browser/fixtures/wasi_host.c (clocks,
#     random bytes, a sleep through poll_oneoff) and runs it on every engine, so the browser's WASI
#     shim must answer as Node does (wasi-host.<variant>.<engine>).
#
# Inputs (cache variables):
#   LLGO_WASM_BROWSER_TESTS  ON (default): keep the browser engines. OFF leaves them out and says so
#                            (LlgoWasmTargetFacts.cmake).
#   LLGO_WASM_CHROMIUM       the browser: $CHROMIUM, else `chromium` on PATH (Debian's package).
#   LLGO_WASM_NODE_MODULES   where playwright-core and the WASI shim are: the toolchain's npm
#                            folder (tools/setup-toolchain.sh installs both, pinned).
# A missing browser or package does not stop the configuration: the browser cases then fail,
# each saying what is missing, so they are never silently skipped.
include_guard(GLOBAL)
include(LlgoWasmRunTest)

set(_browser_engines "")
foreach(_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
  if("browser" IN_LIST LLGO_WASM_ENGINE_${_engine}_LABELS)
    list(APPEND _browser_engines ${_engine})
  endif()
endforeach()
if(NOT _browser_engines)
  return()
endif()

if(DEFINED ENV{CHROMIUM} AND NOT "$ENV{CHROMIUM}" STREQUAL "")
  set(LLGO_WASM_CHROMIUM "$ENV{CHROMIUM}" CACHE FILEPATH "Chromium for the browser tests")
else()
  find_program(LLGO_WASM_CHROMIUM NAMES chromium)
endif()
set(LLGO_WASM_NODE_MODULES "${LLGO_WASM_TOOLCHAIN_DIR}/npm/node_modules" CACHE PATH
  "node_modules holding playwright-core and @bjorn3/browser_wasi_shim")
foreach(_missing_check IN ITEMS "${LLGO_WASM_CHROMIUM}" "${LLGO_WASM_NODE_MODULES}/playwright-core/package.json"
                                "${LLGO_WASM_NODE_MODULES}/@bjorn3/browser_wasi_shim/package.json")
  if(NOT EXISTS "${_missing_check}")
    message(WARNING "browser tests: '${_missing_check}' not found; the browser cases will fail until "
      "tools/setup-toolchain.sh has installed Chromium and the npm packages (or set CHROMIUM / LLGO_WASM_NODE_MODULES)")
  endif()
endforeach()
# One browser for all the browser cases of a ctest run (tests/browser/shared-chromium.mjs): ctest
# starts it before the first and stops it after the last (the fixture llgo_shared_chromium, which
# llgo_wasm_share_one_browser() gives every browser case once all are declared); a case run
# without it starts a browser of its own.
set(_llgo_shared_chromium_state "${CMAKE_BINARY_DIR}/shared-chromium.json")
set(LLGO_WASM_LABEL_ENVIRONMENT_browser "CHROMIUM=${LLGO_WASM_CHROMIUM}" "LLGO_WASM_NODE_MODULES=${LLGO_WASM_NODE_MODULES}"
    "LLGO_WASM_SHARED_CHROMIUM=${_llgo_shared_chromium_state}")
add_test(NAME browser.${LLGO_WASM_TARGET_VARIANT}.start-shared-chromium
  COMMAND "${LLGO_WASM_NODE}" "${ROOT}/tests/browser/shared-chromium.mjs" start "${_llgo_shared_chromium_state}"
          --chromium "${LLGO_WASM_CHROMIUM}")
add_test(NAME browser.${LLGO_WASM_TARGET_VARIANT}.stop-shared-chromium
  COMMAND "${LLGO_WASM_NODE}" "${ROOT}/tests/browser/shared-chromium.mjs" stop "${_llgo_shared_chromium_state}")
set_tests_properties(browser.${LLGO_WASM_TARGET_VARIANT}.start-shared-chromium PROPERTIES
  FIXTURES_SETUP llgo_shared_chromium LABELS "browser;${LLGO_WASM_TARGET_VARIANT}" TIMEOUT 120)
set_tests_properties(browser.${LLGO_WASM_TARGET_VARIANT}.stop-shared-chromium PROPERTIES
  FIXTURES_CLEANUP llgo_shared_chromium LABELS "browser;${LLGO_WASM_TARGET_VARIANT}" TIMEOUT 60)

# Every browser case declared in this directory uses the shared browser (called at the end of the
# target build, cmake/wasm-variant/CMakeLists.txt).
function(llgo_wasm_share_one_browser)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    get_test_property(${test} LABELS labels)
    if("browser" IN_LIST labels AND NOT test MATCHES "-shared-chromium$")
      set_property(TEST ${test} APPEND PROPERTY FIXTURES_REQUIRED llgo_shared_chromium)
    endif()
  endforeach()
endfunction()

# The WASI host calls the fixtures do not make, on every engine of a WASI target.
if("wasi" IN_LIST LLGO_WASM_TARGET_CAPABILITIES AND NOT LLGO_WASM_DEMO_ONLY)
  llgo_wasm_add_program(wasi_host SOURCES "${ROOT}/tests/browser/fixtures/wasi_host.c")
  foreach(_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
    llgo_wasm_program_for(_program wasi_host ${_engine})
    llgo_wasm_engine_command(_command ${_engine} "$<TARGET_FILE:${_program}>")
    llgo_wasm_add_run_test(NAME wasi-host.${LLGO_WASM_TARGET_VARIANT}.${_engine} VARIANT ${LLGO_WASM_TARGET_VARIANT}
      ENGINE ${_engine} LABELS wasi-host
      COMMAND ${_command} 3 EXIT 3
      STDOUT "realtime clock: after 2020" "random: two draws differ"
             "sleep 20 ms: monotonic clock advanced at least 20 ms")
  endforeach()
endif()
