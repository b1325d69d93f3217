# LlgoWasmTargetFacts.cmake: everything the target build knows about its target, asked from the
# driver (`llgo-wasm resolve --json`, `llgo-wasm sources`). Nothing here, and nothing that uses
# it, names a variant: a new target or context backend needs edits in targets/ and runtime/ only.
#
#   llgo_wasm_driver(<out> ARGS...)            runs LLGO_WASM_DRIVER; a failure stops the configure
#                                              with the driver's own message
#   llgo_wasm_read_target(<target> [CONTEXT <ctx>] [STACKS <mode>])
#       resolves the target (with that context backend and stack mode) and sets, in the caller's
#       scope:
#         LLGO_WASM_TARGET_JSON        the resolved target (`resolve --json`)
#         LLGO_WASM_TARGET_VARIANT     its variant: a display label for test names and messages
#         LLGO_WASM_TARGET_TRIPLE, LLGO_WASM_TARGET_ASYNCIFY, LLGO_WASM_TARGET_THREADS,
#         LLGO_WASM_TARGET_STACK_SWITCHING, LLGO_WASM_TARGET_MAX_GOROUTINES (0: no cap),
#         LLGO_WASM_TARGET_CONTEXT     the chosen context backend (a name to pass on: what it does
#                                      is in LLGO_WASM_TARGET_CAPABILITIES)
#         LLGO_WASM_TARGET_CONTEXTS    every supported context backend
#         LLGO_WASM_TARGET_STACKS      the chosen stack mode (shared, separate)
#         LLGO_WASM_TARGET_STACK_MODES every stack mode the chosen context can run here
#         LLGO_WASM_TARGET_DEFAULT_STACK_SIZE   the running C stack: every goroutine's with shared
#                                      stacks, main's always (the runtime's LLGO_DEFAULT_STACK_SIZE)
#         LLGO_WASM_TARGET_SEPARATE_STACK_SIZE  each goroutine's own stack with separate stacks and
#                                      threads (the runtime's LLGO_SEPARATE_STACK_SIZE)
#         LLGO_WASM_TARGET_DATA_MODEL  "pointer;long;ssize_t" sizes
#         LLGO_WASM_TARGET_CAPABILITIES  the named capabilities that hold with the chosen context and
#                                      stack mode (effective.capabilities: single-worker or threaded,
#                                      shared-stacks or separate-stacks, asyncify-switch, engine-stacks,
#                                      context-handoff, event-loop, javascript, wasm, wasi, gc-roots,
#                                      driver-links; the vocabulary is
#                                      driver/vocabulary/include/llgo_wasm/target_capabilities.hpp).
#                                      Decide with `IN_LIST` on these, never on a backend's or
#                                      variant's name.
#         LLGO_WASM_TARGET_CFLAGS, LLGO_WASM_TARGET_LDFLAGS   the effective flags as options
#         LLGO_WASM_TARGET_EXTENSION   the default output extension
#         LLGO_WASM_TARGET_ENGINES     the engines that are here (`llgo-wasm run --list-engines`),
#                                      each with
#           LLGO_WASM_ENGINE_<engine>_COMMAND    argv with {program} left for llgo_wasm_engine_command
#                                                (and {environment}, which whoever starts it expands)
#           LLGO_WASM_ENGINE_<engine>_EXTENSION  the output extension that engine runs
#           LLGO_WASM_ENGINE_<engine>_LABELS     test labels of its runs (e.g. browser)
#           LLGO_WASM_ENGINE_<engine>_SAMPLED    ON: it runs the smoke program and the fixture's
#                                                modes only, not every test program case
#           LLGO_WASM_ENGINE_<engine>_EVERY_CASE ON: the default tier runs every test-program case
#                                                on it too, not only on the primary engine
#           LLGO_WASM_ENGINE_<engine>_PROVIDES   what its runner offers that cases may require
#           LLGO_WASM_ENGINE_<engine>_OPTIONAL   ON: used only when its tool is installed
#         LLGO_WASM_TARGET_MISSING_ENGINES  the engines that are not optional and not here (only
#                                      when LLGO_WASM_REQUIRE_ENGINES is off; else that stops the
#                                      configure, saying why and how to fix it)
#   llgo_wasm_engine_command(<out> <engine> <program>)   the engine's argv for one program
#   llgo_wasm_runtime_sources(<out> CONTEXT <ctx> [STACKS <mode>])   absolute paths of the runtime
#                                                        files the driver selects by their
#                                                        //llgo:build lines
#
# LLGO_WASM_STACK_SIZE (a CMake variable; the driver also reads the environment variable of that
# name) resolves every target with that stack size (--stack-size).
# {root} in a flag or command (a file of llgo-wasm itself) becomes LLGO_WASM_SOURCE_ROOT. Where an
# engine's tool is (node, node26, wasmedge, ... at the engine's minimum-version) is the driver's
# answer: `llgo-wasm run --list-engines --json`, asked once per target, context and configure, the one
# resolution `llgo-wasm run` uses (the environment variable of the tool's name, the toolchain
# folder LLGO_WASM_TOOLCHAIN_DIR, PATH). An engine marked optional is left out when its tool is
# missing; another one stops the configure when LLGO_WASM_REQUIRE_ENGINES is on (the target
# build, whose tests run every engine), and is left out with a status message otherwise (a
# consumer of the installed package may lack an engine it never runs). Engines with a label listed
# in LLGO_WASM_EXCLUDED_ENGINE_LABELS are left out (LLGO_WASM_BROWSER_TESTS=OFF excludes "browser").
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/LlgoWasmToolchainPaths.cmake")

