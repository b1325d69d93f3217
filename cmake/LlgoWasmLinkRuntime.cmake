# LlgoWasmLinkRuntime.cmake: how a project outside llgo-wasm links a program with an installed
# runtime and runs it (included by the installed LlgoWasmConfig.cmake, which sets
# LLGO_WASM_DRIVER, LLGO_WASM_SOURCE_ROOT and the LlgoWasm::runtime_<target>_<context> targets).
# Every fact about the target comes from the installed driver (LlgoWasmTargetFacts.cmake).
#
#   llgo_wasm_link_runtime(<executable> [TARGET <name>] [CONTEXT <ctx>] [STACK_SIZE <bytes>])
#     compiles and links <executable> with the target's effective flags for that context backend
#     (default: the target's default backend), links LlgoWasm::runtime_<target>_<ctx>, gives it
#     the target's default output extension, and has the driver link WASI modules (post-link
#     Asyncify, module check) and Emscripten programs (emcc's Asyncify narrowed, the unwind's
#     functions kept out of line): LlgoWasmLink.cmake. TARGET defaults to LLGO_WASM_TARGET. The
#     toolchain must be the target's (its toolchain file): pointer sizes are checked. STACK_SIZE:
#     the program's own goroutine stack size (docs/runtime.md, Stacks), compiled in at the link.
#   llgo_wasm_run_command(<out> <executable> [ENGINE <engine>])
#     the argv that runs <executable> through the driver, `llgo-wasm run --target <target>
#     [--engine <engine>] <file>`: under ENGINE, else the first of the target's run-engines that runs
#     the program's extension and is here (docs/install.md); the program's output and exit status
#     are its own. Generator expressions inside, for add_test(COMMAND).
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/LlgoWasmTargetFacts.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/LlgoWasmLink.cmake")

function(llgo_wasm_link_runtime executable)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TARGET;CONTEXT;STACK_SIZE" "")
  if(NOT arg_TARGET)
    set(arg_TARGET "${LLGO_WASM_TARGET}")
  endif()
  if(NOT arg_TARGET)
    message(FATAL_ERROR "llgo_wasm_link_runtime(${executable}): no TARGET and LLGO_WASM_TARGET is unset; "
                        "name a target of `llgo-wasm targets` (e.g. TARGET wasip1)")
  endif()
  set(_read_args "")
  if(arg_CONTEXT)
    set(_read_args CONTEXT "${arg_CONTEXT}")
  endif()
  llgo_wasm_read_target("${arg_TARGET}" ${_read_args})
  list(GET LLGO_WASM_TARGET_DATA_MODEL 0 _pointer)
  if(NOT CMAKE_SIZEOF_VOID_P EQUAL _pointer)
    message(FATAL_ERROR "llgo_wasm_link_runtime(${executable}): target ${arg_TARGET} (${LLGO_WASM_TARGET_TRIPLE}) has "
                        "${_pointer}-byte pointers, but this build's are ${CMAKE_SIZEOF_VOID_P}-byte: configure with the "
                        "target's toolchain file from ${LLGO_WASM_SOURCE_ROOT}/cmake/toolchains/")
  endif()
  set(_runtime "LlgoWasm::runtime_${arg_TARGET}_${LLGO_WASM_TARGET_CONTEXT}")
  if(NOT TARGET "${_runtime}")
    message(FATAL_ERROR "llgo_wasm_link_runtime(${executable}): no runtime installed for ${arg_TARGET} with context "
                        "${LLGO_WASM_TARGET_CONTEXT} (installed: ${LLGO_WASM_RUNTIMES}); install llgo-wasm with its "
                        "`install` preset, which builds every target's runtime")
  endif()
  target_compile_options(${executable} PRIVATE ${LLGO_WASM_TARGET_CFLAGS})
  target_link_libraries(${executable} PRIVATE "${_runtime}")
  set_target_properties(${executable} PROPERTIES SUFFIX "${LLGO_WASM_TARGET_EXTENSION}"
    LLGO_WASM_TARGET "${arg_TARGET}" LLGO_WASM_CONTEXT "${LLGO_WASM_TARGET_CONTEXT}")
  # Through the driver for WASI and Emscripten (tests/install's yields program needs it).
  llgo_wasm_link_target_program(${executable} DRIVER "${LLGO_WASM_DRIVER}" TARGET_NAME "${arg_TARGET}"
                                CONTEXT "${LLGO_WASM_TARGET_CONTEXT}" STACK_SIZE "${arg_STACK_SIZE}")
endfunction()

function(llgo_wasm_run_command out executable)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "ENGINE" "")
  get_target_property(_target ${executable} LLGO_WASM_TARGET)
  get_target_property(_context ${executable} LLGO_WASM_CONTEXT)
  if(NOT _target)
    message(FATAL_ERROR "llgo_wasm_run_command: ${executable} is not linked by llgo_wasm_link_runtime")
  endif()
  set(_command "${LLGO_WASM_DRIVER}" run --target "${_target}" --context "${_context}")
  if(arg_ENGINE)
    llgo_wasm_read_target("${_target}" CONTEXT "${_context}")
    if(NOT arg_ENGINE IN_LIST LLGO_WASM_TARGET_ENGINES)
      message(FATAL_ERROR "llgo_wasm_run_command(${executable}): engine '${arg_ENGINE}' of ${_target} is not available "
                          "here (available: ${LLGO_WASM_TARGET_ENGINES}; `${LLGO_WASM_DRIVER} run --target ${_target} "
                          "--list-engines` says why)")
    endif()
    list(APPEND _command --engine "${arg_ENGINE}")
  endif()
  list(APPEND _command "$<TARGET_FILE:${executable}>")
  set(${out} "${_command}" PARENT_SCOPE)
endfunction()
