# LlgoWasmFuzz.cmake: compile flags for a tree with the fuzzers (LLGO_WASM_FUZZ=ON, preset native-sanitize).
#
# Every host target of the tree (the driver, the link library, the fuzzers, the tests) is instrumented for
# libFuzzer's coverage feedback and built with ASan+UBSan, UBSan fatal; only the fuzz
# executables link libFuzzer's main (-fsanitize=fuzzer, see tests/fuzz). libFuzzer ships with
# clang: Debian's libfuzzer-19-dev and libclang-rt-19-dev, installed by tools/setup-toolchain.sh.
include_guard(GLOBAL)

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "LLGO_WASM_FUZZ needs clang for C and C++ (libFuzzer); the native-sanitize preset sets clang-19. "
                      "Got ${CMAKE_C_COMPILER_ID} / ${CMAKE_CXX_COMPILER_ID}.")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
