# bench/wasm-variant.cmake: the benchmark programs of one target, included at the end of the
# target build (cmake/wasm-variant/CMakeLists.txt), after fixtures.cmake, so the runtime libraries
# llgo_runtime_<cid>, LLGO_WASM_FIXTURE_BACKENDS and the driver facts are defined. Builds, from
# what the driver says about the target:
#   bench_whole_programs_<cid> per single-worker context in its default stack mode: the four
#            whole programs (bench/whole_programs.c), linked as a user's program is;
#   bench_binary_trees_<cid> per such context that has gc-roots: binary-trees against the
#            collector (bench/binary_trees.c);
#   bench_hello_goroutines on the default context and stack mode (threaded targets too): the
#            start-up and size program;
#   bench_runtime_<cid> per single-worker backend (a context in a stack mode, fixtures.cmake:
#            "asyncify" = shared stacks on P1, "asyncify-separate"; not pthread: one thread per
#            goroutine, the single-worker benchmarks do not apply), built like the scheduler fixture;
#            for a post-link target, or a context that merges modules (stack switching), only its
#            objects (bench_runtime_<cid>_objects): bench/run.py links them through
#            `llgo-wasm link` itself (P1: with and without Asyncify narrowing, timing wasm-opt),
#            because that link is part of what is measured;
#   bench_runtime_<cid>_<ext> the same program for each sampled engine (a browser) whose output
#            extension is not the target's (J32/J64: Chromium's .mjs);
#   bench_runtime_<cid>_no_context for a backend on engine stacks that emcc switches on by link
#            flags (jspi): the same program without them, for its module size (never run);
#   bench_cpu_plain: the CPU kernel alone, without the runtime and without Emscripten's
#            -sASYNCIFY (the no-Asyncify baseline), linked by the toolchain directly.
# and writes bench-manifest.json beside it: what bench/run.py runs and links.
# Every benchmark target is EXCLUDE_FROM_ALL: a plain build (and CI) never builds them, so a
# benchmark that does not link cannot break anyone's build; `bench_programs` builds them all
# (bench/run.sh runs `cmake --build <dir>/target --target bench_programs`).
set(_bench_source "${ROOT}/bench/bench_runtime.c")
# -g0 after the build type's -g: DWARF would make emcc skip most post-link optimisation
# (-Wlimited-postlink-optimizations) and would inflate the modules whose sizes are compared.
set(_bench_no_debug -g0)
set(_bench_programs "")   # JSON objects, one per program
set(_bench_targets "")
set(_bench_post_link OFF)
if(LLGO_WASM_TARGET_ASYNCIFY STREQUAL "post-link")
  set(_bench_post_link ON)
endif()

# bench/<source>.c as bench_<source>_<cid>, linked as a user's program is, on the backend of the
# loop below, recorded in the manifest as {"kind": <kind>, ...} (a macro: it appends to the
# loop's _bench_targets and _bench_programs).
macro(_llgo_bench_user_program kind source)
  set(_exe bench_${source}_${_bench_cid})
  add_executable(${_exe} EXCLUDE_FROM_ALL "${ROOT}/bench/${source}.c")
  target_compile_options(${_exe} PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${_bench_no_debug})
  target_link_libraries(${_exe} PRIVATE llgo_runtime_${_bench_cid})
  llgo_wasm_link_target_program(${_exe} DRIVER "${LLGO_WASM_DRIVER}" TARGET_NAME "${LLGO_WASM_TARGET}"
    CONTEXT "${_bench_ctx}" STACKS "${_bench_stacks}" LINK_OPTIONS ${_bench_no_debug})
  list(APPEND _bench_targets ${_exe})
  string(APPEND _bench_programs
    "{\"kind\":\"${kind}\",\"context\":\"${_bench_backend}\",\"stacks\":\"${_bench_stacks}\","
    "\"path\":\"$<TARGET_FILE:${_exe}>\"},")
endmacro()

