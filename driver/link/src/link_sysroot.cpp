// Probes a WASI sysroot for the link plan (link_sysroot.hpp).
#include "link_sysroot.hpp"

#include <filesystem>

namespace llgo_wasm {

namespace fs = std::filesystem;

// A sysroot lays out libraries under lib/<triple>, and clang-19 looks for its compiler-rt
// under <resource-dir>/lib/<os>.  Debian's libclang-rt-19-dev-wasm32 ships only lib/wasi, so
// without a -resource-dir shim on the link line the wasm32-wasi spelling is the one that links;
// with a shim, the resolved (wasip1) spelling is kept.  Either way, use a name the sysroot has.
std::string link_triple_for_sysroot(const std::string& triple, const std::optional<std::string>& sysroot,
                                    bool resource_dir_given, std::vector<std::string>& notes) {
  if (!sysroot || triple.empty()) return triple;
  std::vector<std::string> candidates;
  if (triple == "wasm32-unknown-wasip1" || triple == "wasm32-wasip1") {
    if (resource_dir_given) candidates = {triple, "wasm32-wasip1", "wasm32-wasi"};
    else candidates = {"wasm32-wasi", triple, "wasm32-wasip1"};
  } else if (triple == "wasm32-wasip1-threads" || triple == "wasm32-unknown-wasip1-threads") {
    if (resource_dir_given) candidates = {triple, "wasm32-wasip1-threads", "wasm32-wasi-threads"};
    else candidates = {"wasm32-wasi-threads", triple, "wasm32-wasip1-threads"};
  } else {
    candidates = {triple};
  }
  for (const auto& candidate : candidates) {
    std::error_code ignored;
    if (fs::is_directory(fs::path(*sysroot) / "lib" / candidate, ignored)) {
      if (candidate != triple) {
        notes.push_back("linking with --target=" + candidate + " for " + triple + " (the spelling this sysroot and clang-19's compiler-rt both have; pass --target or -resource-dir to choose)");
      }
      return candidate;
    }
  }
  return triple;
}

bool sysroot_has_library(const std::string& sysroot, const std::string& triple, const std::string& file_name) {
  std::error_code ignored;
  return fs::exists(fs::path(sysroot) / "lib" / triple / file_name, ignored);
}

}  // namespace llgo_wasm
