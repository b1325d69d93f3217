# LlgoWasmRunTest.cmake: llgo_wasm_add_run_test, one ctest case that runs a program under an engine
# and checks its exact exit status and lines (tests/harness/check_run.cpp, built by the host tree and
# handed over as LLGO_WASM_CHECK_RUN_PROGRAM). Used by the target build.
#
#   llgo_wasm_add_run_test(NAME name VARIANT v ENGINE e COMMAND cmd... EXIT n [PROGRAM file]
#                          [STDOUT lines...] [STDERR lines...] [ENV K=V...] [LABELS l...] [TIMEOUT s])
# PROGRAM: the built program the command runs (a case of a program that is not built says so).
# The case is labelled with the variant, the engine, the engine's own labels
# (LLGO_WASM_ENGINE_<engine>_LABELS) and LABELS; for each engine label, the environment in
# LLGO_WASM_LABEL_ENVIRONMENT_<label> (K=V entries) reaches the program's runner.
include_guard(GLOBAL)
if(NOT LLGO_WASM_CHECK_RUN_PROGRAM)
  message(FATAL_ERROR "the target build needs LLGO_WASM_CHECK_RUN_PROGRAM (tests/harness/check_run of the host tree)")
endif()
set(LLGO_WASM_CHECK_RUN "${LLGO_WASM_CHECK_RUN_PROGRAM}")

# What <engine>'s runner needs, as check_run options (--env=K=V): the environment of each of its
# labels (LLGO_WASM_LABEL_ENVIRONMENT_<label>: a browser's location).
function(llgo_wasm_engine_env_options out engine)
  set(options "")
  foreach(label IN LISTS LLGO_WASM_ENGINE_${engine}_LABELS)
    foreach(e IN LISTS LLGO_WASM_LABEL_ENVIRONMENT_${label})
      list(APPEND options "--env=${e}")
    endforeach()
  endforeach()
  set(${out} "${options}" PARENT_SCOPE)
endfunction()

function(llgo_wasm_add_run_test)
  cmake_parse_arguments(PARSE_ARGV 0 T "" "NAME;VARIANT;ENGINE;EXIT;TIMEOUT;PROGRAM" "COMMAND;STDOUT;STDERR;ENV;LABELS")
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
  llgo_wasm_engine_env_options(engine_env ${T_ENGINE})
  list(APPEND args ${engine_env})
  if(T_TIMEOUT)
    list(APPEND args --timeout ${T_TIMEOUT})
  endif()
  if(T_PROGRAM)
    list(APPEND args --program "${T_PROGRAM}")
  endif()
  add_test(NAME ${T_NAME} COMMAND ${LLGO_WASM_CHECK_RUN} ${args} -- ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES LABELS
    "${T_VARIANT};${T_ENGINE};${LLGO_WASM_ENGINE_${T_ENGINE}_LABELS};${T_LABELS}")
endfunction()
