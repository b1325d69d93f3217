# WASI Preview 1 (variant P1): wasm32, single worker, goroutines on post-link Asyncify.
# Compile with LLVM 19; executables are finished by the driver's link (cmake/LlgoWasmLink.cmake).
# Use:  cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/wasip1.cmake ...   (or: cmake --preset wasip1)
set(LLGO_WASM_WASI_TRIPLE wasm32-unknown-wasip1)
set(LLGO_WASM_WASI_THREADS OFF)
include("${CMAKE_CURRENT_LIST_DIR}/wasi-common.cmake")