if(NOT LLGO_WASM_DRIVER OR NOT EXISTS "${LLGO_WASM_DRIVER}")
  message(FATAL_ERROR "the target build needs LLGO_WASM_DRIVER (the llgo-wasm CLI); got '${LLGO_WASM_DRIVER}'")
endif()
if(DEFINED LLGO_WASM_BROWSER_TESTS AND NOT LLGO_WASM_BROWSER_TESTS)
  list(APPEND LLGO_WASM_EXCLUDED_ENGINE_LABELS browser)
  message(STATUS "browser tests: off (LLGO_WASM_BROWSER_TESTS=OFF)")
endif()
string(REPLACE ";" "|" LLGO_WASM_EXCLUDED_ENGINE_LABELS_REGEX "${LLGO_WASM_EXCLUDED_ENGINE_LABELS}")
# Re-run the configuration when the driver (descriptors are built into it) changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${LLGO_WASM_DRIVER}")

function(llgo_wasm_driver out)
  execute_process(COMMAND "${LLGO_WASM_DRIVER}" ${ARGN}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0)
    string(REPLACE ";" " " _args "${ARGN}")
    message(FATAL_ERROR "llgo-wasm ${_args} failed (${_rc}):\n${_err}")
  endif()
  set(${out} "${_out}" PARENT_SCOPE)
endfunction()

# The JSON array at <keys> of <json> as a CMake list of strings.
function(llgo_wasm_json_list out json)
  set(_list "")
  string(JSON _n ERROR_VARIABLE _e LENGTH "${json}" ${ARGN})
  if(NOT _e AND _n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _v GET "${json}" ${ARGN} ${_i})
      list(APPEND _list "${_v}")
    endforeach()
  endif()
  set(${out} "${_list}" PARENT_SCOPE)
endfunction()

# The JSON array at <keys> of <json> as CMake compile/link options. An entry may hold a flag and
# its argument ("-mllvm -x"): "SHELL:" keeps them together, since CMake de-duplicates options and
# would otherwise merge two "-mllvm" into one.
function(llgo_wasm_json_flags out json)
  llgo_wasm_json_list(_flags "${json}" ${ARGN})
  list(TRANSFORM _flags REPLACE "{root}" "${LLGO_WASM_SOURCE_ROOT}")
  list(TRANSFORM _flags PREPEND "SHELL:" REGEX " ")
  set(${out} "${_flags}" PARENT_SCOPE)
endfunction()

