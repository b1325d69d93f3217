// Finds and version-checks Binaryen's wasm-opt.  Order: $WASMOPT, $BINARYEN_ROOT/bin/wasm-opt,
// wasm-opt on $PATH, then the project's setup folder
// ${LLGO_WASM_TOOLCHAIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/llgo-wasm/toolchain-v1}/bin/wasm-opt.
// An explicit choice ($WASMOPT, $BINARYEN_ROOT) is final: if it is missing or too old that is
// the error.  Implicit candidates ($PATH, setup folder) are tried in order until one is new
// enough.  Asyncify over legacy EH needs Binaryen >= 125.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace llgo_wasm {

inline constexpr int minimum_wasm_opt_version = 125;

struct WasmOptDiscoveryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct WasmOptTool {
  std::string path;
  std::string source;          // "WASMOPT", "BINARYEN_ROOT", "PATH", "setup folder"
  std::string version_string;  // first line of `wasm-opt --version`, exactly (cache key)
  int version = 0;             // 132 for "wasm-opt version 132 (version_132)"
};

using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvironmentLookup process_environment();

// Parses "wasm-opt version 132 (version_132)" -> 132; nullopt when there is no version number.
std::optional<int> parse_wasm_opt_version(const std::string& version_output);

// The project's setup folder (toolchain-v1), from LLGO_WASM_TOOLCHAIN_DIR, XDG_CACHE_HOME, HOME.
std::optional<std::string> project_toolchain_dir(const EnvironmentLookup& environment);

// Searches $PATH for an executable; nullopt when absent.
std::optional<std::string> find_on_path(const std::string& name, const EnvironmentLookup& environment);

// Throws WasmOptDiscoveryError naming every candidate found, where, its version, and how to
// point at another one (WASMOPT=).
WasmOptTool discover_wasm_opt(const EnvironmentLookup& environment,
                              int minimum_version = minimum_wasm_opt_version);

}  // namespace llgo_wasm
