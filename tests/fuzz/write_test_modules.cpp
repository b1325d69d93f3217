// Writes the link tests' synthetic wasm modules (every shape link_test_support.hpp builds) into
// a directory, as seeds for the wasm module fuzzer.
#include <cstdio>

#include "link_test_support.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]);
    return 2;
  }
  link_test::fs::create_directories(argv[1]);
  for (unsigned mask = 0; mask < 256; mask += 7) {
    link_test::TestModuleShape shape;
    shape.import_asyncify = mask & 1;
    shape.import_thread_spawn = mask & 2;
    shape.import_shared_memory = mask & 4;
    shape.define_shared_memory = mask & 8;
    shape.legacy_try = mask & 16;
    shape.legacy_catch_and_rethrow = mask & 32;
    shape.try_table = mask & 64;
    shape.export_start = !(mask & 128);
    shape.padding_functions = mask % 3;
    link_test::write_file(link_test::fs::path(argv[1]) / ("synthetic-" + std::to_string(mask) + ".wasm"),
                          link_test::build_test_module(shape));
  }
  return 0;
}
