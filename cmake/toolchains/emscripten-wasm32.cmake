# Emscripten wasm32 (variant J32, `-target wasm`): 4-byte pointers, long and ssize_t.
include("${CMAKE_CURRENT_LIST_DIR}/emscripten-common.cmake")
