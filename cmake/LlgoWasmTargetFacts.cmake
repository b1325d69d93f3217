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
#         LLGO_WASM_TARGET_CONTEXT     the chosen context backend
#         LLGO_WASM_TARGET_CONTEXTS    every supported context backend
#         LLGO_WASM_TARGET_STACKS      the chosen stack mode (shared, separate)
#         LLGO_WASM_TARGET_STACK_MODES every stack mode the chosen context can run here
#         LLGO_WASM_TARGET_DEFAULT_STACK_SIZE   the running C stack: every goroutine's with shared
#                                      stacks, main's always (the runtime's LLGO_DEFAULT_STACK_SIZE)
#         LLGO_WASM_TARGET_SEPARATE_STACK_SIZE  each goroutine's own stack with separate stacks and
#                                      threads (the runtime's LLGO_SEPARATE_STACK_SIZE)
#         LLGO_WASM_TARGET_DATA_MODEL  "pointer;long;ssize_t" sizes
#         LLGO_WASM_TARGET_CFLAGS, LLGO_WASM_TARGET_LDFLAGS   the effective flags as options
#         LLGO_WASM_TARGET_EXTENSION   the default output extension
#         LLGO_WASM_TARGET_ENGINES     the engines whose tools are here, each with
#           LLGO_WASM_ENGINE_<engine>_COMMAND    argv with {program} left for llgo_wasm_engine_command
#           LLGO_WASM_ENGINE_<engine>_EXTENSION  the output extension that engine runs
#           LLGO_WASM_ENGINE_<engine>_LABELS     test labels of its runs (e.g. browser)
#           LLGO_WASM_ENGINE_<engine>_SAMPLED    ON: it runs the smoke program and the fixture's
#                                                modes only, not every test program case
#           LLGO_WASM_ENGINE_<engine>_OPTIONAL   ON: used only when its tool is installed
#   llgo_wasm_engine_command(<out> <engine> <program>)   the engine's argv for one program
#   llgo_wasm_runtime_sources(<out> CONTEXT <ctx> [STACKS <mode>])   absolute paths of the runtime
#                                                        files the driver selects by their
#                                                        //llgo:build lines
#
# LLGO_WASM_STACK_SIZE (a CMake variable; the driver also reads the environment variable of that
# name) resolves every target with that stack size (--stack-size).
# {root} in a flag or command (a file of llgo-wasm itself) becomes LLGO_WASM_SOURCE_ROOT. The
# first word of an engine command is a tool: node (Node >= 24, LLGO_WASM_NODE), node26 (Node >= 26,
# LLGO_WASM_NODE26), wasmtime
# (LLGO_WASM_WASMTIME), or any other program on PATH; an engine marked optional is left out when
# its tool is missing, any other missing tool stops the configure. Engines with a label listed in
# LLGO_WASM_EXCLUDED_ENGINE_LABELS are left out (LLGO_WASM_BROWSER_TESTS=OFF excludes "browser").
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

# Stops the configure when the Node at `path` is older than `minimum` (`why` says what for).
function(_llgo_wasm_require_node path minimum why)
  if(path AND EXISTS "${path}")
    execute_process(COMMAND "${path}" --version OUTPUT_VARIABLE _v OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT _v MATCHES "^v([0-9]+)\\." OR CMAKE_MATCH_1 LESS ${minimum})
      message(FATAL_ERROR "${path} is Node '${_v}'; ${why} needs Node >= ${minimum}. Set NODE / NODE26 or run tools/setup-toolchain.sh.")
    endif()
  endif()
endfunction()

# The program an engine's tool names, or "" when it is not here.
function(_llgo_wasm_engine_tool out tool)
  if(tool STREQUAL "node")
    set(_path "${LLGO_WASM_NODE}")
    _llgo_wasm_require_node("${_path}" 24 "llgo-wasm (exnref, final Memory64)")
  elseif(tool STREQUAL "node26")
    set(_path "${LLGO_WASM_NODE26}")
    _llgo_wasm_require_node("${_path}" 26 "the engine node26 (WebAssembly stack switching)")
  elseif(tool STREQUAL "wasmtime")
    set(_path "${LLGO_WASM_WASMTIME}")
  else()
    find_program(_llgo_tool_${tool} NAMES "${tool}")
    set(_path "${_llgo_tool_${tool}}")
  endif()
  if(NOT _path OR NOT EXISTS "${_path}")
    set(_path "")
  endif()
  set(${out} "${_path}" PARENT_SCOPE)
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
  llgo_wasm_json_flags(LLGO_WASM_TARGET_CFLAGS "${LLGO_WASM_TARGET_JSON}" effective cflags)
  llgo_wasm_json_flags(LLGO_WASM_TARGET_LDFLAGS "${LLGO_WASM_TARGET_JSON}" effective ldflags)
  string(JSON LLGO_WASM_TARGET_EXTENSION GET "${LLGO_WASM_TARGET_JSON}" output default-extension)

  set(LLGO_WASM_TARGET_ENGINES "")
  string(JSON _rt_count LENGTH "${LLGO_WASM_TARGET_JSON}" engines)
  if(_rt_count GREATER 0)
    math(EXPR _rt_last "${_rt_count} - 1")
    foreach(_rt_i RANGE ${_rt_last})
      string(JSON _rt_engine MEMBER "${LLGO_WASM_TARGET_JSON}" engines ${_rt_i})
      llgo_wasm_json_list(_rt_command "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} command)
      string(JSON _rt_extension GET "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} extension)
      string(JSON _rt_optional GET "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} optional)
      string(JSON _rt_sampled GET "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} sampled)
      llgo_wasm_json_list(_rt_labels "${LLGO_WASM_TARGET_JSON}" engines ${_rt_engine} labels)
      set(_rt_excluded "${_rt_labels}")
      list(FILTER _rt_excluded INCLUDE REGEX "^(${LLGO_WASM_EXCLUDED_ENGINE_LABELS_REGEX})$")
      if(LLGO_WASM_EXCLUDED_ENGINE_LABELS AND _rt_excluded)
        continue()
      endif()
      list(GET _rt_command 0 _rt_tool)
      if(NOT _rt_tool STREQUAL "{program}")
        _llgo_wasm_engine_tool(_rt_path "${_rt_tool}")
        if(NOT _rt_path)
          if(_rt_optional)
            continue()
          endif()
          message(FATAL_ERROR "target ${target} runs its programs with '${_rt_tool}' (engine ${_rt_engine}), which is not "
                              "installed: run tools/setup-toolchain.sh, or put it on PATH (NODE for node, NODE26 for node26)")
        endif()
        list(REMOVE_AT _rt_command 0)
        list(PREPEND _rt_command "${_rt_path}")
      endif()
      list(TRANSFORM _rt_command REPLACE "{root}" "${LLGO_WASM_SOURCE_ROOT}")
      if(_rt_extension STREQUAL "")
        set(_rt_extension "${LLGO_WASM_TARGET_EXTENSION}")
      endif()
      list(APPEND LLGO_WASM_TARGET_ENGINES ${_rt_engine})
      set(LLGO_WASM_ENGINE_${_rt_engine}_COMMAND "${_rt_command}")
      set(LLGO_WASM_ENGINE_${_rt_engine}_EXTENSION "${_rt_extension}")
      set(LLGO_WASM_ENGINE_${_rt_engine}_LABELS "${_rt_labels}")
      set(LLGO_WASM_ENGINE_${_rt_engine}_SAMPLED ${_rt_sampled})
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
