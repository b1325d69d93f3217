# LlgoRuntimeBuildFlags.cmake: llgo_runtime_build_flags, the compile and link options of the
# runtime, the fixtures and the runtime's unit tests: warnings, and on the host LLGO_WASM_SANITIZE
# (ASan+UBSan) and LLGO_WASM_COVERAGE (gcov). Shared by the target build (runtime/libraries.cmake)
# and the superbuild's runtime tests, so a test links what the runtime was built with.
include_guard(DIRECTORY)
add_library(llgo_runtime_build_flags INTERFACE)
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(llgo_runtime_build_flags INTERFACE -Wall -Wextra)
  if(LLGO_WASM_SANITIZE)
    target_compile_options(llgo_runtime_build_flags INTERFACE
      -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(llgo_runtime_build_flags INTERFACE -fsanitize=address,undefined)
  endif()
  if(LLGO_WASM_COVERAGE)
    target_compile_options(llgo_runtime_build_flags INTERFACE --coverage -O0)
    target_link_options(llgo_runtime_build_flags INTERFACE --coverage)
  endif()
endif()
