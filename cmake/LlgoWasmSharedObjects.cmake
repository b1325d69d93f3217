# LlgoWasmSharedObjects.cmake: compile a set of C sources once per distinct settings.
#
#   llgo_wasm_shared_objects(<out> SOURCES <files>... [OPTIONS <compile options>...]
#                            [DEFINES <d>...] [INCLUDES <dirs>...] [USAGE <libraries>...])
#
# sets <out> to an OBJECT library that compiles SOURCES with those settings, the runtime's public
# headers (runtime/include) and llgo_runtime_build_flags (and the usage requirements of USAGE:
# a program that includes a runtime library's own headers, such as the context layer's tests). A later call with the same sources and
# settings gets the same library: the context backends of one target that share their flags (a
# context in both stack modes: asyncify and asyncify-separate), a program's copies for several
# output extensions (.js and .mjs) and the test programs of every backend then link the objects
# of one compile instead of compiling the same files again (the target build's compiles are
# Emscripten's or wasi-sdk's, a third of a second or more each). The library is built only for
# what links it.
include_guard(GLOBAL)

function(llgo_wasm_shared_objects out)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;OPTIONS;DEFINES;INCLUDES;USAGE")
  string(SHA1 key "${arg_SOURCES}|${arg_OPTIONS}|${arg_DEFINES}|${arg_INCLUDES}|${arg_USAGE}")
  string(SUBSTRING "${key}" 0 16 key)
  set(library llgo_objects_${key})
  if(NOT TARGET ${library})
    add_library(${library} OBJECT EXCLUDE_FROM_ALL ${arg_SOURCES})
    target_compile_options(${library} PRIVATE ${arg_OPTIONS})
    target_compile_definitions(${library} PRIVATE ${arg_DEFINES})
    target_include_directories(${library} PRIVATE ${arg_INCLUDES} "${LLGO_WASM_SOURCE_ROOT}/runtime/include")
    target_link_libraries(${library} PRIVATE llgo_runtime_build_flags ${arg_USAGE})
  endif()
  set(${out} ${library} PARENT_SCOPE)
endfunction()
