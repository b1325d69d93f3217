# runtime/libraries.cmake: the goroutine runtime (C11) for one target, as static libraries per
# context backend. Included by the target build (cmake/wasm-variant/CMakeLists.txt) for every
# target, the host included; the source lists come from the driver (`llgo-wasm sources`, which
# evaluates each file's //llgo:build line), never from a list kept here.
#
#   llgo_runtime_add(<suffix> CONTEXT <ctx> [OPTIONS <compile options>...])
#     llgo_runtime_<suffix>      the scheduler (or the 1:1 pthread backend), G/M/P state,
#                                panic/defer, fatal: the selection minus the context layer
#     llgo_wasmcontext_<suffix>  the context layer (files named wasmcontext_*), when the selection
#                                has one. It is compiled from copies of its files in a folder that
#                                holds nothing else, with no other include directory: a context
#                                file that included a scheduler header would not compile (the
#                                build proves the boundary). llgo_runtime_<suffix> links it.
#   Both are compiled with the target's effective cflags for that context and with
#   llgo_runtime_build_flags (warnings; LLGO_WASM_SANITIZE / LLGO_WASM_COVERAGE on the host).
include_guard(GLOBAL)

set(LLGO_RUNTIME_DIR "${CMAKE_CURRENT_LIST_DIR}")

include(LlgoRuntimeBuildFlags)
# Some context backends have assembly (wasmcontext_asyncify_sp.S). Enabled here, at directory
# scope: a language enabled inside a function is forgotten when the function returns.
enable_language(ASM)

function(llgo_runtime_add suffix)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "CONTEXT" "OPTIONS")
  llgo_wasm_read_target("${LLGO_WASM_TARGET}" CONTEXT "${arg_CONTEXT}")
  llgo_wasm_runtime_sources(sources CONTEXT "${arg_CONTEXT}")
  set(context_sources "")
  set(runtime_sources "")
  foreach(source IN LISTS sources)
    get_filename_component(name "${source}" NAME)
    if(name MATCHES "\\.h$")
      continue()
    elseif(name MATCHES "^wasmcontext")
      list(APPEND context_sources "${source}")
    else()
      list(APPEND runtime_sources "${source}")
    endif()
  endforeach()
  if(NOT arg_OPTIONS)
    message(STATUS "${LLGO_WASM_TARGET_VARIANT}/${arg_CONTEXT}: runtime sources selected by the driver: ${sources}")
  endif()

  add_library(llgo_runtime_${suffix} STATIC ${runtime_sources})
  target_include_directories(llgo_runtime_${suffix} PUBLIC "${LLGO_RUNTIME_DIR}/include" PRIVATE "${LLGO_RUNTIME_DIR}/src")
  target_compile_options(llgo_runtime_${suffix} PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${arg_OPTIONS})
  target_link_libraries(llgo_runtime_${suffix} PRIVATE llgo_runtime_build_flags)
  if(NOT context_sources)
    return()
  endif()
  set(copies "${CMAKE_CURRENT_BINARY_DIR}/wasmcontext-only-${suffix}")
  file(GLOB headers "${LLGO_RUNTIME_DIR}/src/wasmcontext*.h")
  set(copied_sources "")
  foreach(file IN LISTS headers context_sources)
    get_filename_component(name "${file}" NAME)
    configure_file("${file}" "${copies}/${name}" COPYONLY)
    if(NOT name MATCHES "\\.h$")
      list(APPEND copied_sources "${copies}/${name}")
    endif()
  endforeach()
  add_library(llgo_wasmcontext_${suffix} STATIC ${copied_sources})
  target_include_directories(llgo_wasmcontext_${suffix} PUBLIC "${copies}")
  target_compile_options(llgo_wasmcontext_${suffix} PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${arg_OPTIONS})
  target_link_libraries(llgo_wasmcontext_${suffix} PRIVATE llgo_runtime_build_flags)
  target_link_libraries(llgo_runtime_${suffix} PUBLIC llgo_wasmcontext_${suffix})
endfunction()
