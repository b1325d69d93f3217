# bench/superbuild.cmake: the host-side benchmark program of the superbuild, included at the end
# of cmake/LlgoWasmTargetBuild.cmake:
#   bench_driver  (host tree, when the driver library exists) in-library resolve and cache-key
#                 hashing, against llgo_wasm_driver (C++ API and C API).
# bench-manifest.json in the build folder tells bench/run.py where it and the CLI are. The
# runtime's benchmark programs, the host's included, come from bench/wasm-variant.cmake inside
# the target build (build/<preset>/target).
# The program is EXCLUDE_FROM_ALL (a plain build and CI never build it); the target
# `bench_programs` builds it (bench/run.sh does).
set(_bench_host_programs "")
add_custom_target(bench_programs)
if(LLGO_WASM_TARGET STREQUAL "host" AND TARGET llgo_wasm_driver)
  add_executable(bench_driver EXCLUDE_FROM_ALL "${PROJECT_SOURCE_DIR}/bench/bench_driver.cpp")
  target_link_libraries(bench_driver PRIVATE llgo_wasm_driver)
  add_dependencies(bench_programs bench_driver)
  set(_bench_host_programs "{\"kind\":\"driver\",\"context\":\"none\",\"path\":\"$<TARGET_FILE:bench_driver>\"}")
endif()

file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/bench-manifest.json" CONTENT
"{\"target\":\"${LLGO_WASM_TARGET}\",\"host\":true,\"driver\":\"$<TARGET_FILE:llgo-wasm>\",
\"target_build_dir\":\"${LLGO_WASM_TARGET_BINARY_DIR}\",\"programs\":[${_bench_host_programs}]}
")
