# Emscripten Memory64 (variant J64, GOOS=js GOARCH=wasm): Go's 64-bit word model, so pointers,
# long and ssize_t are 8 bytes. MEMORY64 must be in CMAKE_C_FLAGS before Emscripten's module reads
# it (it sets CMAKE_SIZEOF_VOID_P from it) and on every link.
set(CMAKE_C_FLAGS "-sMEMORY64=1" CACHE STRING "C flags")
set(CMAKE_CXX_FLAGS "-sMEMORY64=1" CACHE STRING "C++ flags")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-sMEMORY64=1")
include("${CMAKE_CURRENT_LIST_DIR}/emscripten-common.cmake")
