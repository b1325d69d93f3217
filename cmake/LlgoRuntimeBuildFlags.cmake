# LlgoRuntimeBuildFlags.cmake: llgo_runtime_build_flags, the compile and link options of the
# runtime, the fixtures and the runtime's unit tests: warnings, and on the host LLGO_WASM_SANITIZE
# (ASan+UBSan) and LLGO_WASM_COVERAGE (clang's source-based coverage). Shared by the target build
# (runtime/libraries.cmake) and the superbuild's runtime tests, so a test links what the runtime was
# built with.
include_guard(DIRECTORY)
add_library(llgo_runtime_build_flags INTERFACE)
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(llgo_runtime_build_flags INTERFACE -Wall -Wextra)
  if(LLGO_WASM_SANITIZE)
    target_compile_options(llgo_runtime_build_flags INTERFACE
      -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(llgo_runtime_build_flags INTERFACE -fsanitize=address,undefined)
    if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
      # clang's ASan moves locals to "fake stack" frames it releases in LIFO order (to catch a use
      # after return); goroutines switch stacks under it and break that order (a crash in the
      # context switch). Off, as gcc's ASan has it.
      target_compile_options(llgo_runtime_build_flags INTERFACE -fsanitize-address-use-after-return=never)
    endif()
  endif()
  if(LLGO_WASM_COVERAGE)
    if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
      message(FATAL_ERROR "LLGO_WASM_COVERAGE needs clang (source-based coverage, read by llvm-cov); "
                          "the native-sanitize preset sets clang-19. Got ${CMAKE_C_COMPILER_ID}.")
    endif()
    # Source-based coverage: a region counts when it is entered, so the lines of a block that ends
    # in a call that exits the process (llgo_fatal) count too (gcov's edge counters miss them).
    # Every instrumented process writes its counts at exit (exit(), which llgo_fatal and the stack
    # guard use, runs the writer) into LLGO_WASM_COVERAGE_PROFILES, merged per binary (%m: one
    # file per program, updated under a lock); tests/runtime/runtime_coverage.py reports on them.
    set(_llgo_profile "${LLGO_WASM_COVERAGE_PROFILES}/%m.profraw")
    target_compile_options(llgo_runtime_build_flags INTERFACE -O0 "-fprofile-instr-generate=${_llgo_profile}"
                           -fcoverage-mapping)
    target_link_options(llgo_runtime_build_flags INTERFACE "-fprofile-instr-generate=${_llgo_profile}")
  endif()
endif()
