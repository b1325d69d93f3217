# LlgoWasmTargetBuild.cmake: the superbuild's target build. cmake/wasm-variant is configured as an
# external project after the driver (it asks the driver everything about the target), with
# LLGO_WASM_TARGET_TOOLCHAIN_FILE (none: the host compiler). It builds the runtime, the fixtures
# and their ctest cases for LLGO_WASM_TARGET; this tree's ctest runs those cases too
# (TEST_INCLUDE_FILES), so `ctest --preset X` runs everything the preset builds.
# For the host target, the runtime's libraries are imported here for its unit tests
# (tests/runtime): llgo_runtime (single worker on ucontext, shared stacks) with llgo_wasmcontext,
# and llgo_wasmcontext_separate_stacks (the same context layer on separate stacks).
include_guard(GLOBAL)
include(ExternalProject)
include(LlgoWasmToolchainPaths)
include(LlgoWasmPackageCache)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

option(LLGO_WASM_BROWSER_TESTS "Run the programs of targets with a browser engine in headless Chromium too" ON)
set(LLGO_WASM_STACK_SIZE "" CACHE STRING
    "Goroutine C stack size for the target's runtime and programs (bytes, or with K/M/G; empty: the descriptor's; docs/runtime.md, Stacks)")
set(LLGO_WASM_TARGET_BINARY_DIR "${CMAKE_BINARY_DIR}/target")
set(_llgo_target_args
  "-DLLGO_WASM_TARGET=${LLGO_WASM_TARGET}"
  "-DLLGO_WASM_SOURCE_ROOT=${PROJECT_SOURCE_DIR}"
  "-DLLGO_WASM_TOOLCHAIN_DIR=${LLGO_WASM_TOOLCHAIN_DIR}"
  "-DLLGO_WASM_DRIVER=$<TARGET_FILE:llgo-wasm>"
  "-DLLGO_WASM_CHECK_RUN_PROGRAM=$<TARGET_FILE:llgo_wasm_check_run>"
  "-DLLGO_WASM_FULL_TESTS=${LLGO_WASM_FULL_TESTS}"
  "-DLLGO_WASM_PROGRAM_CASES_TIER=${LLGO_WASM_PROGRAM_CASES_TIER}"
  "-DLLGO_WASM_DEMO_ONLY=${LLGO_WASM_DEMO_ONLY}"
  "-DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}"
  "-DLLGO_WASM_SANITIZE=${LLGO_WASM_SANITIZE}"
  "-DLLGO_WASM_COVERAGE=${LLGO_WASM_COVERAGE}"
  "-DLLGO_WASM_COVERAGE_PROFILES=${LLGO_WASM_COVERAGE_PROFILES}"
  "-DLLGO_WASM_BROWSER_TESTS=${LLGO_WASM_BROWSER_TESTS}"
  "-DLLGO_WASM_STACK_SIZE=${LLGO_WASM_STACK_SIZE}"
  "-DPython3_EXECUTABLE=${Python3_EXECUTABLE}"
  "-DLLGO_WASM_PACKAGE_CACHE=${LLGO_WASM_PACKAGE_CACHE}"
  "-DLLGO_WASM_REMOTE_CACHE=${LLGO_WASM_REMOTE_CACHE}"
  "-DLLGO_WASM_CACHE_DIR=${LLGO_WASM_CACHE_DIR}"
  "-DLLGO_WASM_PACKAGE_CACHE_TIMEOUT=${LLGO_WASM_PACKAGE_CACHE_TIMEOUT}")
# The build type's C flags reach the target build as this tree has them (the same defaults as the
# target compilers', -O3 -DNDEBUG for Release; tools/run-tests.sh builds its target trees at the
# descriptors' link level, -O2).
if(CMAKE_BUILD_TYPE)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _llgo_build_type)
  list(APPEND _llgo_target_args "-DCMAKE_C_FLAGS_${_llgo_build_type}=${CMAKE_C_FLAGS_${_llgo_build_type}}")
endif()
if(LLGO_WASM_TARGET_TOOLCHAIN_FILE)
  list(APPEND _llgo_target_args "-DCMAKE_TOOLCHAIN_FILE=${LLGO_WASM_TARGET_TOOLCHAIN_FILE}")
else()
  list(APPEND _llgo_target_args "-DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}")
endif()

