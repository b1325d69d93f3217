# cmake/wasm-variant/runtime-unit-tests.cmake: the runtime's unit tests (tests/runtime: the context
# layer alone per stack mode, the run queue, G/M/P state) for a native target that is not the
# host. The host tree builds and runs them in the superbuild (tests/runtime/CMakeLists.txt); a
# cross-built native target (the preset native-aarch64) runs them here, under its engines, on
# the runtime libraries fixtures.cmake built for each backend on the native context switch
# (context ucontext, which only native targets support):
#   runtime.wasmcontext.<variant>.<engine>[.separate_stacks]   test_wasmcontext.c
#   runtime.runqueue.<variant>.<engine>, runtime.gstate.<variant>.<engine>
if(LLGO_WASM_TARGET STREQUAL "host")
  return()
endif()

set(_unit_dir "${ROOT}/tests/runtime")
set(_unit_programs "")
foreach(_backend IN LISTS LLGO_WASM_FIXTURE_BACKENDS)
  string(REPLACE "-" "_" _cid "${_backend}")
  set(_capabilities "${LLGO_WASM_BACKEND_${_cid}_CAPABILITIES}")
  if("wasm" IN_LIST _capabilities OR NOT "single-worker" IN_LIST _capabilities OR NOT TARGET llgo_wasmcontext_${_cid})
    continue() # the tests are native programs of the single worker's context layer (the native switch)
  endif()
  set(_suffix "")
  if(LLGO_WASM_BACKEND_${_cid}_STACKS STREQUAL "separate")
    set(_suffix ".separate_stacks")
  endif()
  llgo_wasm_read_target("${LLGO_WASM_TARGET}" CONTEXT ${LLGO_WASM_BACKEND_${_cid}_CONTEXT}
                        STACKS ${LLGO_WASM_BACKEND_${_cid}_STACKS})
  llgo_wasm_add_program(runtime_test_wasmcontext_${_cid} DEFAULT_EXTENSION_ONLY RUNTIME_HEADERS
    SOURCES "${_unit_dir}/test_wasmcontext.c" RUNTIME llgo_wasmcontext_${_cid} INCLUDES "${_unit_dir}")
  target_link_libraries(runtime_test_wasmcontext_${_cid} PRIVATE m)
  list(APPEND _unit_programs "wasmcontext${_suffix}|runtime_test_wasmcontext_${_cid}")
  if(LLGO_WASM_BACKEND_${_cid}_STACKS STREQUAL LLGO_WASM_TARGET_STACKS AND NOT TARGET runtime_test_gstate)
    llgo_wasm_add_program(runtime_test_runqueue DEFAULT_EXTENSION_ONLY
      SOURCES "${_unit_dir}/test_runqueue.c" "${ROOT}/runtime/src/runqueue.c"
      INCLUDES "${_unit_dir}" "${ROOT}/runtime/src")
    llgo_wasm_add_program(runtime_test_gstate DEFAULT_EXTENSION_ONLY RUNTIME_HEADERS
      SOURCES "${_unit_dir}/test_gstate.c" RUNTIME llgo_runtime_${_cid} INCLUDES "${_unit_dir}" "${ROOT}/runtime/src")
    list(APPEND _unit_programs "runqueue|runtime_test_runqueue" "gstate|runtime_test_gstate")
  endif()
endforeach()
llgo_wasm_read_target("${LLGO_WASM_TARGET}")

foreach(_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
  if(LLGO_WASM_ENGINE_${_engine}_SAMPLED)
    continue()
  endif()
  foreach(_unit IN LISTS _unit_programs)
    string(REPLACE "|" ";" _unit "${_unit}")
    list(GET _unit 0 _name)
    list(GET _unit 1 _program)
    string(REGEX REPLACE "^([a-z]+)(.*)$" "runtime.\\1.${LLGO_WASM_TARGET_VARIANT}.${_engine}\\2" _test "${_name}")
    llgo_wasm_engine_command(_command ${_engine} "$<TARGET_FILE:${_program}>")
    # Through the checker, which starts engines as llgo-wasm run does ({environment} expanded).
    add_test(NAME ${_test} COMMAND "${LLGO_WASM_CHECK_RUN_PROGRAM}" --exit 0 -- ${_command})
    set_tests_properties(${_test} PROPERTIES LABELS "${LLGO_WASM_TARGET_VARIANT};${_engine};runtime")
  endforeach()
endforeach()
