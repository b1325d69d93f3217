# cmake/wasm-variant/fixtures.cmake: the programs the target build runs under its engines: the
# smoke program, and the scheduler fixture, the test programs (tests/programs.cmake) and the
# interpreter of random goroutine programs (tests/runtime/scheddiff.c, single-worker contexts only)
# once per backend: a context backend the target supports in each stack mode that context can run,
# each on the runtime built for it. A backend is named after its context in the resolved default
# mode ("asyncify": shared stacks on P1) and "<context>-<mode>" in another ("asyncify-separate"); its
# id replaces dashes with underscores (scheduler_asyncify, scheduler_asyncify_separate). Facts come
# from the driver (LlgoWasmTargetFacts.cmake): contexts, stack modes, data model, effective flags
# per context and mode, engines (on a stack-switching target also the goroutine-limits fixture).
# The ctest cases that run these programs are in cmake/LlgoWasmFixtureTests.cmake.
#
#   llgo_wasm_add_program(<name> SOURCES <files>... [RUNTIME <library>] [DEFINES <d>...]
#                         [INCLUDES <dirs>...] [OPTIONS <compile and link options>...]
#                         [STACK_SIZE <bytes>]
#                         [DEFAULT_EXTENSION_ONLY [ALSO_FOR_ENGINE <engine>]...]
#                         [FULL_TIER] [FULL_TIER_EXTENSIONS <extension>...] [RUNTIME_HEADERS]
#                         [NOT_BUILT])
#     One executable per output extension the target's engines run (only the default one with
#     DEFAULT_EXTENSION_ONLY, and the one of each ALSO_FOR_ENGINE): <name> with the default
#     extension, <name>_<word> for another (<name>_mjs for an ES module: .mjs). Compiled and linked with
#     the effective flags of the context and stack mode last read (LLGO_WASM_TARGET_CFLAGS / _LDFLAGS). WASI
#     modules are linked by the driver (`llgo-wasm link`: post-link steps, module check);
#     executables of a target whose Asyncify emcc runs are linked by the driver too (Asyncify
#     narrowed to what can switch). Every WebAssembly program is listed in
#     LLGO_WASM_DRIVER_LINKED_MODULES (its final module is checked: LlgoWasmFixtureTests.cmake). A file of llgo-wasm
#     itself that a link flag names
#     (a pre-js, a JS library) relinks the program when it changes.
#     NOT_BUILT: not part of the build (EXCLUDE_FROM_ALL, no module check): a program whose link
#     a ctest case runs, e.g. one that must fail to link.
#     RUNTIME_HEADERS: the sources include RUNTIME's own headers (its include directories), so
#     they are compiled for that runtime alone (LlgoWasmSharedObjects.cmake); otherwise the
#     objects are shared by every backend whose flags are the same.
#     STACK_SIZE: the program's own goroutine stack size (llgo_wasm_link_target_program).
#     LIBRARIES: more targets the program links, whose headers its sources see (llgo_bdwgc).
#     FULL_TIER: only full-tier cases run the program; FULL_TIER_EXTENSIONS: only they run its
#     copies with those extensions. Such executables are built only with LLGO_WASM_FULL_TESTS
#     (LlgoWasmTestTiers.cmake).
#   llgo_wasm_program_for(<out> <name> <engine>)   the executable of <name> that <engine> runs
#
# Sets LLGO_WASM_FIXTURE_BACKENDS: the backends that have a scheduler fixture, LLGO_WASM_PRIMARY_BACKEND
# (the target's default context in its default stack mode), and for each id
# LLGO_WASM_BACKEND_<id>_CONTEXT, LLGO_WASM_BACKEND_<id>_STACKS, LLGO_WASM_BACKEND_<id>_PROGRAM_TIER
# (default or full: the tier of its test programs' cases) and LLGO_WASM_BACKEND_<id>_CAPABILITIES
# (what the backend does: LLGO_WASM_TARGET_CAPABILITIES, LlgoWasmTargetFacts.cmake) and
# LLGO_WASM_BACKEND_<id>_ENGINES (the engines here that run its context: LLGO_WASM_TARGET_ENGINES);
# LLGO_WASM_SWITCH_PATH_BACKENDS: the raw post-link Asyncify backends whose switch path is checked
# (switch_path_objects_<id>).

