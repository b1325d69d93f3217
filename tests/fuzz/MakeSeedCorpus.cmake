# MakeSeedCorpus.cmake: the fuzzers' seed corpora, from the project's own files.
#   cmake -DROOT=<repository> -DOUT=<seeds directory> -P MakeSeedCorpus.cmake
# descriptor/        targets/*.json, and a custom descriptor inheriting each of them
# build_constraint/  every //llgo:build expression of runtime/src
# c_api/             one request per entry point and target (first byte: the entry point)
# link_arguments/    link lines like CMake's and the link tests' (one argument per line)
# (wasm_module/ is filled by the build: LLVM-compiled and synthetic modules.)
foreach(directory descriptor build_constraint c_api link_arguments)
  file(REMOVE_RECURSE "${OUT}/${directory}")
  file(MAKE_DIRECTORY "${OUT}/${directory}")
endforeach()

file(GLOB descriptors "${ROOT}/targets/*.json")
set(names "")
foreach(path IN LISTS descriptors)
  get_filename_component(name "${path}" NAME_WE)
  configure_file("${path}" "${OUT}/descriptor/${name}.json" COPYONLY)
  if(NOT name STREQUAL "schema")
    list(APPEND names "${name}")
    file(WRITE "${OUT}/descriptor/inherits-${name}.json"
         "{\"name\": \"x\", \"inherits\": \"${name}\", \"build-tags\": [\"extra\"], \"cflags\": [\"-mllvm -x\"]}\n")
  endif()
endforeach()

file(GLOB sources "${ROOT}/runtime/src/*")
set(count 0)
foreach(path IN LISTS sources)
  file(STRINGS "${path}" lines REGEX "^//llgo:build ")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^//llgo:build +" "" expression "${line}")
    math(EXPR count "${count} + 1")
    file(WRITE "${OUT}/build_constraint/runtime-${count}" "${expression}")
  endforeach()
endforeach()

# The entry point is request[0] % 4: '0' resolve, '1' name_output, '2' select_sources, '3' cache_key.
foreach(name IN LISTS names)
  file(WRITE "${OUT}/c_api/resolve-${name}" "0{\"target\": \"${name}\", \"env\": {\"LLGO_WASM_CONTEXT\": \"asyncify\"}}")
  file(WRITE "${OUT}/c_api/name-${name}" "1{\"query\": {\"target\": \"${name}\"}, \"output\": \"hello.mjs\"}")
  file(WRITE "${OUT}/c_api/sources-${name}" "2{\"query\": {\"target\": \"${name}\"}, \"dir\": \"src\"}")
  file(WRITE "${OUT}/c_api/key-${name}"
       "3{\"query\": {\"target\": \"${name}\"}, \"package_root\": \"pkg\", \"files\": [\"a.go\"], "
       "\"toolchain\": {\"clang\": \"19.1.7\"}, \"flags\": [\"-O2\"], \"dependency_keys\": [\"k1\"]}")
endforeach()
file(WRITE "${OUT}/c_api/resolve-p1t" "0{\"goos\": \"wasip1\", \"goarch\": \"wasm\", \"env\": {\"LLGO_WASI_THREADS\": \"1\"}}")
file(WRITE "${OUT}/c_api/resolve-custom" "0{\"target\": \"custom.json\", \"context\": null}")
file(WRITE "${OUT}/c_api/resolve-child" "0{\"target\": \"child.json\", \"descriptor_path\": [\"bases\"]}")
file(WRITE "${OUT}/c_api/key-walk" "3{\"query\": {}, \"package_root\": \"pkg\"}")

# One argument per line.
file(WRITE "${OUT}/link_arguments/cmake"
     "--\n--cc\n/usr/bin/clang-19\n--target=wasm32-wasi\n-O2\n-g\nCMakeFiles/app.dir/main.c.o\n-o\nbin/app.wasm\n"
     "-Wl,--stack-first\n-L\nlib\n-lruntime\nlibextra.a\n-Xlinker\n--no-entry\n")
file(WRITE "${OUT}/link_arguments/driver-options"
     "--dry-run\n--json\n-v\n--kind=shared\n--no-asyncify-narrowing\n--asyncify-import\nenv.sleep\n-oout.so\na.o\n--\n-O3\n")
file(WRITE "${OUT}/link_arguments/archive" "--kind\narchive\n-o\nlibx.a\na.o\nb.o\n-mllvm\n-x\n")
file(WRITE "${OUT}/link_arguments/sysroot" "--sysroot=/nonexistent\n-resource-dir\nres\n-Os\nmain.o\n-o\napp.wasm\n")
