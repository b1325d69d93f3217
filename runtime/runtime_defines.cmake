# runtime_defines.cmake - writes the compile definitions the runtime takes from the target
# descriptor, as a compiler response file (one option per line):
#   -DLLGO_DEFAULT_STACK_SIZE=<default_stack_size>
# Usage: cmake -DDRIVER=llgo-wasm -DTARGET=host -DCONTEXT=ucontext -DOUT=file -P runtime_defines.cmake
# (wasm builds read the same field from `llgo-wasm resolve --json` at configure time.)
execute_process(
  COMMAND "${DRIVER}" resolve --json --target "${TARGET}" --context "${CONTEXT}"
  OUTPUT_VARIABLE resolved ERROR_VARIABLE error RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "llgo-wasm resolve --target ${TARGET} --context ${CONTEXT} failed (${result}):\n${error}")
endif()
string(JSON stack_size GET "${resolved}" default_stack_size)
set(text "-DLLGO_DEFAULT_STACK_SIZE=${stack_size}\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" previous)
endif()
if(NOT previous STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
