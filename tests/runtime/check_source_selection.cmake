# check_source_selection.cmake - asks the driver which runtime files a target/context selects
# (`llgo-wasm sources`) and compares with the list the runtime expects.
# Usage: cmake -DDRIVER=llgo-wasm -DSRC_DIR=runtime/src -DTARGET=wasip1 -DCONTEXT=asyncify
#              "-DEXPECTED=a.c|b.c" -P check_source_selection.cmake
execute_process(
  COMMAND "${DRIVER}" sources --dir "${SRC_DIR}" --target "${TARGET}" --context "${CONTEXT}"
  OUTPUT_VARIABLE output ERROR_VARIABLE error RESULT_VARIABLE result
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "llgo-wasm sources --target ${TARGET} --context ${CONTEXT} failed (${result}):\n${error}")
endif()
string(REPLACE "\n" "|" actual "${output}")
if(NOT actual STREQUAL EXPECTED)
  string(REPLACE "|" "\n  " expected_lines "${EXPECTED}")
  string(REPLACE "|" "\n  " actual_lines "${actual}")
  message(FATAL_ERROR "${TARGET}/${CONTEXT} selects the wrong runtime files.\n"
    "expected:\n  ${expected_lines}\nselected by the driver:\n  ${actual_lines}")
endif()
message(STATUS "${TARGET}/${CONTEXT}: ${actual}")