# The engines of <target> [with context <ctx>: its engines, engines.<name>.contexts] on this machine
# (`llgo-wasm run --list-engines --json`), asked once per target, context and configure: the driver
# runs each tool's --version.
function(_llgo_wasm_located_engines out target)
  set(_context_args "")
  if(ARGV2)
    set(_context_args --context "${ARGV2}")
  endif()
  string(MAKE_C_IDENTIFIER "${target}_${ARGV2}" _key)
  get_property(_json GLOBAL PROPERTY LLGO_WASM_LOCATED_ENGINES_${_key})
  if(NOT _json)
    set(_environment "LLGO_WASM_ROOT=${LLGO_WASM_SOURCE_ROOT}")
    if(LLGO_WASM_TOOLCHAIN_DIR)
      list(APPEND _environment "LLGO_WASM_TOOLCHAIN_DIR=${LLGO_WASM_TOOLCHAIN_DIR}")
    endif()
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${_environment}
                            "${LLGO_WASM_DRIVER}" run --list-engines --json --target "${target}" ${_context_args}
      OUTPUT_VARIABLE _json ERROR_VARIABLE _err RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "llgo-wasm run --list-engines --target ${target} failed (${_rc}):\n${_err}")
    endif()
    set_property(GLOBAL PROPERTY LLGO_WASM_LOCATED_ENGINES_${_key} "${_json}")
  endif()
  set(${out} "${_json}" PARENT_SCOPE)
endfunction()

