# toolchains/emscripten-common.cmake: shared body of the Emscripten toolchain files. Uses the
# Emscripten of EMSDK, else the one tools/setup-toolchain.sh installed, through Emscripten's own
# toolchain module (the conventions users know: CMAKE_SYSTEM_NAME Emscripten, .js executables).
include("${CMAKE_CURRENT_LIST_DIR}/../LlgoWasmToolchainPaths.cmake")
# Debug says -O0 out loud (see wasi-common.cmake): emcc's Binaryen then runs unoptimised, and a
# link line without any -O gets the target's default level through the driver's link.
set(CMAKE_C_FLAGS_DEBUG_INIT "-O0")
set(CMAKE_CXX_FLAGS_DEBUG_INIT "-O0")
set(_llgo_em_toolchain "${LLGO_WASM_EMSCRIPTEN_ROOT}/cmake/Modules/Platform/Emscripten.cmake")
if(NOT EXISTS "${_llgo_em_toolchain}")
  message(FATAL_ERROR "Emscripten not found at '${LLGO_WASM_EMSCRIPTEN_ROOT}'. Run tools/setup-toolchain.sh, or set EMSDK to an emsdk checkout.")
endif()
include("${_llgo_em_toolchain}")
# Emscripten's module tells CMake that emcc is Clang for C and C++, so that CMake runs no compiler
# identification; the same for assembly (the runtime enables ASM for its .S files): otherwise
# CMake tries its 17 assemblers' version flags on emcc, a Python start each, none of which it
# recognises, at every configure (4 of the 7.6 s a configure of an empty project took).
set(CMAKE_ASM_COMPILER_ID Clang)
# Installed (cmake --install), the prefix this file comes from is on the package search path.
include("${CMAKE_CURRENT_LIST_DIR}/../LlgoWasmInstallLayout.cmake" OPTIONAL)
# The engine that runs the output: Node >= 24 (Node 20 runs neither exnref nor final Memory64).
if(LLGO_WASM_NODE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${LLGO_WASM_NODE}" CACHE FILEPATH "Engine for Emscripten output" FORCE)
endif()
