# check_no_variant_names.cmake: the build reads every fact about a target from the driver, so no
# CMake code may branch on a variant's name. Fails when a CMake file of the repository names a
# variant (the names come from targets/schema.json) outside a comment.
# Usage: cmake -DSOURCE_DIR=<repository> -P check_no_variant_names.cmake
file(READ "${SOURCE_DIR}/targets/schema.json" schema)
string(JSON variants GET "${schema}" properties variant enum)
string(JSON count LENGTH "${variants}")
math(EXPR last "${count} - 1")
set(names "")
foreach(i RANGE ${last})
  string(JSON name GET "${variants}" ${i})
  list(APPEND names "${name}")
endforeach()

file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}"
  "${SOURCE_DIR}/CMakeLists.txt" "${SOURCE_DIR}/cmake/*.cmake" "${SOURCE_DIR}/cmake/*CMakeLists.txt"
  "${SOURCE_DIR}/bench/*.cmake" "${SOURCE_DIR}/runtime/*.cmake" "${SOURCE_DIR}/driver/*CMakeLists.txt"
  "${SOURCE_DIR}/tests/*CMakeLists.txt" "${SOURCE_DIR}/tests/*.cmake" "${SOURCE_DIR}/examples/*CMakeLists.txt")
list(FILTER files EXCLUDE REGEX "^build/")
set(found "")
foreach(file IN LISTS files)
  file(STRINGS "${SOURCE_DIR}/${file}" lines)
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    string(REGEX REPLACE "(^|[ \t])#.*$" "" code "${line}")   # a comment is a display label
    foreach(name IN LISTS names)
      if(code MATCHES "(^|[^A-Za-z0-9_.-])${name}([^A-Za-z0-9_.-]|$)")
        string(APPEND found "\n  ${file}:${number}: ${line}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "CMake code names a variant (ask the driver instead: cmake/LlgoWasmTargetFacts.cmake):${found}")
endif()
list(LENGTH files checked)
message(STATUS "${checked} CMake files name no variant (${names}) outside comments")
