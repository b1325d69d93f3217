# LlgoWasmInstallRuntimes.cmake: the runtime libraries `cmake --install` installs, one set per
# target named in LLGO_WASM_INSTALL_RUNTIMES ("<target>=<toolchain file>" entries; the `install`
# preset names J32, J64, P1 and P1T with the toolchain files their own presets use).
#
# Why a superbuild: one tree's `cmake --install` (and so `cpack`, which packages one tree) must
# produce every variant's runtime, and each variant needs its own compiler, so each is an external
# project (cmake/runtime-install) configured with its toolchain file after the driver it asks
# for the target's facts. Their install scripts run inside this tree's install, so DESTDIR,
# --prefix, a moved prefix and CPack's staging all reach them unchanged.
include_guard(GLOBAL)
include(ExternalProject)
include(LlgoWasmToolchainPaths)   # LLGO_WASM_TOOLCHAIN_DIR, passed on to the toolchain files

set(LLGO_WASM_INSTALL_RUNTIMES "" CACHE STRING
    "Runtimes `cmake --install` installs: <target>=<toolchain file> entries (CMakePresets.json, preset install)")

foreach(_llgo_entry IN LISTS LLGO_WASM_INSTALL_RUNTIMES)
  if(NOT _llgo_entry MATCHES "^([^=]+)=(.+)$")
    message(FATAL_ERROR "LLGO_WASM_INSTALL_RUNTIMES: '${_llgo_entry}' is not <target>=<toolchain file> "
                        "(e.g. wasip1=${PROJECT_SOURCE_DIR}/cmake/toolchains/wasip1.cmake)")
  endif()
  set(_llgo_target "${CMAKE_MATCH_1}")
  set(_llgo_toolchain "${CMAKE_MATCH_2}")
  if(NOT EXISTS "${_llgo_toolchain}")
    message(FATAL_ERROR "LLGO_WASM_INSTALL_RUNTIMES: toolchain file '${_llgo_toolchain}' of ${_llgo_target} does not exist")
  endif()
  set(_llgo_binary_dir "${CMAKE_BINARY_DIR}/runtime-install/${_llgo_target}")
  ExternalProject_Add(runtime-install-${_llgo_target}
    SOURCE_DIR "${PROJECT_SOURCE_DIR}/cmake/runtime-install"
    BINARY_DIR "${_llgo_binary_dir}"
    CMAKE_GENERATOR Ninja
    CMAKE_ARGS "-DCMAKE_TOOLCHAIN_FILE=${_llgo_toolchain}"
               "-DLLGO_WASM_TARGET=${_llgo_target}"
               "-DLLGO_WASM_SOURCE_ROOT=${PROJECT_SOURCE_DIR}"
               "-DLLGO_WASM_TOOLCHAIN_DIR=${LLGO_WASM_TOOLCHAIN_DIR}"
               "-DLLGO_WASM_DRIVER=$<TARGET_FILE:llgo-wasm>"
               "-DCMAKE_INSTALL_LIBDIR=${CMAKE_INSTALL_LIBDIR}"
               # Release: no debug information, so no build or source path, in an installed archive
               -DCMAKE_BUILD_TYPE=Release
    DEPENDS llgo-wasm
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    USES_TERMINAL_CONFIGURE ON
    USES_TERMINAL_BUILD ON)
  install(CODE "include(\"${_llgo_binary_dir}/cmake_install.cmake\")")
  list(APPEND LLGO_WASM_INSTALLED_RUNTIME_TARGETS "${_llgo_target}")
endforeach()
