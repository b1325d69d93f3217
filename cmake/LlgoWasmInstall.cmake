# LlgoWasmInstall.cmake: what `cmake --install` puts in a prefix, all of it relocatable (every path
# inside is found relative to the file that names it; docs/install.md):
#   bin/llgo-wasm                              the CLI (finds share/llgo-wasm from its own location)
#   bin/llgo-wasm-cache                        its `cache` command (linked with libcurl)
#   lib/libllgo_wasm.so.0 (SONAME), .so.0.1.0  the C API, shared; lib/libllgo_wasm.a, static
#   include/llgo_wasm.h, include/llgo_runtime.h
#   lib/llgo-wasm/<target>/<context>/*.a       runtimes of LLGO_WASM_INSTALL_RUNTIMES
#                                              (LlgoWasmInstallRuntimes.cmake)
#   lib/cmake/LlgoWasm/                        find_package(LlgoWasm): the driver libraries and CLI,
#                                              one imported runtime per target and context, and
#                                              llgo_wasm_link_runtime (LlgoWasmLinkRuntime.cmake)
#   lib/pkgconfig/llgo-wasm.pc                 for `#cgo pkg-config: llgo-wasm` and other builds
#   share/llgo-wasm/                           "{root}" of an installed llgo-wasm: targets/*.json,
#                                              cmake/ (toolchain files, Platform/, the modules the
#                                              config uses), and the files descriptors name with
#                                              {root}: runtime/emscripten/*.js, runtime/wasi/*.mjs (the P1 jspi glue), runtime/src/*.wat,
#                                              the engine runners
# The host tree of a preset installs all but the runtimes; the `install` preset installs all.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LLGO_WASM_INSTALL_ROOT "${CMAKE_INSTALL_DATADIR}/llgo-wasm")
set(LLGO_WASM_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/LlgoWasm")

# The C API as a static library: the shared library's objects and the vocabulary's, so it needs
# nothing of this build; a program that links it links libcrypto, libcurl (the package cache's
# remote backend) and the C++ runtime too.
add_library(llgo_wasm_static STATIC
  $<TARGET_OBJECTS:llgo_wasm_driver_core> $<TARGET_OBJECTS:llgo_wasm_driver_objects>
  $<TARGET_OBJECTS:llgo_wasm_cache_objects> $<TARGET_OBJECTS:llgo_wasm_vocabulary>)
set_target_properties(llgo_wasm_static PROPERTIES OUTPUT_NAME llgo_wasm LINKER_LANGUAGE CXX)
target_link_libraries(llgo_wasm_static INTERFACE $<INSTALL_INTERFACE:crypto> $<INSTALL_INTERFACE:curl>)
target_include_directories(llgo_wasm_static INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

# The shared library's include directory is the source tree's; installed, it is include/.
get_target_property(_llgo_include_dirs llgo_wasm_shared INTERFACE_INCLUDE_DIRECTORIES)
set_target_properties(llgo_wasm_shared PROPERTIES
  EXPORT_NAME llgo_wasm
  INTERFACE_INCLUDE_DIRECTORIES "$<BUILD_INTERFACE:${_llgo_include_dirs}>;$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
set_target_properties(llgo_wasm_static PROPERTIES EXPORT_NAME llgo_wasm_static)

# llgo-wasm-cache: `llgo-wasm cache ...` runs it from beside itself (docs/cache.md).
install(TARGETS llgo-wasm-cache RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS llgo-wasm llgo_wasm_shared llgo_wasm_static EXPORT LlgoWasmTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" NAMELINK_COMPONENT Unspecified
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
# `--strip` (and CPack) strips executables and shared libraries only; the static library's debug
# information names this machine's source tree, so it goes too.
install(CODE "if(CMAKE_INSTALL_DO_STRIP)
  execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:llgo_wasm_static>\" COMMAND_ERROR_IS_FATAL ANY)
endif()")
install(EXPORT LlgoWasmTargets NAMESPACE LlgoWasm:: DESTINATION "${LLGO_WASM_INSTALL_CMAKEDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/driver/include/llgo_wasm.h" "${PROJECT_SOURCE_DIR}/runtime/include/llgo_runtime.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")

# share/llgo-wasm: the same layout as the repository, so {root}/... names the same file in both.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/targets" DESTINATION "${LLGO_WASM_INSTALL_ROOT}" FILES_MATCHING PATTERN "*.json")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/emscripten" "${PROJECT_SOURCE_DIR}/runtime/wasi" DESTINATION "${LLGO_WASM_INSTALL_ROOT}/runtime")
# The switch glue a context merges into the program at link time (a descriptor's context
# `modules`, e.g. wasip1-stack-switching's .wat).
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/src/" DESTINATION "${LLGO_WASM_INSTALL_ROOT}/runtime/src"
  FILES_MATCHING PATTERN "*.wat")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/tests/runners" DESTINATION "${LLGO_WASM_INSTALL_ROOT}/tests"
  FILES_MATCHING PATTERN "run-*.mjs" PATTERN "fixtures" EXCLUDE)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/tests/browser" DESTINATION "${LLGO_WASM_INSTALL_ROOT}/tests"
  PATTERN "fixtures" EXCLUDE)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/cmake/toolchains" "${PROJECT_SOURCE_DIR}/cmake/Platform"
  DESTINATION "${LLGO_WASM_INSTALL_ROOT}/cmake")
install(FILES "${PROJECT_SOURCE_DIR}/cmake/LlgoWasmToolchainPaths.cmake" "${PROJECT_SOURCE_DIR}/cmake/LlgoWasmTargetFacts.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/LlgoWasmLink.cmake" "${PROJECT_SOURCE_DIR}/cmake/LlgoWasmLinkRuntime.cmake"
  DESTINATION "${LLGO_WASM_INSTALL_ROOT}/cmake")

# Found by the installed toolchain files (only an installed tree has it): the prefix they come
# from, on the find path, so find_package(LlgoWasm) works under their CMAKE_FIND_ROOT_PATH.
file(RELATIVE_PATH _llgo_up "/prefix/${LLGO_WASM_INSTALL_ROOT}/cmake" "/prefix")
set(_llgo_layout "${CMAKE_CURRENT_BINARY_DIR}/LlgoWasmInstallLayout.cmake")
file(WRITE "${_llgo_layout}" "\
# LlgoWasmInstallLayout.cmake (generated by cmake/LlgoWasmInstall.cmake; only an installed
# llgo-wasm has it): included by the toolchain files, puts the prefix they come from on the
# package search path, also under the toolchains' CMAKE_FIND_ROOT_PATH (mode ONLY).
get_filename_component(LLGO_WASM_INSTALL_PREFIX \"\${CMAKE_CURRENT_LIST_DIR}/${_llgo_up}\" ABSOLUTE)
foreach(_llgo_path_list CMAKE_FIND_ROOT_PATH CMAKE_PREFIX_PATH)
  if(NOT LLGO_WASM_INSTALL_PREFIX IN_LIST \${_llgo_path_list})
    list(APPEND \${_llgo_path_list} \"\${LLGO_WASM_INSTALL_PREFIX}\")
  endif()
endforeach()
")
install(FILES "${_llgo_layout}" DESTINATION "${LLGO_WASM_INSTALL_ROOT}/cmake")

configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/install/LlgoWasmConfig.cmake.in"
  "${CMAKE_CURRENT_BINARY_DIR}/LlgoWasmConfig.cmake"
  INSTALL_DESTINATION "${LLGO_WASM_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR LLGO_WASM_INSTALL_ROOT)
# 0.x: a minor version may change the interface. ARCH_INDEPENDENT: the package holds host libraries
# and WebAssembly runtimes; a wasm32 or wasm64 build finds it as a 64-bit host build does.
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/LlgoWasmConfigVersion.cmake" COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/LlgoWasmConfig.cmake" "${CMAKE_CURRENT_BINARY_DIR}/LlgoWasmConfigVersion.cmake"
  DESTINATION "${LLGO_WASM_INSTALL_CMAKEDIR}")

file(RELATIVE_PATH LLGO_WASM_PC_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file("${PROJECT_SOURCE_DIR}/cmake/install/llgo-wasm.pc.in" "${CMAKE_CURRENT_BINARY_DIR}/llgo-wasm.pc" @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/llgo-wasm.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

include(LlgoWasmInstallRuntimes)
include(LlgoWasmPackage)
