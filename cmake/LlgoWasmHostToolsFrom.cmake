# LlgoWasmHostToolsFrom.cmake: the host tools of another tree of this checkout
# (LLGO_WASM_HOST_TOOLS_FROM), imported under the names the tree would have built them as:
#   llgo-wasm             the CLI (driver/cli/llgo-wasm; llgo-wasm-cache beside it)
#   llgo_wasm_check_run   the checker of program runs (tests/harness/check_run)
# so that a run of several presets compiles the driver once (tools/run-tests.sh). The other tree
# must be built first; its tools are the ones this checkout's sources build.
include_guard(GLOBAL)

get_filename_component(_llgo_tools_tree "${LLGO_WASM_HOST_TOOLS_FROM}" ABSOLUTE BASE_DIR "${PROJECT_SOURCE_DIR}")
foreach(_llgo_tool llgo-wasm:driver/cli/llgo-wasm llgo_wasm_check_run:tests/harness/check_run)
  string(REPLACE ":" ";" _llgo_tool "${_llgo_tool}")
  list(GET _llgo_tool 0 _llgo_name)
  list(GET _llgo_tool 1 _llgo_path)
  if(NOT EXISTS "${_llgo_tools_tree}/${_llgo_path}")
    message(FATAL_ERROR "LLGO_WASM_HOST_TOOLS_FROM=${LLGO_WASM_HOST_TOOLS_FROM}: ${_llgo_tools_tree}/${_llgo_path} "
                        "is not there: build that tree first (cmake --preset <its preset> && cmake --build --preset <its preset>)")
  endif()
  add_executable(${_llgo_name} IMPORTED GLOBAL)
  set_target_properties(${_llgo_name} PROPERTIES IMPORTED_LOCATION "${_llgo_tools_tree}/${_llgo_path}")
endforeach()
# A tree that builds the tools re-runs the target build's configuration when the driver changes
# (LlgoWasmTargetFacts.cmake); the imported ones are files this build does not make.
message(STATUS "host tools (llgo-wasm, check_run) from ${_llgo_tools_tree}")
