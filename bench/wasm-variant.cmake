# bench/wasm-variant.cmake: the benchmark programs of one wasm variant, included at the end of
# cmake/wasm-variant/CMakeLists.txt (after fixtures.cmake), so the runtime libraries
# llgo_runtime_<cid>, LLGO_WASM_FIXTURE_BACKENDS, llgo_wasm_driver() and llgo_wasm_json_flags()
# are defined. Builds, per backend (a context in its default stack mode, "asyncify" = shared
# stacks, or in the other, "asyncify-separate"):
#   J32/J64  bench_runtime_<cid> (.js + .wasm) (emscripten-fiber, asyncify, asyncify-separate),
#            built like the scheduler fixture; bench_cpu_plain: the CPU kernel alone, without
#            the runtime and without -sASYNCIFY (the no-Asyncify baseline).
#   P1       bench_runtime_<cid>_objects: the benchmark compiled for that backend, as objects;
#            bench/run.py links them through `llgo-wasm link` itself (with and without
#            Asyncify narrowing, timing wasm-opt), because that link is part of what is measured.
#            bench_cpu_plain: the kernel alone, linked by clang, no Asyncify.
#   P1T      nothing (one thread per goroutine: the single-worker benchmarks do not apply).
# and writes bench-manifest.json beside it: what bench/run.py runs and links.
# Every benchmark target is EXCLUDE_FROM_ALL: a plain build (and CI) never builds them, so a
# benchmark that does not link cannot break anyone's build; `bench_programs` builds them all
# (bench/run.sh runs `cmake --build <dir>/wasm --target bench_programs`).
if(LLGO_WASM_VARIANT STREQUAL "P1T")
  return()
endif()

set(_bench_source "${ROOT}/bench/bench_runtime.c")
# -g0 after the build type's -g: DWARF would make emcc skip most post-link optimisation
# (-Wlimited-postlink-optimizations) and would inflate the modules whose sizes are compared.
set(_bench_no_debug -g0)
set(_bench_programs "")   # JSON objects, one per program
set(_bench_targets "")

