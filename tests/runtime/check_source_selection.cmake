# check_source_selection.cmake - asks the driver which runtime files a target/context selects
# (`llgo-wasm sources`) and compares with the list the runtime expects.
# Usage: cmake -DDRIVER=llgo-wasm -DSRC_DIR=runtime/src -DTARGET=wasip1 -DCONTEXT=asyncify
#              [-DSTACKS=shared|separate|default] "-DEXPECTED=a.c|b.c" -P check_source_selection.cmake
set(stacks_option)
if(STACKS AND NOT STACKS STREQUAL "default")
  set(stacks_option --stacks "${STACKS}")
endif()
execute_process(
  COMMAND "${DRIVER}" sources --dir "${SRC_DIR}" --target "${TARGET}" --context "${CONTEXT}" ${stacks_option}
  OUTPUT_VARIABLE output ERROR_VARIABLE error RESULT_VARIABLE result
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "llgo-wasm sources --target ${TARGET} --context ${CONTEXT} ${stacks_option} failed (${result}):\n${error}")
endif()
string(REPLACE "\n" "|" actual "${output}")
if(NOT actual STREQUAL EXPECTED)
  string(REPLACE "|" "\n  " expected_lines "${EXPECTED}")
  string(REPLACE "|" "\n  " actual_lines "${actual}")
  message(FATAL_ERROR "${TARGET}/${CONTEXT}/${STACKS} selects the wrong runtime files.\n"
    "expected:\n  ${expected_lines}\nselected by the driver:\n  ${actual_lines}")
endif()
message(STATUS "${TARGET}/${CONTEXT}: ${actual}")
