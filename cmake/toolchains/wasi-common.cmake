# toolchains/wasi-common.cmake: shared body of the WASI toolchain files (wasip1*.cmake set
# LLGO_WASM_WASI_TRIPLE and, for threads, LLGO_WASM_WASI_THREADS before including this).
include("${CMAKE_CURRENT_LIST_DIR}/../LlgoWasmToolchainPaths.cmake")
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/..")   # Platform/WASI.cmake

set(CMAKE_SYSTEM_NAME WASI)
set(CMAKE_SYSTEM_VERSION 1)
set(CMAKE_SYSTEM_PROCESSOR wasm32)

foreach(_tool LLGO_WASM_CLANG LLGO_WASM_CLANGXX LLGO_WASM_LLVM_AR LLGO_WASM_LLVM_RANLIB)
  if(NOT ${_tool})
    message(FATAL_ERROR "${_tool} not found: install clang-19, lld-19 and llvm-19 (tools/setup-toolchain.sh does)")
  endif()
endforeach()
if(LLGO_WASM_WASI_THREADS)
  set(_sysroot "${LLGO_WASM_WASI_THREADS_SYSROOT}")
else()
  set(_sysroot "${LLGO_WASM_WASI_SYSROOT}")
endif()
if(NOT EXISTS "${_sysroot}/include")
  message(FATAL_ERROR "WASI sysroot '${_sysroot}' not found. Run tools/setup-toolchain.sh, or set WASI_SDK_PATH to a wasi-sdk.")
endif()

set(CMAKE_C_COMPILER "${LLGO_WASM_CLANG}")
set(CMAKE_CXX_COMPILER "${LLGO_WASM_CLANGXX}")
set(CMAKE_ASM_COMPILER "${LLGO_WASM_CLANG}")
set(CMAKE_AR "${LLGO_WASM_LLVM_AR}" CACHE FILEPATH "")
set(CMAKE_RANLIB "${LLGO_WASM_LLVM_RANLIB}" CACHE FILEPATH "")
set(CMAKE_C_COMPILER_TARGET "${LLGO_WASM_WASI_TRIPLE}")
set(CMAKE_CXX_COMPILER_TARGET "${LLGO_WASM_WASI_TRIPLE}")
set(CMAKE_ASM_COMPILER_TARGET "${LLGO_WASM_WASI_TRIPLE}")
set(CMAKE_SYSROOT "${_sysroot}")

# The project's sysroot needs a compiler-rt shim for the wasip1 spellings of the triple.
set(LLGO_WASM_LINK_EXTRA_FLAGS "")
if(LLGO_WASM_CLANG_RESOURCE_DIR AND EXISTS "${LLGO_WASM_CLANG_RESOURCE_DIR}")
  set(LLGO_WASM_LINK_EXTRA_FLAGS "-resource-dir ${LLGO_WASM_CLANG_RESOURCE_DIR}")
endif()
if(LLGO_WASM_WASI_THREADS)
  string(APPEND LLGO_WASM_LINK_EXTRA_FLAGS " -pthread")
endif()
set(CMAKE_C_FLAGS_INIT "${LLGO_WASM_LINK_EXTRA_FLAGS}")
# Debug says -O0 out loud (CMake's own Debug flags are just -g, which clang reads as -O0): a link
# line without any -O gets the target's default post-link level (descriptor link-optimization).
set(CMAKE_C_FLAGS_DEBUG_INIT "-O0")
set(CMAKE_CXX_FLAGS_DEBUG_INIT "-O0")
set(CMAKE_CXX_FLAGS_INIT "${LLGO_WASM_LINK_EXTRA_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${LLGO_WASM_LINK_EXTRA_FLAGS}")

# A wasm module cannot run during try_compile: build static libraries there.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Installed (cmake --install), the prefix this file comes from is on the package search path.
include("${CMAKE_CURRENT_LIST_DIR}/../LlgoWasmInstallLayout.cmake" OPTIONAL)
