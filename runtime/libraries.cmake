# runtime/libraries.cmake: the goroutine runtime (C11) for one target, as static libraries per
# context backend. Included by the target build (cmake/wasm-variant/CMakeLists.txt) for every
# target, the host included; the source lists come from the driver (`llgo-wasm sources`, which
# evaluates each file's //llgo:build line), never from a list kept here.
#
#   llgo_runtime_add(<suffix> CONTEXT <ctx> [STACKS <mode>] [OPTIONS <compile options>...] [EXCLUDE_FROM_ALL])
#     llgo_runtime_<suffix>      the scheduler (or the 1:1 pthread backend), G/M/P state,
#                                panic/defer, fatal: the selection minus the context layer
#     llgo_wasmcontext_<suffix>  the context layer (files named wasmcontext_*), when the selection
#                                has one. It is compiled from copies of its files in a folder that
#                                holds nothing else, with no other include directory: a context
#                                file that included a scheduler header would not compile (the
#                                build proves the boundary). llgo_runtime_<suffix> links it.
#   Both are compiled with the target's effective cflags for that context and stack mode, with
#   -DLLGO_DEFAULT_STACK_SIZE=<default-stack-size> and -DLLGO_SEPARATE_STACK_SIZE=<separate-stack-size>
#   (the resolved target's: the descriptor's, or LLGO_WASM_STACK_SIZE's), and with
#   llgo_runtime_build_flags (warnings; LLGO_WASM_SANITIZE / LLGO_WASM_COVERAGE on the host).
#   EXCLUDE_FROM_ALL: built only for a program that links it (a full-tier test program).
#   With LLGO_WASM_PACKAGE_CACHE=ON both come from the package cache when their key hits (imported
#   libraries of the same names) and are stored there when it misses (LlgoWasmPackageCache.cmake).
include_guard(GLOBAL)

set(LLGO_RUNTIME_DIR "${CMAKE_CURRENT_LIST_DIR}")

include(LlgoRuntimeBuildFlags)
include(LlgoWasmPackageCache)
include(LlgoWasmSharedObjects)
# Some context backends have assembly (wasmcontext_asyncify_sp.S). Enabled here, at directory
# scope: a language enabled inside a function is forgotten when the function returns.
enable_language(ASM)

