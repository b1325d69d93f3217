# LlgoWasmToolchainPaths.cmake: finds the tools every llgo-wasm variant builds and runs with.
#
# Order, per tool: what the user already has (environment: WASI_SDK_PATH, EMSDK, WASMOPT,
# BINARYEN_ROOT, NODE, then PATH for node) and then the folder tools/setup-toolchain.sh installed
# (LLGO_WASM_TOOLCHAIN_DIR, default ${XDG_CACHE_HOME:-$HOME/.cache}/llgo-wasm/toolchain-v1), whose
# toolchain.env records what it installed. Included by the toolchain files and the superbuild;
# it only sets variables (LLGO_WASM_*), never fails: users of a path check it where they need it.
# The engines that run programs (node, node26, wasmedge, ...) are found by the driver, in the same
# order, for the build and for `llgo-wasm run` alike (LlgoWasmTargetFacts.cmake); LLGO_WASM_NODE here
# is the Node that CMake runs its own scripts with (emcc, the browser tests, the runner tests).
include_guard(DIRECTORY) # each directory that includes it gets the variables (they are not cached)

set(LLGO_WASM_TOOLCHAIN_VERSION v1)
if(DEFINED ENV{LLGO_WASM_TOOLCHAIN_DIR} AND NOT "$ENV{LLGO_WASM_TOOLCHAIN_DIR}" STREQUAL "")
  set(_llgo_tc "$ENV{LLGO_WASM_TOOLCHAIN_DIR}")
elseif(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(_llgo_tc "$ENV{XDG_CACHE_HOME}/llgo-wasm/toolchain-${LLGO_WASM_TOOLCHAIN_VERSION}")
else()
  set(_llgo_tc "$ENV{HOME}/.cache/llgo-wasm/toolchain-${LLGO_WASM_TOOLCHAIN_VERSION}")
endif()
set(LLGO_WASM_TOOLCHAIN_DIR "${_llgo_tc}" CACHE PATH "Folder tools/setup-toolchain.sh installed into")

# KEY=VALUE lines of toolchain.env become _llgo_env_KEY
if(EXISTS "${LLGO_WASM_TOOLCHAIN_DIR}/toolchain.env")
  file(STRINGS "${LLGO_WASM_TOOLCHAIN_DIR}/toolchain.env" _llgo_lines REGEX "^[A-Z_0-9]+=")
  foreach(_llgo_line IN LISTS _llgo_lines)
    string(REGEX MATCH "^([A-Z_0-9]+)=(.*)$" _ "${_llgo_line}")
    set(_llgo_env_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  endforeach()
endif()

# LLVM 19: the compiler of the WASI variants (Emscripten brings its own configuration).
find_program(LLGO_WASM_CLANG NAMES clang-19 clang HINTS "${_llgo_env_LLGO_WASM_CLANG}" PATHS /usr/lib/llvm-19/bin)
find_program(LLGO_WASM_CLANGXX NAMES clang++-19 clang++ PATHS /usr/lib/llvm-19/bin)
find_program(LLGO_WASM_LLVM_AR NAMES llvm-ar-19 llvm-ar PATHS /usr/lib/llvm-19/bin)
find_program(LLGO_WASM_LLVM_RANLIB NAMES llvm-ranlib-19 llvm-ranlib PATHS /usr/lib/llvm-19/bin)

# WASI sysroots: a wasi-sdk, else the project's (trixie wasi-libc with setjmp; threads build)
if(DEFINED ENV{WASI_SDK_PATH} AND EXISTS "$ENV{WASI_SDK_PATH}/share/wasi-sysroot")
  set(LLGO_WASM_WASI_SYSROOT "$ENV{WASI_SDK_PATH}/share/wasi-sysroot")
  set(LLGO_WASM_WASI_THREADS_SYSROOT "$ENV{WASI_SDK_PATH}/share/wasi-sysroot")
  set(LLGO_WASM_CLANG_RESOURCE_DIR "")
  file(GLOB _llgo_rd "$ENV{WASI_SDK_PATH}/lib/clang/*")
  if(_llgo_rd)
    list(GET _llgo_rd 0 LLGO_WASM_CLANG_RESOURCE_DIR)
  endif()
else()
  set(LLGO_WASM_WASI_SYSROOT "${LLGO_WASM_TOOLCHAIN_DIR}/wasi-sysroot")
  set(LLGO_WASM_WASI_THREADS_SYSROOT "${LLGO_WASM_TOOLCHAIN_DIR}/wasi-sysroot-threads")
  set(LLGO_WASM_CLANG_RESOURCE_DIR "${LLGO_WASM_TOOLCHAIN_DIR}/clang-resource-19")
endif()

# Emscripten: an emsdk, else the project's unpacked 3.1.69 (self-contained through .emscripten)
if(DEFINED ENV{EMSDK} AND EXISTS "$ENV{EMSDK}/upstream/emscripten/emcc")
  set(LLGO_WASM_EMSCRIPTEN_ROOT "$ENV{EMSDK}/upstream/emscripten")
else()
  set(LLGO_WASM_EMSCRIPTEN_ROOT "${LLGO_WASM_TOOLCHAIN_DIR}/emscripten")
endif()

# wasm-opt for the P1 post-link (the driver does its own discovery in the same order)
if(DEFINED ENV{WASMOPT} AND NOT "$ENV{WASMOPT}" STREQUAL "")
  set(LLGO_WASM_WASMOPT "$ENV{WASMOPT}")
elseif(DEFINED ENV{BINARYEN_ROOT} AND EXISTS "$ENV{BINARYEN_ROOT}/bin/wasm-opt")
  set(LLGO_WASM_WASMOPT "$ENV{BINARYEN_ROOT}/bin/wasm-opt")
else()
  set(LLGO_WASM_WASMOPT "${LLGO_WASM_TOOLCHAIN_DIR}/bin/wasm-opt")
endif()

# Node >= 24 (exnref, final Memory64): NODE, then the project's, then PATH (checked by users)
if(DEFINED ENV{NODE} AND NOT "$ENV{NODE}" STREQUAL "")
  set(LLGO_WASM_NODE "$ENV{NODE}")
elseif(EXISTS "${LLGO_WASM_TOOLCHAIN_DIR}/bin/node")
  set(LLGO_WASM_NODE "${LLGO_WASM_TOOLCHAIN_DIR}/bin/node")
else()
  find_program(LLGO_WASM_NODE NAMES node)
endif()

