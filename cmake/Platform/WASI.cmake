# Platform/WASI.cmake: the platform module CMake 3.25 lacks for CMAKE_SYSTEM_NAME WASI.
# Loaded by CMake after the toolchain file (which puts this folder on CMAKE_MODULE_PATH).
include_guard(GLOBAL)

set(WASI 1)
set(UNIX 1)
# A suffix set in a toolchain file is ignored; it belongs here.
set(CMAKE_EXECUTABLE_SUFFIX ".wasm")
set(CMAKE_STATIC_LIBRARY_PREFIX "lib")
set(CMAKE_STATIC_LIBRARY_SUFFIX ".a")
set(CMAKE_SHARED_LIBRARY_PREFIX "lib")
set(CMAKE_SHARED_LIBRARY_SUFFIX ".so")
set(CMAKE_FIND_LIBRARY_PREFIXES "lib")
set(CMAKE_FIND_LIBRARY_SUFFIXES ".a")

# The link line gets <FLAGS> as on any platform: CMAKE_C_FLAGS and CMAKE_C_FLAGS_<CONFIG> carry
# the build's optimisation level (and -flto, -g, ...), which the post-link step needs. Link
# executables through the driver (LlgoWasmLink.cmake): it takes -O off clang's line (with -O,
# clang-19 runs whatever wasm-opt is on PATH, often Debian's old 108) and gives the level to its
# pinned wasm-opt. (clang's --no-wasm-opt cannot be used instead: clang-19 then silently runs
# no link at all.)
# CMake itself adds --target and --sysroot after <CMAKE_C_COMPILER>; the toolchain's other
# driver flags (resource dir, -pthread) come from LLGO_WASM_LINK_EXTRA_FLAGS, so a hand-set
# CMAKE_C_FLAGS (which replaces CMAKE_C_FLAGS_INIT) cannot lose them.
foreach(_lang C CXX)
  set(CMAKE_${_lang}_LINK_EXECUTABLE
      "<CMAKE_${_lang}_COMPILER> ${LLGO_WASM_LINK_EXTRA_FLAGS} <FLAGS> <CMAKE_${_lang}_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endforeach()
