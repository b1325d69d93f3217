# LlgoWasmFuzz.cmake: compile flags for a tree with the fuzzers (LLGO_WASM_FUZZ=ON, preset native-sanitize).
#
# Every host target of the tree is built with ASan+UBSan, UBSan fatal. Only the code the fuzzers
# run (the libraries they link and the fuzzers themselves: llgo_wasm_fuzz_instrument, called by
# tests/fuzz) is instrumented for libFuzzer's coverage feedback: the unit tests, the CLI and the
# test checker are not fuzzed, and the instrumentation costs a fifth of a unity file's compile
# (6.5 s of CPU against 8.4 s for the driver's largest). Only the fuzz executables link
# libFuzzer's main (-fsanitize=fuzzer). libFuzzer ships with clang: Debian's libfuzzer-19-dev and
# libclang-rt-19-dev, installed by tools/setup-toolchain.sh.
include_guard(GLOBAL)

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "LLGO_WASM_FUZZ needs clang for C and C++ (libFuzzer); the native-sanitize preset sets clang-19. "
                      "Got ${CMAKE_C_COMPILER_ID} / ${CMAKE_CXX_COMPILER_ID}.")
endif()
add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)

# llgo_wasm_fuzz_instrument(<target>...): compile these targets' own sources with libFuzzer's
# coverage feedback (what a fuzzer links: an object or static library of the driver, or a fuzzer).
function(llgo_wasm_fuzz_instrument)
  foreach(target IN LISTS ARGN)
    if(NOT TARGET ${target})
      message(FATAL_ERROR "llgo_wasm_fuzz_instrument: no target ${target}")
    endif()
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endforeach()
endfunction()