# The host's runtime libraries, for the runtime's unit tests in this tree.
set(_llgo_host_libraries "")
if(LLGO_WASM_TARGET STREQUAL "host")
  set(_llgo_lib "${LLGO_WASM_TARGET_BINARY_DIR}/lib")
  set(_llgo_host_libraries "${_llgo_lib}/libllgo_runtime_ucontext.a" "${_llgo_lib}/libllgo_wasmcontext_ucontext.a"
                           "${_llgo_lib}/libllgo_wasmcontext_ucontext_separate.a")
endif()

# Built here, the host tools come first; imported from another tree (LlgoWasmHostToolsFrom), they are there.
set(_llgo_tool_dependencies "")
get_target_property(_llgo_tools_imported llgo-wasm IMPORTED)
if(NOT _llgo_tools_imported)
  set(_llgo_tool_dependencies DEPENDS llgo-wasm llgo_wasm_check_run)
endif()
ExternalProject_Add(target-build
  SOURCE_DIR "${PROJECT_SOURCE_DIR}/cmake/wasm-variant"
  BINARY_DIR "${LLGO_WASM_TARGET_BINARY_DIR}"
  CMAKE_GENERATOR Ninja
  CMAKE_ARGS ${_llgo_target_args}
  ${_llgo_tool_dependencies}
  BUILD_ALWAYS ON
  BUILD_BYPRODUCTS ${_llgo_host_libraries}
  INSTALL_COMMAND ""
  USES_TERMINAL_CONFIGURE ON
  USES_TERMINAL_BUILD ON)

# The target build's tests, or one failing test that says it has not been built.
set(_llgo_target_tests "${CMAKE_BINARY_DIR}/target-build-tests.cmake")
file(WRITE "${_llgo_target_tests}" "\
if(EXISTS \"${LLGO_WASM_TARGET_BINARY_DIR}/CTestTestfile.cmake\")
  include(\"${LLGO_WASM_TARGET_BINARY_DIR}/CTestTestfile.cmake\")
else()
  add_test(target-build.not-built \"${CMAKE_COMMAND}\" -E echo \"the target build has not run: cmake --build ${CMAKE_BINARY_DIR}\")
  set_tests_properties(target-build.not-built PROPERTIES WILL_FAIL TRUE)
endif()
")
set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${_llgo_target_tests}")

if(_llgo_host_libraries)
  # Imported through INTERFACE libraries, which can depend on the external project.
  file(MAKE_DIRECTORY "${LLGO_WASM_TARGET_BINARY_DIR}/wasmcontext-only-ucontext")
  add_library(llgo_wasmcontext INTERFACE)
  target_link_libraries(llgo_wasmcontext INTERFACE "${_llgo_lib}/libllgo_wasmcontext_ucontext.a")
  target_include_directories(llgo_wasmcontext INTERFACE "${LLGO_WASM_TARGET_BINARY_DIR}/wasmcontext-only-ucontext")
  # What the libraries' own files were compiled with (their context's effective cflags), so that a
  # test embedding a context gives it that backend's size (wasmcontext.h), not the largest.
  target_compile_definitions(llgo_wasmcontext INTERFACE LLGO_CONTEXT_UCONTEXT)
  add_dependencies(llgo_wasmcontext target-build)
  add_library(llgo_runtime INTERFACE)
  target_link_libraries(llgo_runtime INTERFACE "${_llgo_lib}/libllgo_runtime_ucontext.a" llgo_wasmcontext)
  target_include_directories(llgo_runtime INTERFACE "${PROJECT_SOURCE_DIR}/runtime/include")
  add_dependencies(llgo_runtime target-build)
  file(MAKE_DIRECTORY "${LLGO_WASM_TARGET_BINARY_DIR}/wasmcontext-only-ucontext_separate")
  add_library(llgo_wasmcontext_separate_stacks INTERFACE)
  target_link_libraries(llgo_wasmcontext_separate_stacks INTERFACE "${_llgo_lib}/libllgo_wasmcontext_ucontext_separate.a")
  target_include_directories(llgo_wasmcontext_separate_stacks INTERFACE
                             "${LLGO_WASM_TARGET_BINARY_DIR}/wasmcontext-only-ucontext_separate")
  target_compile_definitions(llgo_wasmcontext_separate_stacks INTERFACE LLGO_CONTEXT_UCONTEXT)
  add_dependencies(llgo_wasmcontext_separate_stacks target-build)
  # Warnings, sanitizers and coverage as the runtime itself was built with.
  include(LlgoRuntimeBuildFlags)
endif()

# Benchmarks (bench/): the host-side benchmark programs of the superbuild.
if(EXISTS "${PROJECT_SOURCE_DIR}/bench/superbuild.cmake")
  include("${PROJECT_SOURCE_DIR}/bench/superbuild.cmake")
endif()