macro(llgo_wasm_read_target target)
  cmake_parse_arguments(_rt "" "CONTEXT;STACKS" "" ${ARGN})
  set(_rt_args resolve --json --target "${target}")
  if(_rt_CONTEXT)
    list(APPEND _rt_args --context "${_rt_CONTEXT}")
  endif()
  if(_rt_STACKS)
    list(APPEND _rt_args --stacks "${_rt_STACKS}")
  endif()
  if(NOT "${LLGO_WASM_STACK_SIZE}" STREQUAL "")
    list(APPEND _rt_args --stack-size "${LLGO_WASM_STACK_SIZE}")
  endif()
  llgo_wasm_driver(LLGO_WASM_TARGET_JSON ${_rt_args})
  string(JSON LLGO_WASM_TARGET_VARIANT GET "${LLGO_WASM_TARGET_JSON}" variant)
  string(JSON LLGO_WASM_TARGET_TRIPLE GET "${LLGO_WASM_TARGET_JSON}" triple)
  string(JSON LLGO_WASM_TARGET_ASYNCIFY GET "${LLGO_WASM_TARGET_JSON}" capabilities asyncify)
  string(JSON LLGO_WASM_TARGET_THREADS GET "${LLGO_WASM_TARGET_JSON}" capabilities threads)
  string(JSON LLGO_WASM_TARGET_STACK_SWITCHING GET "${LLGO_WASM_TARGET_JSON}" capabilities stack-switching)
  string(JSON LLGO_WASM_TARGET_MAX_GOROUTINES ERROR_VARIABLE _rt_no_cap GET "${LLGO_WASM_TARGET_JSON}" max-goroutines)
  if(_rt_no_cap)
    set(LLGO_WASM_TARGET_MAX_GOROUTINES 0)  # absent: no cap
  endif()
  string(JSON LLGO_WASM_TARGET_CONTEXT GET "${LLGO_WASM_TARGET_JSON}" capabilities context default)
  llgo_wasm_json_list(LLGO_WASM_TARGET_CONTEXTS "${LLGO_WASM_TARGET_JSON}" capabilities context supported)
  string(JSON LLGO_WASM_TARGET_STACKS GET "${LLGO_WASM_TARGET_JSON}" capabilities stacks default)
  llgo_wasm_json_list(LLGO_WASM_TARGET_STACK_MODES "${LLGO_WASM_TARGET_JSON}" capabilities stacks supported)
  string(JSON LLGO_WASM_TARGET_DEFAULT_STACK_SIZE GET "${LLGO_WASM_TARGET_JSON}" default-stack-size)
  string(JSON LLGO_WASM_TARGET_SEPARATE_STACK_SIZE GET "${LLGO_WASM_TARGET_JSON}" separate-stack-size)
  set(LLGO_WASM_TARGET_DATA_MODEL "")
  foreach(_rt_size pointer long ssize_t)
    string(JSON _rt_value GET "${LLGO_WASM_TARGET_JSON}" data-model ${_rt_size})
    list(APPEND LLGO_WASM_TARGET_DATA_MODEL ${_rt_value})
  endforeach()
  llgo_wasm_json_list(LLGO_WASM_TARGET_CAPABILITIES "${LLGO_WASM_TARGET_JSON}" effective capabilities)
  llgo_wasm_json_flags(LLGO_WASM_TARGET_CFLAGS "${LLGO_WASM_TARGET_JSON}" effective cflags)
  llgo_wasm_json_flags(LLGO_WASM_TARGET_LDFLAGS "${LLGO_WASM_TARGET_JSON}" effective ldflags)
  string(JSON LLGO_WASM_TARGET_EXTENSION GET "${LLGO_WASM_TARGET_JSON}" output default-extension)

  set(LLGO_WASM_TARGET_ENGINES "")
  set(LLGO_WASM_TARGET_MISSING_ENGINES "")
  _llgo_wasm_located_engines(_rt_located "${target}" "${_rt_CONTEXT}")
  string(JSON _rt_count LENGTH "${LLGO_WASM_TARGET_JSON}" engines)
  if(_rt_count GREATER 0)
    math(EXPR _rt_last "${_rt_count} - 1")
    foreach(_rt_i RANGE ${_rt_last})
      string(JSON _rt_engine MEMBER "${LLGO_WASM_TARGET_JSON}" engines ${_rt_i})
      string(JSON _rt_extension GET "${_rt_located}" engines ${_rt_engine} extension)
      string(JSON _rt_optional GET "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} optional)
      string(JSON _rt_sampled GET "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} sampled)
      string(JSON _rt_every_case GET "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} every-case)
      llgo_wasm_json_list(_rt_provides "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} provides)
      llgo_wasm_json_list(_rt_labels "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} labels)
      set(_rt_excluded "${_rt_labels}")
      list(FILTER _rt_excluded INCLUDE REGEX "^(${LLGO_WASM_EXCLUDED_ENGINE_LABELS_REGEX})$")
      if(LLGO_WASM_EXCLUDED_ENGINE_LABELS AND _rt_excluded)
        continue()
      endif()
      string(JSON _rt_here GET "${_rt_located}" engines ${_rt_engine} here)
      if(NOT _rt_here)
        if(_rt_optional)
          continue()
        endif()
        string(JSON _rt_problem GET "${_rt_located}" engines ${_rt_engine} problem)
        if(LLGO_WASM_REQUIRE_ENGINES)
          message(FATAL_ERROR "target ${target} runs its programs with engine ${_rt_engine}, which cannot run here: ${_rt_problem}")
        endif()
        list(APPEND LLGO_WASM_TARGET_MISSING_ENGINES ${_rt_engine})
        continue()
      endif()
      llgo_wasm_json_list(_rt_command "${_rt_located}" engines ${_rt_engine} command)
      list(APPEND LLGO_WASM_TARGET_ENGINES ${_rt_engine})
      set(LLGO_WASM_ENGINE_${_rt_engine}_COMMAND "${_rt_command}")
      set(LLGO_WASM_ENGINE_${_rt_engine}_EXTENSION "${_rt_extension}")
      set(LLGO_WASM_ENGINE_${_rt_engine}_LABELS "${_rt_labels}")
      set(LLGO_WASM_ENGINE_${_rt_engine}_SAMPLED ${_rt_sampled})
      set(LLGO_WASM_ENGINE_${_rt_engine}_EVERY_CASE ${_rt_every_case})
      set(LLGO_WASM_ENGINE_${_rt_engine}_PROVIDES "${_rt_provides}")
      set(LLGO_WASM_ENGINE_${_rt_engine}_OPTIONAL ${_rt_optional})
    endforeach()
  endif()
endmacro()

function(llgo_wasm_engine_command out engine program)
  set(_command "${LLGO_WASM_ENGINE_${engine}_COMMAND}")
  list(TRANSFORM _command REPLACE "{program}" "${program}")
  set(${out} "${_command}" PARENT_SCOPE)
endfunction()

function(llgo_wasm_runtime_sources out)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "CONTEXT;STACKS" "")
  set(_stacks "")
  if(arg_STACKS)
    set(_stacks --stacks "${arg_STACKS}")
  endif()
  llgo_wasm_driver(_files sources --dir "${LLGO_WASM_SOURCE_ROOT}/runtime/src" --target "${LLGO_WASM_TARGET}"
                   --context "${arg_CONTEXT}" ${_stacks})
  string(REPLACE "\n" ";" _files "${_files}")
  list(TRANSFORM _files PREPEND "${LLGO_WASM_SOURCE_ROOT}/runtime/src/")
  set(${out} "${_files}" PARENT_SCOPE)
endfunction()
