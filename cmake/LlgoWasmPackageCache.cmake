# LlgoWasmPackageCache.cmake: the runtime's libraries through the package cache (docs/cache.md),
# when LLGO_WASM_PACKAGE_CACHE is ON (off by default). Used by runtime/libraries.cmake.
#
#   llgo_wasm_package_cache_fetch(<hit-var> <key-var> NAME <id> CONTEXT <ctx> DESTINATION <dir>
#                                 OUTPUTS <file>... FLAGS <flag>...)
#     keys the build (`llgo-wasm cache-key`: the resolved target with that context, every file
#     under runtime/, the compiler's identity, the flags) and runs `llgo-wasm cache get` into
#     <dir> at configure time, expecting exactly <file>... (an entry with other outputs is a
#     miss, and nothing of it is written); <hit-var> is TRUE when every output is there. The get
#     bounds its own time (docs/cache.md, "Bounds"); LLGO_WASM_PACKAGE_CACHE_TIMEOUT (seconds,
#     default 120) is a last resort around it: a get that takes longer is killed and is a miss.
#   llgo_wasm_package_cache_store(<target> KEY <key> OUTPUTS <name>=<genex path>...)
#     after <target> is built, `llgo-wasm cache put` stores the outputs under the key.
#
# The local cache is LLGO_WASM_CACHE_DIR and the remote LLGO_WASM_REMOTE_CACHE: cache variables,
# defaulting to the environment variables of the same names at the first configure (so the
# build-time put uses the directory the configure-time get used; empty: `llgo-wasm cache`'s
# default directory, no remote);
# a failing remote never fails the configure or the build. A changed runtime file re-runs the
# configure (CMAKE_CONFIGURE_DEPENDS), which computes the new key.
include_guard(GLOBAL)

option(LLGO_WASM_PACKAGE_CACHE "Fetch the runtime libraries from the package cache and store them there" OFF)
set(LLGO_WASM_REMOTE_CACHE "$ENV{LLGO_WASM_REMOTE_CACHE}" CACHE STRING
    "Bazel HTTP remote cache for the package cache (http://host:port/prefix); empty: local only")
set(LLGO_WASM_CACHE_DIR "$ENV{LLGO_WASM_CACHE_DIR}" CACHE PATH
    "Local package cache directory; empty: the default of `llgo-wasm cache`")
set(LLGO_WASM_PACKAGE_CACHE_TIMEOUT 120 CACHE STRING
    "Seconds a configure-time `llgo-wasm cache get` may take before it is killed and counts as a miss")

# Credentials in the URL would be written to CMakeCache.txt and the build files (the client itself
# never shows them): say so once, and how to pass them instead (docs/cache.md, "Credentials").
if(LLGO_WASM_PACKAGE_CACHE AND LLGO_WASM_REMOTE_CACHE MATCHES "^[a-zA-Z]+://[^/?#]*@")
  message(WARNING "LLGO_WASM_REMOTE_CACHE holds credentials (user:password@), which CMake writes to "
                  "CMakeCache.txt and the build files: put them in ~/.netrc (or the file "
                  "LLGO_WASM_REMOTE_CACHE_NETRC names) or in a header file named by "
                  "LLGO_WASM_REMOTE_CACHE_HEADER_FILE instead (docs/cache.md, \"Credentials\")")
endif()

function(_llgo_wasm_cache_options out)
  set(_options "")
  if(LLGO_WASM_CACHE_DIR)
    list(APPEND _options "--cache-dir=${LLGO_WASM_CACHE_DIR}")
  endif()
  if(LLGO_WASM_REMOTE_CACHE)
    list(APPEND _options "--remote-cache=${LLGO_WASM_REMOTE_CACHE}")
  endif()
  set(${out} "${_options}" PARENT_SCOPE)
endfunction()

function(llgo_wasm_package_cache_fetch hit_var key_var)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "NAME;CONTEXT;DESTINATION" "OUTPUTS;FLAGS")
  if(NOT arg_DESTINATION)
    message(FATAL_ERROR "llgo_wasm_package_cache_fetch(${arg_NAME}): DESTINATION (the archives' directory) is required")
  endif()
  file(GLOB_RECURSE _inputs CONFIGURE_DEPENDS "${LLGO_WASM_SOURCE_ROOT}/runtime/*")
  set(_key_args cache-key --target "${LLGO_WASM_TARGET}" --context "${arg_CONTEXT}")
  if(LLGO_WASM_TARGET_STACKS)
    # The stack mode selects other sources and flags: it is part of what the key resolves.
    list(APPEND _key_args --stacks "${LLGO_WASM_TARGET_STACKS}")
  endif()
  list(APPEND _key_args
      --package-root "${LLGO_WASM_SOURCE_ROOT}/runtime"
      "--toolchain-id=c=${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}"
      "--toolchain-id=c-target=${CMAKE_C_COMPILER_TARGET}"
      "--toolchain-id=cmake-build-type=${CMAKE_BUILD_TYPE}")
  foreach(_flag IN LISTS arg_FLAGS)
    list(APPEND _key_args "--flag=${_flag}")
  endforeach()
  llgo_wasm_driver(_key ${_key_args})
  _llgo_wasm_cache_options(_options)
  set(_expected "")
  foreach(_output IN LISTS arg_OUTPUTS)
    list(APPEND _expected --expect "${_output}")
  endforeach()
  execute_process(
    COMMAND "${LLGO_WASM_DRIVER}" cache get "${_key}" --dest "${arg_DESTINATION}" ${_expected} ${_options}
    TIMEOUT ${LLGO_WASM_PACKAGE_CACHE_TIMEOUT}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  set(_hit FALSE)
  if(_rc EQUAL 0)
    set(_hit TRUE)
    foreach(_output IN LISTS arg_OUTPUTS)
      if(NOT EXISTS "${arg_DESTINATION}/${_output}")
        set(_hit FALSE)
      endif()
    endforeach()
  elseif(NOT _rc EQUAL 1)
    message(WARNING "package cache: llgo-wasm cache get failed (${_rc}): ${_err}")
  endif()
  string(STRIP "${_err}" _err)
  if(_err MATCHES "warning")
    message(WARNING "${_err}")
  endif()
  string(SUBSTRING "${_key}" 0 12 _short)
  if(_hit)
    message(STATUS "${arg_NAME}: package cache hit ${_short}")
  else()
    message(STATUS "${arg_NAME}: package cache miss ${_short}: built and stored")
  endif()
  set(${hit_var} ${_hit} PARENT_SCOPE)
  set(${key_var} "${_key}" PARENT_SCOPE)
endfunction()

function(llgo_wasm_package_cache_store target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "KEY" "OUTPUTS")
  set(_outputs "")
  foreach(_output IN LISTS arg_OUTPUTS)
    list(APPEND _outputs --output "${_output}")
  endforeach()
  _llgo_wasm_cache_options(_options)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${LLGO_WASM_DRIVER}" cache put "${arg_KEY}" ${_outputs} ${_options}
            "--tool=c=${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}" --meta "target=${LLGO_WASM_TARGET}"
    COMMENT "Storing ${target} in the package cache"
    VERBATIM)
endfunction()
