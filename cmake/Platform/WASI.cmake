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

# The link line gets no <FLAGS>: those carry CMAKE_C_FLAGS_<CONFIG>, and an -O on clang's wasm
# link line makes clang run whatever wasm-opt is on PATH (often Debian's old 108) behind our back.
# The target, sysroot and resource dir the compile line gets through <FLAGS> are spelled out.
foreach(_lang C CXX)
  set(_flags "")
  if(CMAKE_${_lang}_COMPILER_TARGET)
    string(APPEND _flags " --target=${CMAKE_${_lang}_COMPILER_TARGET}")
  endif()
  if(CMAKE_SYSROOT)
    string(APPEND _flags " --sysroot=${CMAKE_SYSROOT}")
  endif()
  if(LLGO_WASM_LINK_EXTRA_FLAGS)
    string(APPEND _flags " ${LLGO_WASM_LINK_EXTRA_FLAGS}")
  endif()
  set(CMAKE_${_lang}_LINK_EXECUTABLE
      "<CMAKE_${_lang}_COMPILER>${_flags} <CMAKE_${_lang}_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endforeach()
