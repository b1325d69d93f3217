# package_deb.cmake (cmake -P): `cpack -G DEB` of BUILD_DIR, the package's metadata checked, and
# the package extracted (`dpkg -x`) into WORK_DIR/root, where the consumer tests then build
# against WORK_DIR/root/usr as they do against an installed prefix.
#   cmake -DBUILD_DIR=<build tree> -DWORK_DIR=<scratch folder> -DLIBDIR=<lib> -P package_deb.cmake
foreach(var BUILD_DIR WORK_DIR LIBDIR)
  if(NOT ${var})
    message(FATAL_ERROR "package_deb.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/package")
find_program(CPACK NAMES cpack HINTS "${CMAKE_COMMAND}/.." REQUIRED)
execute_process(COMMAND "${CPACK}" -G DEB --config "${BUILD_DIR}/CPackConfig.cmake" -B "${WORK_DIR}/package"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
file(GLOB debs "${WORK_DIR}/package/*.deb")
if(NOT rc EQUAL 0 OR NOT debs)
  message(FATAL_ERROR "cpack -G DEB failed (${rc}):\n${out}")
endif()
list(GET debs 0 deb)

execute_process(COMMAND dpkg-deb --field "${deb}" Package Version Architecture Depends Recommends
  OUTPUT_VARIABLE fields RESULT_VARIABLE rc)
message(STATUS "${deb}:\n${fields}")
set(problems "")
# dpkg-shlibdeps' answer for the CLIs and libllgo_wasm.so: the C and C++ runtimes and libcurl (the
# package cache's remote backend).
foreach(needed "Depends: [^\n]*libc6 \\(>= " "Depends: [^\n]*libstdc\\+\\+6 \\(>= " "Depends: [^\n]*libcurl4 \\(>= "
               "Package: llgo-wasm")
  if(NOT fields MATCHES "${needed}")
    list(APPEND problems "the control fields do not match '${needed}'")
  endif()
endforeach()
if(fields MATCHES "Depends: [^\n]*libssl")
  list(APPEND problems "Depends names libssl: libcrypto is linked in statically")
endif()
execute_process(COMMAND dpkg-deb --contents "${deb}" OUTPUT_VARIABLE contents RESULT_VARIABLE rc)
foreach(file ./usr/bin/llgo-wasm ./usr/bin/llgo-wasm-cache ./usr/${LIBDIR}/libllgo_wasm.so.0 ./usr/${LIBDIR}/cmake/LlgoWasm/LlgoWasmConfig.cmake
             ./usr/${LIBDIR}/pkgconfig/llgo-wasm.pc ./usr/share/llgo-wasm/cmake/toolchains/wasip1.cmake)
  string(FIND "${contents}" " ${file}" at)
  if(at EQUAL -1)
    list(APPEND problems "the package has no ${file}")
  endif()
endforeach()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "${deb}:\n  ${text}\ncontents:\n${contents}")
endif()

execute_process(COMMAND dpkg -x "${deb}" "${WORK_DIR}/root" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpkg -x ${deb} failed (${rc}): ${err}")
endif()
message(STATUS "extracted into ${WORK_DIR}/root")
