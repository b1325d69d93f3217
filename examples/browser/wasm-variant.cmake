# examples/browser/wasm-variant.cmake: the browser example, included at the end of the target build
# (cmake/wasm-variant/CMakeLists.txt) when it builds the `wasm` target, after fixtures.cmake, so the
# runtime libraries and the target facts exist. Builds goroutines.c as an ES module with the
# target's default context backend and puts it beside index.html and main.js in
# <build>/target/examples/browser/, a folder any static HTTP server can serve as it is, and opens
# that page in headless Chromium as a person would (examples.browser.goroutines: its visible text
# must show each goroutine's bar label as its callbacks left it, the exit status, and the log of
# the workers taking turns, FIFO: 1, 2, 3, 1, ...).
# (Not a CMakeLists.txt: examples/CMakeLists.txt adds those to the host build.)
if(NOT LLGO_WASM_TARGET STREQUAL "wasm")
  return()
endif()

set(_example_dir "${CMAKE_BINARY_DIR}/examples/browser")
string(REPLACE "-" "_" _example_cid "${LLGO_WASM_TARGET_CONTEXT}")
add_executable(example_browser_goroutines "${ROOT}/examples/browser/goroutines.c")
target_compile_options(example_browser_goroutines PRIVATE ${LLGO_WASM_TARGET_CFLAGS})
target_link_libraries(example_browser_goroutines PRIVATE llgo_runtime_${_example_cid})
# Linked as a user's program is (llgo_wasm_link_runtime): through the driver.
llgo_wasm_link_target_program(example_browser_goroutines DRIVER "${LLGO_WASM_DRIVER}" TARGET_NAME "${LLGO_WASM_TARGET}"
  CONTEXT "${LLGO_WASM_TARGET_CONTEXT}" STACKS "${LLGO_WASM_TARGET_STACKS}")
set_target_properties(example_browser_goroutines PROPERTIES OUTPUT_NAME goroutines SUFFIX ".mjs"
  RUNTIME_OUTPUT_DIRECTORY "${_example_dir}")

set(_example_page "")
foreach(_example_file IN ITEMS index.html main.js)
  add_custom_command(OUTPUT "${_example_dir}/${_example_file}"
    COMMAND "${CMAKE_COMMAND}" -E copy "${ROOT}/examples/browser/${_example_file}" "${_example_dir}/${_example_file}"
    DEPENDS "${ROOT}/examples/browser/${_example_file}" VERBATIM)
  list(APPEND _example_page "${_example_dir}/${_example_file}")
endforeach()
add_custom_target(example_browser_page ALL DEPENDS ${_example_page})
message(STATUS "examples/browser uses the ${LLGO_WASM_TARGET_CONTEXT} context backend; serve ${_example_dir}")

if("chromium" IN_LIST LLGO_WASM_TARGET_ENGINES)
  llgo_wasm_add_run_test(NAME examples.browser.goroutines VARIANT ${LLGO_WASM_TARGET_VARIANT} ENGINE chromium
    LABELS example
    COMMAND "${LLGO_WASM_NODE}" "${ROOT}/tests/browser/run-in-chromium.mjs" page "${_example_dir}"
    EXIT 0
    STDOUT "goroutine 1" "1229 primes (chunk 4/4)" "goroutine 2" "1033 primes (chunk 4/4)"
           "goroutine 3" "983 primes (chunk 4/4)" "exited with status 0"
           "goroutine 1: chunk 1/4, 367 primes so far" "goroutine 2: chunk 1/4, 263 primes so far"
           "goroutine 3: chunk 1/4, 253 primes so far" "goroutine 1: chunk 2/4, 669 primes so far"
           "goroutine 3: chunk 4/4, 983 primes so far"
           "3 goroutines found 3245 primes below 30000 (a plain loop finds 3245)")
endif()