include(LlgoTestPrograms)
include(LlgoWasmSharedObjects)

# Output extensions the engines run besides the target's default one (which may be "": native).
set(LLGO_WASM_OTHER_EXTENSIONS "")
foreach(_engine IN LISTS LLGO_WASM_TARGET_ENGINES)
  if(NOT "${LLGO_WASM_ENGINE_${_engine}_EXTENSION}" STREQUAL "${LLGO_WASM_TARGET_EXTENSION}")
    list(APPEND LLGO_WASM_OTHER_EXTENSIONS "${LLGO_WASM_ENGINE_${_engine}_EXTENSION}")
  endif()
endforeach()
list(REMOVE_DUPLICATES LLGO_WASM_OTHER_EXTENSIONS)
set(LLGO_WASM_DRIVER_LINKED_MODULES "")
set(LLGO_WASM_SWITCH_PATH_BACKENDS "")

function(_llgo_wasm_program_name out name extension)
  if("${extension}" STREQUAL "${LLGO_WASM_TARGET_EXTENSION}")
    set(${out} "${name}" PARENT_SCOPE)
  else()
    string(REPLACE "." "" _word "${extension}")
    set(${out} "${name}_${_word}" PARENT_SCOPE)
  endif()
endfunction()

function(llgo_wasm_program_for out name engine)
  _llgo_wasm_program_name(_program "${name}" "${LLGO_WASM_ENGINE_${engine}_EXTENSION}")
  set(${out} "${_program}" PARENT_SCOPE)
endfunction()

function(llgo_wasm_add_program name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "DEFAULT_EXTENSION_ONLY;FULL_TIER;RUNTIME_HEADERS;NOT_BUILT" "RUNTIME;STACK_SIZE"
                        "SOURCES;DEFINES;INCLUDES;OPTIONS;ALSO_FOR_ENGINE;FULL_TIER_EXTENSIONS;LIBRARIES")
  set(_link_files "")
  foreach(_flag IN LISTS LLGO_WASM_TARGET_LDFLAGS)
    string(FIND "${_flag}" "=${LLGO_WASM_SOURCE_ROOT}/" _at)
    if(_at GREATER -1)
      math(EXPR _at "${_at} + 1")
      string(SUBSTRING "${_flag}" ${_at} -1 _file)
      list(APPEND _link_files "${_file}")
    endif()
  endforeach()
  set(_linked "${LLGO_WASM_DRIVER_LINKED_MODULES}")
  set(_programs "${name}")
  set(_extensions "${LLGO_WASM_OTHER_EXTENSIONS}")
  if(arg_DEFAULT_EXTENSION_ONLY)
    set(_extensions "")
    foreach(_engine IN LISTS arg_ALSO_FOR_ENGINE)
      if(NOT "${LLGO_WASM_ENGINE_${_engine}_EXTENSION}" STREQUAL "${LLGO_WASM_TARGET_EXTENSION}")
        list(APPEND _extensions "${LLGO_WASM_ENGINE_${_engine}_EXTENSION}")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES _extensions)
  endif()
  foreach(_extension IN LISTS _extensions)
    _llgo_wasm_program_name(_exe "${name}" "${_extension}")
    list(APPEND _programs ${_exe})
  endforeach()
  foreach(_exe IN LISTS _programs)
    if(_exe STREQUAL name)
      set(_extension "${LLGO_WASM_TARGET_EXTENSION}")
    else()
      string(REGEX REPLACE "^.*_" "." _extension "${_exe}")
    endif()
    set(_tier default)
    if(arg_FULL_TIER OR "${_extension}" IN_LIST arg_FULL_TIER_EXTENSIONS)
      set(_tier full)
    endif()
    llgo_wasm_program_exclusion(_exclusion ${_tier})
    if(arg_NOT_BUILT)
      set(_exclusion EXCLUDE_FROM_ALL)
    endif()
    # One compile for every copy and every backend whose flags are these (LlgoWasmSharedObjects).
    set(_usage "")
    if(arg_RUNTIME_HEADERS)
      set(_usage USAGE ${arg_RUNTIME})
    endif()
    if(arg_LIBRARIES)
      # their headers too (llgo_bdwgc: <gc.h> and its configuration)
      list(APPEND _usage USAGE ${arg_LIBRARIES})
    endif()
    llgo_wasm_shared_objects(_objects SOURCES ${arg_SOURCES} OPTIONS ${LLGO_WASM_TARGET_CFLAGS} ${arg_OPTIONS}
                             DEFINES ${arg_DEFINES} INCLUDES ${arg_INCLUDES} ${_usage})
    add_executable(${_exe} ${_exclusion} $<TARGET_OBJECTS:${_objects}>)
    # LLGO_WASM_CONTEXT/STACKS: what it is linked for (the module check reads its target by them).
    set_target_properties(${_exe} PROPERTIES SUFFIX "${_extension}" LLGO_WASM_TIER ${_tier} LINKER_LANGUAGE C
                          LLGO_WASM_CONTEXT "${LLGO_WASM_TARGET_CONTEXT}" LLGO_WASM_STACKS "${LLGO_WASM_TARGET_STACKS}")
    set_property(TARGET ${_exe} APPEND PROPERTY LINK_DEPENDS ${_link_files})
    target_link_libraries(${_exe} PRIVATE ${arg_RUNTIME} ${arg_LIBRARIES} llgo_runtime_build_flags)
    # The driver finishes and checks WASI modules, and narrows the Asyncify that emcc runs to the
    # functions that can reach a switch point (docs/link-pipeline.md).
    llgo_wasm_link_target_program(${_exe} DRIVER "${LLGO_WASM_DRIVER}" TARGET_NAME "${LLGO_WASM_TARGET}"
      CONTEXT "${LLGO_WASM_TARGET_CONTEXT}" STACKS "${LLGO_WASM_TARGET_STACKS}" STACK_SIZE "${arg_STACK_SIZE}"
      LINK_OPTIONS ${arg_OPTIONS})
    if("wasm" IN_LIST LLGO_WASM_TARGET_CAPABILITIES AND NOT arg_NOT_BUILT)
      list(APPEND _linked ${_exe})
    endif()
  endforeach()
  set(LLGO_WASM_DRIVER_LINKED_MODULES "${_linked}" PARENT_SCOPE)
