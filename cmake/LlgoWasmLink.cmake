# LlgoWasmLink.cmake: make `llgo-wasm link` produce a CMake executable target.
#
#   llgo_wasm_use_driver_link(<target>
#       DRIVER <path-to-llgo-wasm | CMake target name>
#       TARGET_NAME <wasip1 | wasip1-threads | ...>
#       [CONTEXT <asyncify | pthread | ...>]
#       [STACK_SIZE <bytes, or with K/M/G>]
#       [DRIVER_ARGS <extra llgo-wasm link options>...])
#
# The target's C and C++ link rules get a linker launcher (<LANG>_LINKER_LAUNCHER, CMake >=
# 3.21), so Ninja and Makefiles run
#   cmake -E env LLGO_WASM_ROOT=<this checkout> <DRIVER> link --target <TARGET_NAME> [--context C]
#       [DRIVER_ARGS] -- --cc <compiler> <flags> <objects> -o <target file> <libraries>
# instead of calling the compiler directly.  The driver adds the target's effective link flags
# itself (those naming a file of llgo-wasm, {root}/..., through LLGO_WASM_ROOT).  The `--` ends the CLI's common options: CMake's
# link line carries clang's own --target=<triple> (CMAKE_C_COMPILER_TARGET), which must reach
# clang rather than be read as the llgo-wasm target.  For P1 the driver links a temporary core module,
# runs the pinned wasm-opt (--asyncify, then --translate-to-exnref), validates the result and
# renames it onto the target's normal output path: a P1 build leaves final, instrumented,
# exnref modules.  -O flags from CMAKE_C_FLAGS and CMAKE_C_FLAGS_<CONFIG> reach the link line
# (the toolchain files' link rules pass <FLAGS>); the driver removes them from the clang command
# (clang would run its own hidden wasm-opt) and gives the level to its wasm-opt step; a link
# line without -O gets the target's default (descriptor field link-optimization).  An
# Emscripten target's executables get emcc's Asyncify narrowed to what can switch.  Per target
# rather than a global CMAKE_C_LINK_EXECUTABLE, so host tools and other targets in the same project keep CMake's normal link rule.
# STACK_SIZE gives the program its own goroutine stack size (`--stack-size`: the driver compiles
# it in; docs/runtime.md, Stacks). Set LLGO_WASM_DRIVER once to omit DRIVER.  See
# docs/link-pipeline.md.
include_guard(GLOBAL)
get_filename_component(_llgo_wasm_link_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

function(llgo_wasm_use_driver_link target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DRIVER;TARGET_NAME;CONTEXT;STACK_SIZE" "DRIVER_ARGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "llgo_wasm_use_driver_link(${target}): unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "llgo_wasm_use_driver_link: '${target}' is not a target")
  endif()
  get_target_property(target_type "${target}" TYPE)
  if(NOT target_type STREQUAL "EXECUTABLE")
    message(FATAL_ERROR "llgo_wasm_use_driver_link(${target}): only executables are linked by the driver "
                        "(this is a ${target_type}; archives and shared libraries need no post-link steps)")
  endif()
  if(NOT arg_DRIVER)
    set(arg_DRIVER "${LLGO_WASM_DRIVER}")
  endif()
  if(NOT arg_DRIVER)
    message(FATAL_ERROR "llgo_wasm_use_driver_link(${target}): no DRIVER given and LLGO_WASM_DRIVER is unset; "
                        "pass DRIVER <path to llgo-wasm> (or the llgo-wasm target)")
  endif()
  if(NOT arg_TARGET_NAME)
    message(FATAL_ERROR "llgo_wasm_use_driver_link(${target}): TARGET_NAME is required (e.g. wasip1)")
  endif()

  if(TARGET "${arg_DRIVER}")
    set(driver "$<TARGET_FILE:${arg_DRIVER}>")
    add_dependencies("${target}" "${arg_DRIVER}")
  else()
    if(NOT IS_ABSOLUTE "${arg_DRIVER}" OR NOT EXISTS "${arg_DRIVER}")
      message(FATAL_ERROR "llgo_wasm_use_driver_link(${target}): DRIVER '${arg_DRIVER}' is neither a target nor an "
                          "existing absolute path; build llgo-wasm first or pass its full path")
    endif()
    set(driver "${arg_DRIVER}")
    # Relink when the driver changes: it decides the post-link steps.
    set_property(TARGET "${target}" APPEND PROPERTY LINK_DEPENDS "${arg_DRIVER}")
  endif()

  set(launcher "${CMAKE_COMMAND}" -E env "LLGO_WASM_ROOT=${_llgo_wasm_link_root}" "${driver}" link --target "${arg_TARGET_NAME}")
  if(arg_CONTEXT)
    list(APPEND launcher --context "${arg_CONTEXT}")
  endif()
  if(arg_STACK_SIZE)
    list(APPEND launcher --stack-size "${arg_STACK_SIZE}")
  endif()
  list(APPEND launcher ${arg_DRIVER_ARGS} -- --cc)
  set_target_properties("${target}" PROPERTIES
    C_LINKER_LAUNCHER "${launcher}"
    CXX_LINKER_LAUNCHER "${launcher}")
endfunction()

#   llgo_wasm_link_target_program(<target> TARGET_NAME <name> [CONTEXT <ctx>] [STACKS <mode>]
#       [STACK_SIZE <bytes>] [DRIVER <driver>] [LINK_OPTIONS <options>...])
#
# How a program of one llgo-wasm target is linked, decided once: with the facts of
# llgo_wasm_read_target(<name> CONTEXT <ctx>) in the caller's scope (LlgoWasmTargetFacts.cmake),
# the driver links WASI modules (post-link steps, module checks) and Emscripten programs (emcc's
# Asyncify narrowed, the functions that start an unwind kept out of line) and adds the target's
# link flags itself; any other target's program gets LLGO_WASM_TARGET_LDFLAGS here.
# LINK_OPTIONS are added either way. STACK_SIZE: the program's own goroutine stack size, which
# the driver compiles in (--stack-size), or, for a program the driver does not link, a generated
# source that writes it with LLGO_STACK_SIZE of llgo_runtime.h (which the native stack_size cases
# thereby test).
function(llgo_wasm_link_target_program target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TARGET_NAME;CONTEXT;STACKS;DRIVER;STACK_SIZE" "LINK_OPTIONS")
  if("driver-links" IN_LIST LLGO_WASM_TARGET_CAPABILITIES)
    target_link_options(${target} PRIVATE ${arg_LINK_OPTIONS})
    set(driver_args "")
    if(arg_STACKS)
      set(driver_args DRIVER_ARGS --stacks "${arg_STACKS}")
    endif()
    set(stack_size "")
    if(arg_STACK_SIZE)
      set(stack_size STACK_SIZE "${arg_STACK_SIZE}")
    endif()
    llgo_wasm_use_driver_link(${target} DRIVER "${arg_DRIVER}" TARGET_NAME "${arg_TARGET_NAME}"
                              CONTEXT "${arg_CONTEXT}" ${stack_size} ${driver_args})
  else()
    target_link_options(${target} PRIVATE ${LLGO_WASM_TARGET_LDFLAGS} ${arg_LINK_OPTIONS})
    if(arg_STACK_SIZE)
      if(NOT arg_STACK_SIZE MATCHES "^[0-9]+$")
        message(FATAL_ERROR "llgo_wasm_link_target_program(${target}): STACK_SIZE '${arg_STACK_SIZE}' must be a number "
                            "of bytes for a program the driver does not link")
      endif()
      set(source "${CMAKE_CURRENT_BINARY_DIR}/${target}_stack_size.c")
      file(GENERATE OUTPUT "${source}" CONTENT
           "/* STACK_SIZE of ${target}: its goroutine stack size, through llgo_runtime.h's macro. */\n#include \"llgo_runtime.h\"\nLLGO_STACK_SIZE(${arg_STACK_SIZE}u);\n")
      target_sources(${target} PRIVATE "${source}")
    endif()
  endif()
endfunction()