function(llgo_runtime_add suffix)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EXCLUDE_FROM_ALL" "CONTEXT;STACKS" "OPTIONS")
  set(exclusion "")
  if(arg_EXCLUDE_FROM_ALL)
    set(exclusion EXCLUDE_FROM_ALL)
  endif()
  llgo_wasm_read_target("${LLGO_WASM_TARGET}" CONTEXT "${arg_CONTEXT}" STACKS "${arg_STACKS}")
  llgo_wasm_runtime_sources(sources CONTEXT "${arg_CONTEXT}" STACKS "${LLGO_WASM_TARGET_STACKS}")
  set(defines LLGO_DEFAULT_STACK_SIZE=${LLGO_WASM_TARGET_DEFAULT_STACK_SIZE}
              LLGO_SEPARATE_STACK_SIZE=${LLGO_WASM_TARGET_SEPARATE_STACK_SIZE})
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
    message(STATUS "${LLGO_WASM_TARGET_VARIANT}/${arg_CONTEXT}/${LLGO_WASM_TARGET_STACKS} stacks: runtime sources "
                   "selected by the driver: ${sources}")
  endif()

  set(cache_hit FALSE)
  # Where a hit's archives go: where the build would have put them (a project that sets no
  # CMAKE_ARCHIVE_OUTPUT_DIRECTORY, like cmake/runtime-install, builds them in this directory).
  set(archive_dir "${CMAKE_ARCHIVE_OUTPUT_DIRECTORY}")
  if(NOT archive_dir)
    set(archive_dir "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  if(LLGO_WASM_PACKAGE_CACHE)
    set(runtime_archive "${CMAKE_STATIC_LIBRARY_PREFIX}llgo_runtime_${suffix}${CMAKE_STATIC_LIBRARY_SUFFIX}")
    set(archives "${runtime_archive}")
    if(context_sources)
      list(APPEND archives "${CMAKE_STATIC_LIBRARY_PREFIX}llgo_wasmcontext_${suffix}${CMAKE_STATIC_LIBRARY_SUFFIX}")
    endif()
    get_target_property(build_flags llgo_runtime_build_flags INTERFACE_COMPILE_OPTIONS)
    string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
    llgo_wasm_package_cache_fetch(cache_hit cache_key NAME "${LLGO_WASM_TARGET_VARIANT}/${suffix}" CONTEXT "${arg_CONTEXT}"
      DESTINATION "${archive_dir}" OUTPUTS ${archives} FLAGS ${LLGO_WASM_TARGET_CFLAGS} ${arg_OPTIONS} ${defines} ${build_flags} ${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${build_type}})
  endif()
  if(cache_hit)
    add_library(llgo_runtime_${suffix} STATIC IMPORTED GLOBAL)
    set_target_properties(llgo_runtime_${suffix} PROPERTIES IMPORTED_LOCATION "${archive_dir}/${runtime_archive}")
    target_include_directories(llgo_runtime_${suffix} INTERFACE "${LLGO_RUNTIME_DIR}/include")
  else()
    # Compiled once per distinct sources and flags (a context in its two stack modes shares them).
    llgo_wasm_shared_objects(objects SOURCES ${runtime_sources} OPTIONS ${LLGO_WASM_TARGET_CFLAGS} ${arg_OPTIONS}
                             DEFINES ${defines} INCLUDES "${LLGO_RUNTIME_DIR}/src")
    add_library(llgo_runtime_${suffix} STATIC ${exclusion} $<TARGET_OBJECTS:${objects}>)
    set_target_properties(llgo_runtime_${suffix} PROPERTIES LINKER_LANGUAGE C)
    target_include_directories(llgo_runtime_${suffix} PUBLIC "${LLGO_RUNTIME_DIR}/include")
    target_link_libraries(llgo_runtime_${suffix} PRIVATE llgo_runtime_build_flags)
  endif()
  if(NOT context_sources)
    if(LLGO_WASM_PACKAGE_CACHE AND NOT cache_hit)
      llgo_wasm_package_cache_store(llgo_runtime_${suffix} KEY "${cache_key}"
        OUTPUTS "${runtime_archive}=$<TARGET_FILE:llgo_runtime_${suffix}>")
    endif()
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
  if(cache_hit)
    list(GET archives 1 context_archive)
    add_library(llgo_wasmcontext_${suffix} STATIC IMPORTED GLOBAL)
    set_target_properties(llgo_wasmcontext_${suffix} PROPERTIES IMPORTED_LOCATION "${archive_dir}/${context_archive}")
    target_include_directories(llgo_wasmcontext_${suffix} INTERFACE "${copies}")
    target_link_libraries(llgo_runtime_${suffix} INTERFACE llgo_wasmcontext_${suffix})
    return()
  endif()
  add_library(llgo_wasmcontext_${suffix} STATIC ${exclusion} ${copied_sources})
  target_include_directories(llgo_wasmcontext_${suffix} PUBLIC "${copies}")
  target_compile_options(llgo_wasmcontext_${suffix} PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${arg_OPTIONS})
  target_link_libraries(llgo_wasmcontext_${suffix} PRIVATE llgo_runtime_build_flags)
  target_link_libraries(llgo_runtime_${suffix} PUBLIC llgo_wasmcontext_${suffix})
  if(LLGO_WASM_PACKAGE_CACHE)
    list(GET archives 1 context_archive)
    # The runtime links the context library, so the context library is built when this runs.
    llgo_wasm_package_cache_store(llgo_runtime_${suffix} KEY "${cache_key}"
      OUTPUTS "${runtime_archive}=$<TARGET_FILE:llgo_runtime_${suffix}>"
              "${context_archive}=$<TARGET_FILE:llgo_wasmcontext_${suffix}>")
  endif()
endfunction()
