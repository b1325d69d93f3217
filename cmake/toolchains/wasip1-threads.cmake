# WASI Preview 1 with threads (variant P1T, LLGO_WASI_THREADS=1): one pthread per goroutine,
# shared memory, wasi-threads thread-spawn. Needs the threads sysroot the setup builds.
set(LLGO_WASM_WASI_TRIPLE wasm32-wasip1-threads)
set(LLGO_WASM_WASI_THREADS ON)
include("${CMAKE_CURRENT_LIST_DIR}/wasi-common.cmake")
