# compile_for_target.cmake: compiles one runner fixture for a target with what the driver resolves
# for it (triple, effective cflags and ldflags), so the module has the memory and threads setup the
# target's own programs have (for wasip1-threads: an imported shared memory with its maximum).
# Usage: cmake -DDRIVER=llgo-wasm -DTARGET=wasip1-threads -DCLANG=clang-19 -DSYSROOT=dir
#              -DRESOURCE_DIR=dir -DSOURCE=fixture.c -DOUTPUT=fixture.wasm "-DEXTRA=-DX=1"
#              -P compile_for_target.cmake
execute_process(COMMAND "${DRIVER}" resolve --json --target "${TARGET}"
  OUTPUT_VARIABLE target ERROR_VARIABLE error RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "llgo-wasm resolve --json --target ${TARGET} failed (${result}):\n${error}")
endif()
string(JSON triple GET "${target}" triple)
set(flags "")
foreach(list cflags ldflags)
  string(JSON count LENGTH "${target}" effective ${list})
  if(count EQUAL 0)
    continue()
  endif()
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON flag GET "${target}" effective ${list} ${i})
    separate_arguments(words UNIX_COMMAND "${flag}")   # "-mllvm -x" is two words
    list(APPEND flags ${words})
  endforeach()
endforeach()
execute_process(COMMAND "${CLANG}" --target=${triple} --sysroot=${SYSROOT} -resource-dir "${RESOURCE_DIR}"
                        -O2 -Wall -Wextra -Werror ${flags} ${EXTRA} "${SOURCE}" -o "${OUTPUT}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "compiling ${SOURCE} for ${TARGET} failed (${result})")
endif()
