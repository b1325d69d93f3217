# LlgoWasmBdwgc.cmake: the Boehm-Demers-Weiser collector (bdwgc) for the current toolchain, as
# the static library `llgo_bdwgc` (public include directory: bdwgc's include/, so <gc.h>), the
# collector behind runtime/src/gc_bdwgc.c (build tag llgo.gc_bdwgc; docs/gc-bdwgc.md).
#
# Source: Debian's libgc source package, unpacked by tools/setup-toolchain.sh (step bdwgc) into
# <toolchain dir>/bdwgc/src; LLGO_WASM_BDWGC_SOURCE_DIR (cache or environment) names another
# checkout. bdwgc's one-file build (extra/gc.c) is compiled with the toolchain's compiler and the
# target's effective cflags, configured by what the target is (LLGO_WASM_TARGET_CAPABILITIES,
# the data model), never by its name:
#   - wasm: no threads, no stack or register scan of its own (STACK_NOT_SCANNED; gc_bdwgc.c
#     pushes llgo's roots), heap from the libc allocator (PLATFORM_GETMEM,
#     cmake/bdwgc/platform_get_mem.c). bdwgc 8.2.2 knows wasm32 only as Emscripten: a WASI
#     target takes that configuration too, with cmake/bdwgc/wasi/emscripten.h for its two calls.
#     wasm64 has no configuration in bdwgc 8.2.2 (gcconfig.h: "This should be handled as
#     X86_64"): no library, LLGO_WASM_BDWGC_UNAVAILABLE says why.
#   - native: bdwgc's pthread support (GC_THREADS), as Debian builds libgc.
# Needs LlgoWasmTargetFacts' llgo_wasm_read_target to have run (the target build does it first).
# Sets LLGO_WASM_BDWGC_VERSION, and LLGO_WASM_BDWGC_UNAVAILABLE (the reason) when there is no
# library for this target.
include_guard(GLOBAL)
include(LlgoWasmToolchainPaths)

set(_llgo_bdwgc_default "${LLGO_WASM_TOOLCHAIN_DIR}/bdwgc/src")
if(DEFINED ENV{LLGO_WASM_BDWGC_SOURCE_DIR} AND NOT "$ENV{LLGO_WASM_BDWGC_SOURCE_DIR}" STREQUAL "")
  set(_llgo_bdwgc_default "$ENV{LLGO_WASM_BDWGC_SOURCE_DIR}")
endif()
set(LLGO_WASM_BDWGC_SOURCE_DIR "${_llgo_bdwgc_default}" CACHE PATH
    "bdwgc source (Debian's libgc; tools/setup-toolchain.sh unpacks it into <toolchain dir>/bdwgc/src)")
if(NOT EXISTS "${LLGO_WASM_BDWGC_SOURCE_DIR}/extra/gc.c" OR NOT EXISTS "${LLGO_WASM_BDWGC_SOURCE_DIR}/include/gc.h")
  message(FATAL_ERROR "bdwgc source not found in ${LLGO_WASM_BDWGC_SOURCE_DIR} (no extra/gc.c): run "
                      "tools/setup-toolchain.sh (its bdwgc step unpacks Debian's libgc there), or set "
                      "LLGO_WASM_BDWGC_SOURCE_DIR to a bdwgc 8.2 checkout")
endif()
file(STRINGS "${LLGO_WASM_BDWGC_SOURCE_DIR}/include/gc_version.h" _llgo_bdwgc_version_lines
     REGEX "^#define GC_TMP_VERSION_(MAJOR|MINOR|MICRO) ")
set(LLGO_WASM_BDWGC_VERSION "")
foreach(_llgo_line IN LISTS _llgo_bdwgc_version_lines)
  string(REGEX REPLACE "^#define GC_TMP_VERSION_[A-Z]+ ([0-9]+).*" "\\1" _llgo_part "${_llgo_line}")
  list(APPEND LLGO_WASM_BDWGC_VERSION ${_llgo_part})
endforeach()
string(REPLACE ";" "." LLGO_WASM_BDWGC_VERSION "${LLGO_WASM_BDWGC_VERSION}")

set(LLGO_WASM_BDWGC_UNAVAILABLE "")
set(_llgo_bdwgc_dir "${CMAKE_CURRENT_LIST_DIR}/bdwgc")
# Common to every target: no executable heap, and no clock() (WASI has none; the timing it
# feeds is only printed with GC_PRINT_STATS).
set(_llgo_bdwgc_defines NO_EXECUTE_PERMISSION NO_CLOCK)
set(_llgo_bdwgc_includes "${LLGO_WASM_BDWGC_SOURCE_DIR}/include")
set(_llgo_bdwgc_sources "${LLGO_WASM_BDWGC_SOURCE_DIR}/extra/gc.c")
set(_llgo_bdwgc_links "")
set(_llgo_bdwgc_options "")
if("wasm" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
  if(CMAKE_SIZEOF_VOID_P EQUAL 8)
    string(CONCAT LLGO_WASM_BDWGC_UNAVAILABLE
           "bdwgc ${LLGO_WASM_BDWGC_VERSION} has no configuration for 64-bit wasm: its Emscripten port is wasm32 only "
           "(include/private/gcconfig.h:1407: error: This should be handled as X86_64)")
    return()
  endif()
  # One worker; no stack or register scan of its own (STACK_NOT_SCANNED: wasm locals are not in
  # memory, and the C stack's spilled part is a goroutine's, which llgo pushes); heap from the
  # libc allocator.
  list(APPEND _llgo_bdwgc_defines STACK_NOT_SCANNED PLATFORM_GETMEM GC_NO_THREADS_DISCOVERY)
  list(APPEND _llgo_bdwgc_sources "${_llgo_bdwgc_dir}/platform_get_mem.c")
  if("wasi" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
    # bdwgc's Emscripten configuration (wasm32, no data segment, no mmap) for a WASI module.
    list(APPEND _llgo_bdwgc_options "SHELL:-include \"${_llgo_bdwgc_dir}/wasi/gc_wasi_config.h\""
                                    "-I${_llgo_bdwgc_dir}/wasi")
  endif()
else()
  # GC_BUILTIN_ATOMIC: the compiler's atomics, as Debian's build detects them (no libatomic_ops).
  list(APPEND _llgo_bdwgc_defines GC_THREADS _REENTRANT GC_BUILTIN_ATOMIC)
  find_package(Threads REQUIRED)
  list(APPEND _llgo_bdwgc_links Threads::Threads ${CMAKE_DL_LIBS})
endif()

add_library(llgo_bdwgc STATIC ${_llgo_bdwgc_sources})
target_include_directories(llgo_bdwgc PUBLIC ${_llgo_bdwgc_includes})
target_compile_definitions(llgo_bdwgc PRIVATE ${_llgo_bdwgc_defines})
# gc_bdwgc.c and programs see bdwgc's public configuration of this build (GC_THREADS natively).
if(NOT "wasm" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
  target_compile_definitions(llgo_bdwgc PUBLIC GC_THREADS)
endif()
# The target's flags (P1: wasm SjLj), not llgo's warnings: bdwgc is third-party code.
target_compile_options(llgo_bdwgc PRIVATE ${LLGO_WASM_TARGET_CFLAGS} ${_llgo_bdwgc_options} -w)
target_link_libraries(llgo_bdwgc PUBLIC ${_llgo_bdwgc_links})
set_target_properties(llgo_bdwgc PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE OFF)
