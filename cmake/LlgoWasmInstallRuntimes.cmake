# LlgoWasmInstallRuntimes.cmake: the runtime libraries `cmake --install` installs, one set per
# target named in LLGO_WASM_INSTALL_RUNTIMES ("<target>=<toolchain file>" entries; the `install`
# preset names J32, J64, P1 and P1T with the toolchain files their own presets use).
#
# LLGO_WASM_INSTALL_RUNTIMES_FROM (a folder, e.g. build/ of the checkout) takes them instead from
# target builds already built there (<folder>/<preset>/target, each of which writes
# installable-runtimes.cmake: its target and the archives of each context backend in its default
# stack mode), so a test run that has built every target compiles no runtime again for the install
# check (tools/run-tests.sh). Those trees must be Release builds, as cmake/runtime-install's are:
# an installed archive carries no debug information (which would name this machine's paths). The trees are read when `cmake
# --install` runs, so they may be built after this tree.
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

set(LLGO_WASM_INSTALL_RUNTIMES_FROM "" CACHE PATH
    "Install the runtimes of LLGO_WASM_INSTALL_RUNTIMES from the target builds under this folder instead of building them")
if(LLGO_WASM_INSTALL_RUNTIMES_FROM)
  get_filename_component(_llgo_from "${LLGO_WASM_INSTALL_RUNTIMES_FROM}" ABSOLUTE BASE_DIR "${PROJECT_SOURCE_DIR}")
  set(_llgo_wanted "")
  foreach(_llgo_entry IN LISTS LLGO_WASM_INSTALL_RUNTIMES)
    string(REGEX REPLACE "=.*" "" _llgo_target "${_llgo_entry}")
    list(APPEND _llgo_wanted "${_llgo_target}")
    list(APPEND LLGO_WASM_INSTALLED_RUNTIME_TARGETS "${_llgo_target}")
  endforeach()
  install(CODE "
set(_wanted \"${_llgo_wanted}\")
set(_found \"\")
file(GLOB _manifests \"${_llgo_from}/*/target/installable-runtimes.cmake\")
foreach(_manifest IN LISTS _manifests)
  include(\"\${_manifest}\")   # sets _tree_target, _tree_build_type and _tree_runtimes: <context>|<runtime .a>|<context .a or ->
  list(FIND _wanted \"\${_tree_target}\" _wanted_at)   # (no IN_LIST: install scripts run under old policies)
  list(FIND _found \"\${_tree_target}\" _found_at)
  if(_wanted_at EQUAL -1 OR NOT _found_at EQUAL -1)
    continue()
  endif()
  if(NOT _tree_build_type STREQUAL \"Release\")
    message(FATAL_ERROR \"\${_manifest}: the runtimes of \${_tree_target} there were built \${_tree_build_type}; an installed runtime is a Release build (no debug information, which would name this machine's paths): configure that tree with -DCMAKE_BUILD_TYPE=Release (tools/run-tests.sh does)\")
  endif()
  list(APPEND _found \"\${_tree_target}\")
  foreach(_entry IN LISTS _tree_runtimes)
    string(REPLACE \"|\" \";\" _entry \"\${_entry}\")
    list(GET _entry 0 _context)
    set(_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/llgo-wasm/\${_tree_target}/\${_context}\")
    file(MAKE_DIRECTORY \"\${_dir}\")
    foreach(_pair \"1;libllgo_runtime.a\" \"2;libllgo_wasmcontext.a\")
      list(GET _pair 0 _index)
      list(GET _pair 1 _name)
      list(GET _entry \${_index} _archive)
      if(_archive STREQUAL \"-\")
        continue()
      endif()
      message(STATUS \"Installing: \${_dir}/\${_name} (from \${_archive})\")
      configure_file(\"\${_archive}\" \"\${_dir}/\${_name}\" COPYONLY)
    endforeach()
  endforeach()
endforeach()
foreach(_target IN LISTS _wanted)
  list(FIND _found \"\${_target}\" _found_at)
  if(_found_at EQUAL -1)
    message(FATAL_ERROR \"LLGO_WASM_INSTALL_RUNTIMES_FROM=${_llgo_from}: no built target build of \${_target} there (<preset>/target/installable-runtimes.cmake); build its preset first\")
  endif()
endforeach()
")
  return()   # nothing to build here
endif()

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