endfunction()

# The smoke program: the data model and the exit status reach the host unchanged.
# LLGO_WASM_DEMO_ONLY (tools/run-demo.sh): the runtime per backend and the scheduler fixture, the
# demo's program, and nothing else.
if(NOT LLGO_WASM_DEMO_ONLY)
  llgo_wasm_add_program(smoke SOURCES "${ROOT}/tests/fixtures/smoke.c")
endif()

set(LLGO_WASM_FIXTURE_BACKENDS "")
# The target's primary backend: its default context in its default stack mode (the backend id is
# the context's name). A sampled engine (a browser) runs its cases there in the default tier, and
# on the other backends in the full tier (LlgoTestPrograms.cmake, LlgoWasmFixtureTests.cmake).
set(LLGO_WASM_PRIMARY_BACKEND "${LLGO_WASM_TARGET_CONTEXT}")
set(_llgo_installable "")
foreach(_ctx IN LISTS LLGO_WASM_TARGET_CONTEXTS)
  llgo_wasm_read_target("${LLGO_WASM_TARGET}" CONTEXT ${_ctx})
  # The resolved default mode first, then the others this context can run.
  set(_modes "${LLGO_WASM_TARGET_STACK_MODES}")
  list(REMOVE_ITEM _modes "${LLGO_WASM_TARGET_STACKS}")
  list(PREPEND _modes "${LLGO_WASM_TARGET_STACKS}")
  set(_default_mode "${LLGO_WASM_TARGET_STACKS}")
  foreach(_mode IN LISTS _modes)
    set(_backend "${_ctx}")
    if(NOT _mode STREQUAL _default_mode)
      set(_backend "${_ctx}-${_mode}")
    endif()
    string(REPLACE "-" "_" _cid "${_backend}")
    list(APPEND LLGO_WASM_FIXTURE_BACKENDS ${_backend})

    set(LLGO_WASM_BACKEND_${_cid}_CONTEXT ${_ctx})
    set(LLGO_WASM_BACKEND_${_cid}_STACKS ${_mode})
    # The tier of this backend's test programs (tests/programs.cmake). On a wasm target the
    # default tier runs them for every context in its default stack mode and for the target's
    # default context in every mode; another stack mode of another context (J32's and J64's
    # asyncify-separate) is the full tier's: its parts run in the default tier elsewhere (the
    # context on this target in its default mode, this target's separate stacks under its other
    # contexts, and the two together on P1, whose default context is asyncify). Its scheduler
    # fixture and random programs (scheddiff) stay in the default tier. Natively every backend
    # runs them (ucontext-separate is nowhere a default).
    set(LLGO_WASM_BACKEND_${_cid}_PROGRAM_TIER default)
    if(NOT _mode STREQUAL _default_mode AND NOT _ctx STREQUAL LLGO_WASM_PRIMARY_BACKEND
       AND "wasm" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
      set(LLGO_WASM_BACKEND_${_cid}_PROGRAM_TIER full)
    endif()
    llgo_runtime_add(${_cid} CONTEXT ${_ctx} STACKS ${_mode})
    if(_mode STREQUAL _default_mode)
      set(_context_archive "-")
      if(TARGET llgo_wasmcontext_${_cid})
        set(_context_archive "$<TARGET_FILE:llgo_wasmcontext_${_cid}>")
      endif()
      list(APPEND _llgo_installable "${_ctx}|$<TARGET_FILE:llgo_runtime_${_cid}>|${_context_archive}")
    endif()
    llgo_wasm_read_target("${LLGO_WASM_TARGET}" CONTEXT ${_ctx} STACKS ${_mode})
    set(LLGO_WASM_BACKEND_${_cid}_CAPABILITIES "${LLGO_WASM_TARGET_CAPABILITIES}")
    # The engines that run this context (the resolved target's: engines.<name>.contexts).
    set(LLGO_WASM_BACKEND_${_cid}_ENGINES "${LLGO_WASM_TARGET_ENGINES}")

    list(GET LLGO_WASM_TARGET_DATA_MODEL 0 _ptr)
    list(GET LLGO_WASM_TARGET_DATA_MODEL 1 _long)
    list(GET LLGO_WASM_TARGET_DATA_MODEL 2 _ssize)
    set(_defs LLGO_FIXTURE_PTR=${_ptr} LLGO_FIXTURE_LONG=${_long} LLGO_FIXTURE_SSIZE=${_ssize})
    if("threaded" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
      list(APPEND _defs LLGO_FIXTURE_THREADED=1)
      if("wasm" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
        # one thread (a Worker in Node) per goroutine: 10,000 parked would be 10,000 Workers
        list(APPEND _defs LLGO_FIXTURE_PARKED_COUNT=64)
      endif()
    elseif("shared-stacks" IN_LIST LLGO_WASM_TARGET_CAPABILITIES AND "wasm" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
      # a parked goroutine keeps only the stack it used: a million fit in linear memory
      list(APPEND _defs LLGO_FIXTURE_PARKED_COUNT=1000000)
    endif()
    # How many goroutines the fixture parks at once (its expected line, LlgoWasmFixtureTests.cmake).
    set(LLGO_WASM_BACKEND_${_cid}_PARKED_COUNT 10000)
    if(_defs MATCHES "LLGO_FIXTURE_PARKED_COUNT=([0-9]+)")
      set(LLGO_WASM_BACKEND_${_cid}_PARKED_COUNT ${CMAKE_MATCH_1})
    endif()
    llgo_wasm_add_program(scheduler_${_cid} SOURCES "${ROOT}/tests/fixtures/scheduler.c" RUNTIME llgo_runtime_${_cid}
                          DEFINES ${_defs})
    if(LLGO_WASM_DEMO_ONLY)
      continue()
    endif()
    llgo_wasm_add_test_programs(${_cid} RUNTIME llgo_runtime_${_cid})
    if(NOT "gc-roots" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
      # Collected memory where no collector finds every root: the link must fail, naming why
      # (runtime/src/gc_refused.c). Not built; its ctest case links it (LlgoWasmFixtureTests.cmake).
      llgo_wasm_add_program(gc_link_refused_${_cid} SOURCES "${ROOT}/tests/gc/link_refused.c"
                            RUNTIME llgo_runtime_${_cid} DEFAULT_EXTENSION_ONLY NOT_BUILT)
    endif()
    if("single-worker" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
      # The interpreter of random goroutine programs (single worker: it is not thread-safe): the
      # differential scheduler test and the allocator fault injection (LlgoWasmFixtureTests.cmake).
      # Where a collector finds every root, its values can also live in collected memory
      # (scheddiff --gc-every N: the garbage-collection differential, docs/gc.md).
      llgo_wasm_full_tier_extensions(_full_tier_extensions)
      set(_scheddiff_defs)
      if("gc-roots" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
        set(_scheddiff_defs DEFINES SCHEDDIFF_GC=1)
      endif()
      llgo_wasm_add_program(scheddiff_${_cid} SOURCES "${ROOT}/tests/runtime/scheddiff.c" RUNTIME llgo_runtime_${_cid}
                            ${_scheddiff_defs} ${_full_tier_extensions})
    endif()

    if("engine-stacks" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
      # What a goroutine on an engine stack (continuation, JSPI) promises beyond the scheduler fixture: panics
      # across switches, the cap on live goroutines from both sides, a longjmp that leaves its
      # goroutine reported (tests/fixtures/goroutine_limits.c).
      llgo_wasm_add_program(goroutine_limits_${_cid} SOURCES "${ROOT}/tests/fixtures/goroutine_limits.c"
                            RUNTIME llgo_runtime_${_cid})
    endif()

    if(LLGO_WASM_TARGET_ASYNCIFY STREQUAL "post-link" AND _mode STREQUAL _default_mode)
      # Other optimisation levels, ThinLTO and full LTO (runtime and fixture alike): the post-link
      # pipeline (SjLj legacy EH -> Asyncify -> exnref) must hold for each. (Upstream LLGo hits an
      # LLVM 19 crash with full LTO in Go's runtime.printany; this C runtime does not, so full LTO is
      # an ordinary case here.)
      if("asyncify-switch" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
        # The blocking test program's objects (channels, select, sync, timers: every switch
        # point), which tests/harness/check_switch_path.py links itself (LlgoWasmFixtureTests.cmake):
        # what the raw backend's switch path costs after the link.
        llgo_test_program_sources(blocking _switch_path_sources)
        add_library(switch_path_objects_${_cid} OBJECT ${_switch_path_sources})
        target_include_directories(switch_path_objects_${_cid} PRIVATE "${ROOT}/tests/harness")
        target_compile_options(switch_path_objects_${_cid} PRIVATE ${LLGO_WASM_TARGET_CFLAGS})
        target_link_libraries(switch_path_objects_${_cid} PRIVATE llgo_runtime_${_cid} llgo_runtime_build_flags)
        list(APPEND LLGO_WASM_SWITCH_PATH_BACKENDS ${_cid})
      endif()
      # (The full tier's: LlgoWasmTestTiers.cmake.)
      llgo_wasm_program_exclusion(_full_only_runtime full)
      foreach(_opt O0 O3 thinlto lto)
        if(_opt STREQUAL "thinlto")
          set(_opt_flags -flto=thin)
        elseif(_opt STREQUAL "lto")
          set(_opt_flags -flto)
        else()
          set(_opt_flags -${_opt})
        endif()
        llgo_runtime_add(${_cid}_${_opt} CONTEXT ${_ctx} STACKS ${_mode} OPTIONS ${_opt_flags} ${_full_only_runtime})
        llgo_wasm_add_program(scheduler_${_cid}_${_opt} SOURCES "${ROOT}/tests/fixtures/scheduler.c" FULL_TIER
                              RUNTIME llgo_runtime_${_cid}_${_opt} DEFINES ${_defs} OPTIONS ${_opt_flags})
      endforeach()
    endif()
  endforeach()
endforeach()
# Later readers see the default context's facts again.
llgo_wasm_read_target("${LLGO_WASM_TARGET}")

# What an install tree takes from here instead of building the runtime again
# (LLGO_WASM_INSTALL_RUNTIMES_FROM, cmake/LlgoWasmInstallRuntimes.cmake): each context backend's
# archives in its default stack mode, the ones cmake/runtime-install would build.
file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/installable-runtimes.cmake" CONTENT
"set(_tree_target \"${LLGO_WASM_TARGET}\")
set(_tree_build_type \"${CMAKE_BUILD_TYPE}\")
set(_tree_runtimes \"${_llgo_installable}\")
")
