// Where {root} is (see llgo_wasm_root.hpp).
#include "llgo_wasm/llgo_wasm_root.hpp"

#include <filesystem>
#include <fstream>

namespace llgo_wasm {
namespace {

namespace fs = std::filesystem;

bool holds_runtime(const fs::path& root) {
  std::error_code error;
  return fs::is_directory(root / "runtime", error);
}

}  // namespace

std::optional<std::string> find_llgo_wasm_root(const EnvironmentLookup& environment) {
  if (auto explicit_root = environment("LLGO_WASM_ROOT")) return explicit_root;
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  // An installed prefix keeps the files in share/llgo-wasm beside its bin/ (a moved prefix too).
  const fs::path installed = executable.parent_path().parent_path() / "share" / "llgo-wasm";
  if (holds_runtime(installed)) return installed.string();
  // A build tree: the checkout the build wrote beside the CLI.
  std::ifstream marker(executable.parent_path() / kBuildTreeRootFile);
  std::string checkout;
  if (marker && std::getline(marker, checkout) && !checkout.empty() && holds_runtime(checkout)) return checkout;
  return std::nullopt;
}

}  // namespace llgo_wasm
