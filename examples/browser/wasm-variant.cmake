# examples/browser/wasm-variant.cmake: the browser example, included at the end of
# cmake/wasm-variant/CMakeLists.txt on J32 (after fixtures.cmake, so the runtime libraries,
# llgo_wasm_driver() and llgo_wasm_json_flags() exist). Builds goroutines.c as an ES module with
# the variant's default context backend and puts it beside index.html and main.js in
# <build>/wasm/examples/browser/, a folder any static HTTP server can serve as it is.
# (Not a CMakeLists.txt: examples/CMakeLists.txt adds those to the native build.)
if(NOT LLGO_WASM_VARIANT STREQUAL "J32")
  return()
endif()

set(_example_dir "${CMAKE_BINARY_DIR}/examples/browser")
llgo_wasm_driver(_example_resolved resolve --json --target ${LLGO_WASM_TARGET})
string(JSON _example_ctx GET "${_example_resolved}" capabilities context)
string(REPLACE "-" "_" _example_cid "${_example_ctx}")
llgo_wasm_driver(_example_resolved resolve --json --target ${LLGO_WASM_TARGET} --context ${_example_ctx})
llgo_wasm_json_flags(_example_cflags "${_example_resolved}" cflags)
llgo_wasm_json_flags(_example_ldflags "${_example_resolved}" ldflags)

add_executable(example_browser_goroutines "${ROOT}/examples/browser/goroutines.c")
target_compile_options(example_browser_goroutines PRIVATE ${_example_cflags})
target_link_libraries(example_browser_goroutines PRIVATE llgo_runtime_${_example_cid})
# -sEXIT_RUNTIME: main's status reaches the page's onExit.
target_link_options(example_browser_goroutines PRIVATE ${_example_ldflags} -sEXIT_RUNTIME=1)
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
message(STATUS "J32: examples/browser uses the ${_example_ctx} context backend; serve ${_example_dir}")