foreach(_bench_backend IN LISTS LLGO_WASM_FIXTURE_BACKENDS)
  string(REPLACE "-" "_" _bench_cid "${_bench_backend}")
  set(_bench_ctx "${_bench_backend}")
  set(_bench_stacks_args "")
  if(_bench_backend MATCHES "^(.*)-(shared|separate)$")
    set(_bench_ctx "${CMAKE_MATCH_1}")
    set(_bench_stacks_args --stacks ${CMAKE_MATCH_2})
  endif()
  llgo_wasm_driver(_bench_resolved resolve --json --target ${LLGO_WASM_TARGET} --context ${_bench_ctx}
                   ${_bench_stacks_args})
  string(JSON _bench_stacks GET "${_bench_resolved}" capabilities stacks)
  llgo_wasm_json_flags(_bench_cflags "${_bench_resolved}" cflags)
  llgo_wasm_json_flags(_bench_ldflags "${_bench_resolved}" ldflags)

  if(LLGO_WASM_VARIANT MATCHES "^J")
    set(_exe bench_runtime_${_bench_cid})
    add_executable(${_exe} EXCLUDE_FROM_ALL "${_bench_source}")
    list(APPEND _bench_targets ${_exe})
    target_compile_options(${_exe} PRIVATE ${_bench_cflags} ${_bench_no_debug})
    target_link_libraries(${_exe} PRIVATE llgo_runtime_${_bench_cid})
    # 10,000 parked goroutines with default stacks need about 1.3 GB: let memory grow to 4 GB.
    target_link_options(${_exe} PRIVATE ${_bench_ldflags} -sEXIT_RUNTIME=1 -sSTACK_SIZE=1048576
      -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB ${_bench_no_debug})
    set(_intrinsics "${ROOT}/runtime/emscripten/asyncify_intrinsics.js")
    if(_bench_ctx STREQUAL "asyncify" AND EXISTS "${_intrinsics}")
      # Emscripten checks import names before its Asyncify pass replaces asyncify.* (docs/runtime.md).
      target_link_options(${_exe} PRIVATE "--js-library=${_intrinsics}")
    endif()
    string(APPEND _bench_programs
      "{\"kind\":\"runtime\",\"context\":\"${_bench_backend}\",\"stacks\":\"${_bench_stacks}\","
      "\"path\":\"$<TARGET_FILE:${_exe}>\"},")
  else()
    # P1: objects only; run.py links them with the driver (see the top of this file).
    set(_objects bench_runtime_${_bench_cid}_objects)
    add_library(${_objects} OBJECT EXCLUDE_FROM_ALL "${_bench_source}")
    target_compile_options(${_objects} PRIVATE ${_bench_cflags} ${_bench_no_debug})
    target_include_directories(${_objects} PRIVATE "${ROOT}/runtime/include")
    # Building this custom target builds the objects and the runtime archives they link with.
    add_custom_target(bench_runtime_${_bench_cid}_inputs)
    add_dependencies(bench_runtime_${_bench_cid}_inputs ${_objects} llgo_runtime_${_bench_cid} llgo_wasmcontext_${_bench_cid})
    string(JSON _ldflags_json GET "${_bench_resolved}" ldflags)
    string(APPEND _bench_programs
      "{\"kind\":\"runtime-objects\",\"context\":\"${_bench_ctx}\",\"backend\":\"${_bench_backend}\","
      "\"stacks\":\"${_bench_stacks}\","
      "\"objects\":\"$<JOIN:$<TARGET_OBJECTS:${_objects}>,|>\","
      "\"archives\":[\"$<TARGET_FILE:llgo_runtime_${_bench_cid}>\",\"$<TARGET_FILE:llgo_wasmcontext_${_bench_cid}>\"],"
      "\"ldflags\":${_ldflags_json}},")
    list(APPEND _bench_targets bench_runtime_${_bench_cid}_inputs)
  endif()
endforeach()

# The no-Asyncify baseline: the CPU kernel without the runtime.
add_executable(bench_cpu_plain EXCLUDE_FROM_ALL "${_bench_source}")
list(APPEND _bench_targets bench_cpu_plain)
target_compile_definitions(bench_cpu_plain PRIVATE BENCH_WITHOUT_RUNTIME=1)
target_compile_options(bench_cpu_plain PRIVATE ${_bench_no_debug})
target_link_options(bench_cpu_plain PRIVATE ${_bench_no_debug})
if(LLGO_WASM_VARIANT MATCHES "^J")
  # The data model flags (e.g. -sMEMORY64) but none of the Asyncify ones.
  llgo_wasm_driver(_bench_resolved resolve --json --target ${LLGO_WASM_TARGET})
  llgo_wasm_json_flags(_bench_cflags "${_bench_resolved}" cflags)
  llgo_wasm_json_flags(_bench_ldflags "${_bench_resolved}" ldflags)
  list(FILTER _bench_ldflags EXCLUDE REGEX "^-sASYNCIFY")
  target_compile_options(bench_cpu_plain PRIVATE ${_bench_cflags})
  target_link_options(bench_cpu_plain PRIVATE ${_bench_ldflags} -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1)
endif()
string(APPEND _bench_programs "{\"kind\":\"cpu-plain\",\"context\":\"none\",\"path\":\"$<TARGET_FILE:bench_cpu_plain>\"}")

add_custom_target(bench_programs)
add_dependencies(bench_programs ${_bench_targets})

file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/bench-manifest.json" CONTENT
"{\"variant\":\"${LLGO_WASM_VARIANT}\",\"target\":\"${LLGO_WASM_TARGET}\",\"driver\":\"${LLGO_WASM_DRIVER}\",
\"programs\":[${_bench_programs}]}
")
