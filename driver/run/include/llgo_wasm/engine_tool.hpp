// Finds the tool an engine command starts (its first word: node, node26, wasmedge, wasmtime,
// qemu-aarch64) the way the toolchain files find tools, in order:
//   1. the environment variable named after it, upper case with '-' as '_' (NODE, NODE26,
//      WASMEDGE, QEMU_AARCH64): an explicit choice, never silently replaced by another;
//   2. the folder tools/setup-toolchain.sh installed into (LLGO_WASM_TOOLCHAIN_DIR, default
//      ${XDG_CACHE_HOME:-$HOME/.cache}/llgo-wasm/toolchain-v1): its toolchain.env's
//      LLGO_WASM_<VARIABLE> entry, then its bin/<tool>;
//   3. <tool> on PATH.
// With a minimum version (the engine's minimum-version), each candidate's `TOOL --version` is
// read: one that is too old is passed over (an explicit one is the error), so Debian's Node 18 on
// PATH never runs a module that needs Node 24.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "llgo_wasm/wasm_opt_discovery.hpp"

namespace llgo_wasm {

struct EngineTool {
  std::string path;
  std::string source;   // "NODE", "toolchain folder", "PATH"
  std::string version;  // the first dotted number of `--version`; "" when not asked
};

struct EngineToolSearch {
  std::optional<EngineTool> tool;
  std::vector<std::string> findings;  // why each candidate was not taken
  std::string fix;                    // how to provide one
};

// "NODE26" for node26, "QEMU_AARCH64" for qemu-aarch64.
std::string engine_tool_variable(const std::string& tool);

EngineToolSearch find_engine_tool(const std::string& tool, const std::string& minimum_version,
                                  const EnvironmentLookup& environment);

// The first dotted number in `text` ("v24.11.1" -> "24.11.1", "wasmedge version 0.14.1" ->
// "0.14.1"), preferring one with a dot; nullopt when there is none.
std::optional<std::string> first_version_number(const std::string& text);

// <0, 0, >0 as dotted number a is older than, equal to, newer than b (missing parts are 0).
int compare_versions(const std::string& a, const std::string& b);

}  // namespace llgo_wasm
