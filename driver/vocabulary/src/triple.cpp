// What an LLVM triple says about a target (see target.hpp). Only the architecture and the
// OS/environment parts are read; vendor names vary ("wasm32-wasi", "wasm32-unknown-wasip1").
#include <string_view>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

int triple_pointer_width(std::string_view triple) {
  std::string_view arch = triple.substr(0, triple.find('-'));
  if (arch == "wasm32" || arch == "i386" || arch == "i686" || arch == "arm" || arch == "armv7" || arch == "riscv32") {
    return 4;
  }
  if (arch == "wasm64" || arch == "x86_64" || arch == "aarch64" || arch == "arm64" || arch == "riscv64") return 8;
  return 0;
}

bool triple_is_wasm(std::string_view triple) { return triple.rfind("wasm", 0) == 0; }
bool triple_is_emscripten(std::string_view triple) { return triple.find("-emscripten") != std::string_view::npos; }
bool triple_is_wasi(std::string_view triple) { return triple.find("-wasi") != std::string_view::npos; }

}  // namespace llgo_wasm
