# toolchains/aarch64-linux-gnu.cmake: native aarch64 Linux, cross-compiled with LLVM 19 against
# Debian's arm64 cross glibc (libc6-dev-arm64-cross, libgcc-12-dev-arm64-cross; installed by
# tools/setup-toolchain.sh), executables run under qemu-user (qemu-aarch64). The preset
# native-aarch64 builds the target build (runtime, fixtures, test programs, the context layer's
# unit test) with it, for target descriptor targets/cross/linux-arm64-qemu.json: the way the
# aarch64 native context switch (runtime/src/wasmcontext_native_aarch64.S) is assembled and run
# on an x86-64 machine (docs/runtime.md).
# Use:  cmake --preset native-aarch64   (the superbuild's driver stays a host build)
include("${CMAKE_CURRENT_LIST_DIR}/../LlgoWasmToolchainPaths.cmake")

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(_llgo_triple aarch64-linux-gnu)

foreach(_tool LLGO_WASM_CLANG LLGO_WASM_LLVM_AR LLGO_WASM_LLVM_RANLIB)
  if(NOT ${_tool})
    message(FATAL_ERROR "${_tool} not found: install clang-19, lld-19 and llvm-19 (tools/setup-toolchain.sh does)")
  endif()
endforeach()
# Debian's cross glibc lives in /usr/<triple>; clang finds it (and the cross libgcc in
# /usr/lib/gcc-cross/<triple>) from --target alone.
if(NOT EXISTS "/usr/${_llgo_triple}/include/stdio.h" OR NOT IS_DIRECTORY "/usr/lib/gcc-cross/${_llgo_triple}")
  message(FATAL_ERROR "the ${_llgo_triple} cross glibc is missing: install libc6-dev-arm64-cross and "
                      "libgcc-12-dev-arm64-cross (tools/setup-toolchain.sh does)")
endif()
find_program(LLGO_WASM_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(NOT LLGO_WASM_QEMU_AARCH64)
  message(FATAL_ERROR "qemu-aarch64 not found on PATH: install qemu-user (tools/setup-toolchain.sh does)")
endif()

set(CMAKE_C_COMPILER "${LLGO_WASM_CLANG}")
set(CMAKE_ASM_COMPILER "${LLGO_WASM_CLANG}")
set(CMAKE_AR "${LLGO_WASM_LLVM_AR}" CACHE FILEPATH "")
set(CMAKE_RANLIB "${LLGO_WASM_LLVM_RANLIB}" CACHE FILEPATH "")
set(CMAKE_C_COMPILER_TARGET ${_llgo_triple})
set(CMAKE_ASM_COMPILER_TARGET ${_llgo_triple})
# lld: no aarch64 binutils needed. Static executables (the descriptor's ldflags) run under
# qemu-aarch64 without a -L prefix for the dynamic loader.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")
# try_run and tests that name an executable target run under the emulator.
set(CMAKE_CROSSCOMPILING_EMULATOR "${LLGO_WASM_QEMU_AARCH64}")

set(CMAKE_FIND_ROOT_PATH "/usr/${_llgo_triple}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
