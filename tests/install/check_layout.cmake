# check_layout.cmake (cmake -P): an installed llgo-wasm (PREFIX) has what docs/install.md promises,
# and names no path of the tree it was built from.
#   cmake -DPREFIX=<prefix> -DLIBDIR=<lib> -DFORBIDDEN=<path>[|<path>...] [-DRUNTIME_TARGETS=<t>|<t>...]
#         -P check_layout.cmake
# Checks: the files and links of the layout; libllgo_wasm.so's SONAME; a runtime archive for
# each of RUNTIME_TARGETS; every {root}/... file a descriptor names is in share/llgo-wasm; no
# installed file (text or binary) contains a FORBIDDEN path (the source and build trees); the
# installed CLI, with no LLGO_WASM_ROOT set, plans a J32 link with share/llgo-wasm's files.
string(REPLACE "|" ";" FORBIDDEN "${FORBIDDEN}")
string(REPLACE "|" ";" RUNTIME_TARGETS "${RUNTIME_TARGETS}")
set(problems "")
macro(problem text)
  list(APPEND problems "${text}")
endmacro()

foreach(file bin/llgo-wasm bin/llgo-wasm-cache ${LIBDIR}/libllgo_wasm.so ${LIBDIR}/libllgo_wasm.so.0 ${LIBDIR}/libllgo_wasm.a include/llgo_wasm.h
             include/llgo_runtime.h share/llgo-wasm/targets/wasm.json share/llgo-wasm/targets/schema.json
             share/llgo-wasm/cmake/toolchains/wasip1.cmake share/llgo-wasm/cmake/Platform/WASI.cmake
             share/llgo-wasm/cmake/LlgoWasmInstallLayout.cmake ${LIBDIR}/cmake/LlgoWasm/LlgoWasmConfig.cmake
             ${LIBDIR}/cmake/LlgoWasm/LlgoWasmConfigVersion.cmake ${LIBDIR}/cmake/LlgoWasm/LlgoWasmTargets.cmake
             ${LIBDIR}/pkgconfig/llgo-wasm.pc)
  if(NOT EXISTS "${PREFIX}/${file}")
    problem("missing ${file}")
  endif()
endforeach()
if(NOT IS_SYMLINK "${PREFIX}/${LIBDIR}/libllgo_wasm.so" OR NOT IS_SYMLINK "${PREFIX}/${LIBDIR}/libllgo_wasm.so.0")
  problem("${LIBDIR}/libllgo_wasm.so and .so.0 must be links to the versioned library")
endif()
file(GLOB versioned "${PREFIX}/${LIBDIR}/libllgo_wasm.so.0.*")
if(NOT versioned)
  problem("no versioned ${LIBDIR}/libllgo_wasm.so.0.*")
endif()
execute_process(COMMAND readelf -d "${PREFIX}/${LIBDIR}/libllgo_wasm.so" OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT dynamic MATCHES "SONAME\\)[^\n]*\\[libllgo_wasm\\.so\\.0\\]")
  problem("libllgo_wasm.so has no SONAME libllgo_wasm.so.0:\n${dynamic}")
endif()
if(dynamic MATCHES "R(UN)?PATH")
  problem("libllgo_wasm.so carries an RPATH/RUNPATH")
endif()
foreach(target IN LISTS RUNTIME_TARGETS)
  file(GLOB archives "${PREFIX}/${LIBDIR}/llgo-wasm/${target}/*/libllgo_runtime.a")
  if(NOT archives)
    problem("no runtime archive in ${LIBDIR}/llgo-wasm/${target}/<context>/")
  endif()
endforeach()

# Files the descriptors name as {root}/...: the installed root must have each.
file(GLOB descriptors "${PREFIX}/share/llgo-wasm/targets/*.json")
list(FILTER descriptors EXCLUDE REGEX "/schema\\.json$")   # its descriptions mention {root}/... as prose
foreach(descriptor IN LISTS descriptors)
  file(READ "${descriptor}" text)
  string(REGEX MATCHALL "{root}/[^\" ]+" named "${text}")
  foreach(path IN LISTS named)
    string(REPLACE "{root}/" "" path "${path}")
    if(NOT EXISTS "${PREFIX}/share/llgo-wasm/${path}")
      get_filename_component(name "${descriptor}" NAME)
      problem("${name} names {root}/${path}, which is not installed")
    endif()
  endforeach()
endforeach()

file(GLOB_RECURSE files "${PREFIX}/*")
list(LENGTH files count)
foreach(file IN LISTS files)
  if(IS_SYMLINK "${file}")
    continue()
  endif()
  file(STRINGS "${file}" strings)
  foreach(path IN LISTS FORBIDDEN)
    string(FIND "${strings}" "${path}" at)
    if(at GREATER -1)
      file(RELATIVE_PATH name "${PREFIX}" "${file}")
      problem("${name} contains the build machine's path ${path}")
      break()
    endif()
  endforeach()
endforeach()

# The installed CLI finds share/llgo-wasm from its own location (no LLGO_WASM_ROOT).
execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=LLGO_WASM_ROOT
                        "${PREFIX}/bin/llgo-wasm" link --target wasm --dry-run -o app.js main.o
  OUTPUT_VARIABLE plan ERROR_VARIABLE plan RESULT_VARIABLE rc)
file(REAL_PATH "${PREFIX}/share/llgo-wasm/runtime/emscripten" js_dir)
string(FIND "${plan}" "${js_dir}/" at)
if(NOT rc EQUAL 0 OR at EQUAL -1)
  problem("the installed CLI does not plan with ${js_dir} (exit ${rc}):\n${plan}")
endif()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "installed llgo-wasm in ${PREFIX}:\n  ${text}")
endif()
message(STATUS "${PREFIX}: ${count} files, layout complete, no path of the build machine, CLI finds its root")