foreach(_bench_backend IN LISTS LLGO_WASM_FIXTURE_BACKENDS)
  string(REPLACE "-" "_" _bench_cid "${_bench_backend}")
  set(_bench_ctx "${LLGO_WASM_BACKEND_${_bench_cid}_CONTEXT}")
  set(_bench_stacks "${LLGO_WASM_BACKEND_${_bench_cid}_STACKS}")
  # The benchmarks measure one worker's switches: a threaded backend has none to measure.
  if(NOT "single-worker" IN_LIST LLGO_WASM_BACKEND_${_bench_cid}_CAPABILITIES)
    continue()
  endif()
  llgo_wasm_read_target("${LLGO_WASM_TARGET}" CONTEXT ${_bench_ctx} STACKS ${_bench_stacks})
  # The whole programs (bench/whole_programs.c) and binary-trees against the collector
  # (bench/binary_trees.c, where it has one: gc-roots), on each single-worker context in its
  # default stack mode, linked as a user's program is.
  if(_bench_backend STREQUAL _bench_ctx)
    _llgo_bench_user_program(whole whole_programs)
    if("gc-roots" IN_LIST LLGO_WASM_BACKEND_${_bench_cid}_CAPABILITIES)
      _llgo_bench_user_program(binary-trees binary_trees)
    endif()
  endif()
  # A context that merges modules (stack switching) is finished by the driver's link too.
  string(JSON _bench_merge ERROR_VARIABLE _bench_no_merge GET "${LLGO_WASM_TARGET_JSON}" context-merge ${_bench_ctx})
  if(NOT _bench_post_link AND _bench_no_merge)
    set(_exe bench_runtime_${_bench_cid})
    add_executable(${_exe} EXCLUDE_FROM_ALL "${_bench_source}")
    list(APPEND _bench_targets ${_exe})
    target_compile_options(${_exe} PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${_bench_no_debug})
    target_link_libraries(${_exe} PRIVATE llgo_runtime_${_bench_cid})
    # Linked as a user's program is (llgo_wasm_link_runtime): an Emscripten one through the driver.
    llgo_wasm_link_target_program(${_exe} DRIVER "${LLGO_WASM_DRIVER}" TARGET_NAME "${LLGO_WASM_TARGET}"
      CONTEXT "${_bench_ctx}" STACKS "${_bench_stacks}" LINK_OPTIONS ${_bench_no_debug})
    string(APPEND _bench_programs
      "{\"kind\":\"runtime\",\"context\":\"${_bench_backend}\",\"stacks\":\"${_bench_stacks}\","
      "\"path\":\"$<TARGET_FILE:${_exe}>\"},")
    # The same program for each sampled engine (a browser) whose output extension is not the
    # target's (Chromium runs the .mjs ES module): bench/run.py measures a few rows there too.
    foreach(_bench_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
      set(_bench_extension "${LLGO_WASM_ENGINE_${_bench_engine}_EXTENSION}")
      if(NOT LLGO_WASM_ENGINE_${_bench_engine}_SAMPLED OR _bench_extension STREQUAL LLGO_WASM_TARGET_EXTENSION)
        continue()
      endif()
      string(REPLACE "." "" _bench_word "${_bench_extension}")
      set(_twin ${_exe}_${_bench_word})
      if(NOT TARGET ${_twin})
        add_executable(${_twin} EXCLUDE_FROM_ALL "${_bench_source}")
        set_target_properties(${_twin} PROPERTIES SUFFIX "${_bench_extension}")
        target_compile_options(${_twin} PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${_bench_no_debug})
        target_link_libraries(${_twin} PRIVATE llgo_runtime_${_bench_cid})
        llgo_wasm_link_target_program(${_twin} DRIVER "${LLGO_WASM_DRIVER}" TARGET_NAME "${LLGO_WASM_TARGET}"
          CONTEXT "${_bench_ctx}" STACKS "${_bench_stacks}" LINK_OPTIONS ${_bench_no_debug})
        list(APPEND _bench_targets ${_twin})
      endif()
      string(APPEND _bench_programs
        "{\"kind\":\"runtime-engine\",\"engine\":\"${_bench_engine}\",\"context\":\"${_bench_backend}\","
        "\"stacks\":\"${_bench_stacks}\",\"path\":\"$<TARGET_FILE:${_twin}>\"},")
    endforeach()
    # A backend on engine stacks that the toolchain switches on by link flags (JSPI: emcc's
    # -sJSPI): the same program linked with the context's flags except those, the module without
    # context support its size is compared with. It cannot switch, so it is never run.
    if("engine-stacks" IN_LIST LLGO_WASM_BACKEND_${_bench_cid}_CAPABILITIES)
      set(_nocontext ${_exe}_no_context)
      add_executable(${_nocontext} EXCLUDE_FROM_ALL "${_bench_source}")
      target_compile_options(${_nocontext} PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${_bench_no_debug})
      target_link_libraries(${_nocontext} PRIVATE llgo_runtime_${_bench_cid})
      set(_nocontext_ldflags ${LLGO_WASM_TARGET_LDFLAGS})
      list(FILTER _nocontext_ldflags EXCLUDE REGEX "^-s(ASYNCIFY|JSPI)")
      target_link_options(${_nocontext} PRIVATE ${_nocontext_ldflags} ${_bench_no_debug})
      list(APPEND _bench_targets ${_nocontext})
      string(APPEND _bench_programs
        "{\"kind\":\"runtime-no-context\",\"context\":\"${_bench_backend}\","
        "\"path\":\"$<TARGET_FILE:${_nocontext}>\"},")
    endif()
  else()
    set(_objects bench_runtime_${_bench_cid}_objects)
    add_library(${_objects} OBJECT EXCLUDE_FROM_ALL "${_bench_source}")
    target_compile_options(${_objects} PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${_bench_no_debug})
    target_include_directories(${_objects} PRIVATE "${ROOT}/runtime/include")
    # Building this custom target builds the objects and the runtime archives they link with.
    add_custom_target(bench_runtime_${_bench_cid}_inputs)
    add_dependencies(bench_runtime_${_bench_cid}_inputs ${_objects} llgo_runtime_${_bench_cid} llgo_wasmcontext_${_bench_cid})
    string(JSON _ldflags_json GET "${LLGO_WASM_TARGET_JSON}" effective ldflags)
    string(APPEND _bench_programs
      "{\"kind\":\"runtime-objects\",\"context\":\"${_bench_ctx}\",\"backend\":\"${_bench_backend}\","
      "\"stacks\":\"${_bench_stacks}\","
      "\"objects\":\"$<JOIN:$<TARGET_OBJECTS:${_objects}>,|>\","
      "\"archives\":[\"$<TARGET_FILE:llgo_runtime_${_bench_cid}>\",\"$<TARGET_FILE:llgo_wasmcontext_${_bench_cid}>\"],"
      "\"ldflags\":${_ldflags_json}},")
    list(APPEND _bench_targets bench_runtime_${_bench_cid}_inputs)
  endif()
endforeach()
llgo_wasm_read_target("${LLGO_WASM_TARGET}")
set(_bench_runtime_targets "${_bench_targets}")

# hello-goroutines (the start-up and size rows): every target, threaded ones too, on its default
# context and stack mode, linked as a user's program is.
string(REPLACE "-" "_" _bench_default_cid "${LLGO_WASM_TARGET_CONTEXT}")
if(TARGET llgo_runtime_${_bench_default_cid})
  add_executable(bench_hello_goroutines EXCLUDE_FROM_ALL "${ROOT}/bench/hello_goroutines.c")
  target_compile_options(bench_hello_goroutines PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${_bench_no_debug})
  target_link_libraries(bench_hello_goroutines PRIVATE llgo_runtime_${_bench_default_cid})
  llgo_wasm_link_target_program(bench_hello_goroutines DRIVER "${LLGO_WASM_DRIVER}" TARGET_NAME "${LLGO_WASM_TARGET}"
    CONTEXT "${LLGO_WASM_TARGET_CONTEXT}" STACKS "${LLGO_WASM_TARGET_STACKS}" LINK_OPTIONS ${_bench_no_debug})
  list(APPEND _bench_targets bench_hello_goroutines)
  string(APPEND _bench_programs
    "{\"kind\":\"hello\",\"context\":\"${LLGO_WASM_TARGET_CONTEXT}\",\"stacks\":\"${LLGO_WASM_TARGET_STACKS}\","
    "\"path\":\"$<TARGET_FILE:bench_hello_goroutines>\"},")
endif()

if(_bench_runtime_targets)
  # The no-Asyncify baseline: the CPU kernel without the runtime, with the target's flags (the
  # data model's, e.g. -sMEMORY64) but none of emcc's Asyncify ones.
  add_executable(bench_cpu_plain EXCLUDE_FROM_ALL "${_bench_source}")
  list(APPEND _bench_targets bench_cpu_plain)
  set(_bench_plain_ldflags ${LLGO_WASM_TARGET_LDFLAGS})
  list(FILTER _bench_plain_ldflags EXCLUDE REGEX "^-sASYNCIFY")
  # Nor the context's own link flags: the kernel has no context.
  llgo_wasm_json_flags(_bench_context_ldflags "${LLGO_WASM_TARGET_JSON}" context-ldflags "${LLGO_WASM_TARGET_CONTEXT}")
  if(_bench_context_ldflags)
    list(REMOVE_ITEM _bench_plain_ldflags ${_bench_context_ldflags})
  endif()
  target_compile_definitions(bench_cpu_plain PRIVATE BENCH_WITHOUT_RUNTIME=1)
  target_compile_options(bench_cpu_plain PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${_bench_no_debug})
  target_link_options(bench_cpu_plain PRIVATE ${_bench_plain_ldflags} ${_bench_no_debug})
  string(APPEND _bench_programs "{\"kind\":\"cpu-plain\",\"context\":\"none\",\"path\":\"$<TARGET_FILE:bench_cpu_plain>\"}")
endif()
string(REGEX REPLACE ",$" "" _bench_programs "${_bench_programs}")

add_custom_target(bench_programs)
if(_bench_targets)
  add_dependencies(bench_programs ${_bench_targets})
endif()

file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/bench-manifest.json" CONTENT
"{\"variant\":\"${LLGO_WASM_TARGET_VARIANT}\",\"target\":\"${LLGO_WASM_TARGET}\",\"driver\":\"${LLGO_WASM_DRIVER}\",
\"programs\":[${_bench_programs}]}
")
