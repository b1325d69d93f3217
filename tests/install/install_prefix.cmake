# install_prefix.cmake (cmake -P): installs BUILD_DIR into WORK_DIR/staging (`cmake --install
# --strip`), then moves it to WORK_DIR/prefix, so every test that uses the prefix checks that an
# installed llgo-wasm still works after it has been moved.
#   cmake -DBUILD_DIR=<build tree> -DWORK_DIR=<scratch folder> -P install_prefix.cmake
foreach(var BUILD_DIR WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "install_prefix.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK_DIR}/staging" --strip
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} failed (${rc}):\n${out}")
endif()
file(RENAME "${WORK_DIR}/staging" "${WORK_DIR}/prefix")
string(REGEX MATCHALL "\n-- Installing: [^\n]*" installed "${out}")
list(LENGTH installed count)
message(STATUS "installed ${count} files into ${WORK_DIR}/staging, moved to ${WORK_DIR}/prefix")
