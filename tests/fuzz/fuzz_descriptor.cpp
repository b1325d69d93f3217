// libFuzzer target: descriptor bytes -> load (with the built-in set as parents) -> resolve.
// Any DriverError is a correct answer; a crash, a leak, a sanitizer report, a hang or any
// other exception is a finding. A descriptor that loads is also resolved from a file, and
// its resolved JSON must round-trip (target_from_json(target_to_json(t)) == t).
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/resolve.hpp"

namespace {

// A private directory for the descriptor file of a successful load. Never destroyed: the exit
// handler that removes the directory is registered while the static is initialised, so it runs
// after the static's destructor would (a heap-use-after-free ASan reported when libFuzzer ended
// a run through exit()).
const std::filesystem::path& scratch_directory() {
  static const std::filesystem::path* directory = [] {
    auto* path = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                           ("llgo-wasm-fuzz-descriptor-" + std::to_string(getpid())));
    std::filesystem::create_directories(*path);
    std::atexit([] { std::filesystem::remove_all(scratch_directory()); });
    return path;
  }();
  return *directory;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace llgo_wasm;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const DescriptorSet& builtin = builtin_descriptors();
  try {
    builtin.load_source({"fuzz/x.json", text});
  } catch (const DriverError&) {
    return 0;
  }
  // It loads: resolve it as --target would, from a file (`inherits` paths stay inside it).
  const auto file = scratch_directory() / "x.json";
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
  try {
    ResolvedTarget target = resolve_target(builtin, Query{.target = file.string()});
    nlohmann::json json = target_to_json(target);
    if (!(target_from_json(json) == target)) {
      std::fprintf(stderr, "resolved target does not round-trip:\n%s\n", json.dump(2).c_str());
      std::abort();
    }
  } catch (const DriverError&) {
  }
  return 0;
}
