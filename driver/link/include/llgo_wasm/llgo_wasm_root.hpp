// The llgo-wasm root: the folder that {root} in a descriptor's flags and engine commands names
// (the checkout's top, or an installed prefix's share/llgo-wasm, laid out the same way).
// Order: $LLGO_WASM_ROOT; then, from this executable's own location, an installed prefix
// (<bin>/../share/llgo-wasm) or a build tree (the file llgo-wasm-root.txt that the build writes
// beside the CLI, naming its checkout; it is never installed). A candidate must hold runtime/.
#pragma once

#include <optional>
#include <string>

#include "llgo_wasm/wasm_opt_discovery.hpp"

namespace llgo_wasm {

// The file beside a build tree's CLI that names its checkout.
inline constexpr const char* kBuildTreeRootFile = "llgo-wasm-root.txt";

std::optional<std::string> find_llgo_wasm_root(const EnvironmentLookup& environment);

}  // namespace llgo_wasm
