# bench/superbuild.cmake: the host-side benchmark programs, included at the end of
# cmake/LlgoWasmVariants.cmake in every preset's superbuild.
#   bench_driver            (native preset, when the driver library exists) in-library resolve and cache-key
#                           hashing, against llgo_wasm_driver (C++ API and C API);
#   bench_runtime_ucontext[_separate]  (native preset) bench/bench_runtime.c on the native
#                           single-worker scheduler (ucontext: shared or separate stacks);
#   bench_cpu_plain         (native preset) the CPU kernel without the runtime.
# bench-manifest.json in the build folder tells bench/run.py where they are. The wasm programs
# come from bench/wasm-variant.cmake inside the variant's external project.
# The programs are EXCLUDE_FROM_ALL (a plain build and CI never build them); the target
# `bench_programs` builds them (bench/run.sh does).
set(_bench_host_programs "")
set(_bench_host_targets "")

if(LLGO_WASM_VARIANT STREQUAL "native" AND TARGET llgo_wasm_driver)
  add_executable(bench_driver EXCLUDE_FROM_ALL "${PROJECT_SOURCE_DIR}/bench/bench_driver.cpp")
  list(APPEND _bench_host_targets bench_driver)
  target_link_libraries(bench_driver PRIVATE llgo_wasm_driver)
  string(APPEND _bench_host_programs "{\"kind\":\"driver\",\"context\":\"none\",\"path\":\"$<TARGET_FILE:bench_driver>\"},")
endif()

if(LLGO_WASM_VARIANT STREQUAL "native" AND TARGET llgo_runtime)
  # ucontext = shared stacks (llgo_runtime), ucontext-separate = separate stacks
  foreach(_bench_mode shared separate)
    set(_bench_backend ucontext)
    set(_bench_lib llgo_runtime)
    if(_bench_mode STREQUAL "separate")
      set(_bench_backend ucontext-separate)
      set(_bench_lib llgo_runtime_separate_stacks)
    endif()
    string(REPLACE "-" "_" _bench_exe "bench_runtime_${_bench_backend}")
    add_executable(${_bench_exe} EXCLUDE_FROM_ALL "${PROJECT_SOURCE_DIR}/bench/bench_runtime.c")
    list(APPEND _bench_host_targets ${_bench_exe})
    target_link_libraries(${_bench_exe} PRIVATE ${_bench_lib})
    string(APPEND _bench_host_programs
      "{\"kind\":\"runtime\",\"context\":\"${_bench_backend}\",\"stacks\":\"${_bench_mode}\","
      "\"path\":\"$<TARGET_FILE:${_bench_exe}>\"},")
  endforeach()
  add_executable(bench_cpu_plain EXCLUDE_FROM_ALL "${PROJECT_SOURCE_DIR}/bench/bench_runtime.c")
  list(APPEND _bench_host_targets bench_cpu_plain)
  target_compile_definitions(bench_cpu_plain PRIVATE BENCH_WITHOUT_RUNTIME=1)
  string(APPEND _bench_host_programs
    "{\"kind\":\"cpu-plain\",\"context\":\"none\",\"path\":\"$<TARGET_FILE:bench_cpu_plain>\"},")
endif()

add_custom_target(bench_programs)
if(_bench_host_targets)
  add_dependencies(bench_programs ${_bench_host_targets})
endif()

set(_bench_cli "")
if(TARGET llgo-wasm)
  set(_bench_cli "$<TARGET_FILE:llgo-wasm>")
endif()
string(REGEX REPLACE ",$" "" _bench_host_programs "${_bench_host_programs}")
file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/bench-manifest.json" CONTENT
"{\"variant\":\"${LLGO_WASM_VARIANT}\",\"host\":true,\"driver\":\"${_bench_cli}\",
\"wasm_build_dir\":\"${LLGO_WASM_VARIANT_BINARY_DIR}\",\"programs\":[${_bench_host_programs}]}
")
