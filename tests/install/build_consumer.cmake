# build_consumer.cmake (cmake -P): configures, builds and tests (ctest) a project outside
# llgo-wasm in a fresh build tree; any failing step fails, with that step's output.
#   cmake -DSOURCE=<project> -DBINARY=<build tree> [-DCONFIGURE_ARGS=<arg>|<arg>...] -P build_consumer.cmake
# The environment is cleared of what would point into a llgo-wasm checkout (LLGO_WASM_ROOT).
foreach(var SOURCE BINARY)
  if(NOT ${var})
    message(FATAL_ERROR "build_consumer.cmake needs -D${var}=...")
  endif()
endforeach()
string(REPLACE "|" ";" CONFIGURE_ARGS "${CONFIGURE_ARGS}")
unset(ENV{LLGO_WASM_ROOT})
file(REMOVE_RECURSE "${BINARY}")

function(step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} of ${SOURCE} failed (${rc}):\n${out}")
  endif()
  message(STATUS "${name}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step(configure "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -G Ninja -DCMAKE_BUILD_TYPE=Release ${CONFIGURE_ARGS})
string(REGEX MATCHALL "-- (LlgoWasm|llgo-wasm) [^\n]*" found "${step_output}")
foreach(line IN LISTS found)
  message(STATUS "  ${line}")
endforeach()
step(build "${CMAKE_COMMAND}" --build "${BINARY}" -j 2)
step(ctest "${CMAKE_CTEST_COMMAND}" --test-dir "${BINARY}" --output-on-failure --no-tests=error)
message("${step_output}")
