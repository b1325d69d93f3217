// Resolution: Query (what the user said) -> ResolvedTarget (everything decided).
//
// Rules, in order:
//  1. A target name or .json path selects that descriptor. It implies its GOOS and
//     GOARCH: environment values that differ are overridden (and recorded as such);
//     a contradicting --goos/--goarch flag is an error.
//  2. Otherwise GOOS/GOARCH (flag, then environment, then the host's) select the
//     platform-default descriptor for that pair whose required environment holds,
//     the most specific first: js/wasm -> js-wasm (J64), wasip1/wasm -> wasip1 (P1),
//     and with LLGO_WASI_THREADS=1 -> wasip1-threads (P1T); the host pair -> host.
//  3. The context backend is --context, else LLGO_WASM_CONTEXT, else the
//     descriptor's default; it must be one the descriptor supports. It becomes the resolved
//     spec's capabilities.context.default, so the resolved target written as JSON and loaded
//     again resolves to the same target.
//  4. The stack mode is --stacks, else LLGO_WASM_STACKS, else the descriptor's default, among
//     the modes the descriptor supports and the chosen context can run (targets/schema.json,
//     $defs/context/x-llgo-stacks): with emscripten-fiber or pthread the default becomes
//     "separate" and asking for "shared" is an error. capabilities.stacks of the resolved spec
//     holds the choice and the modes left.
// LLGO_WASI_THREADS accepts only "1", "0" or empty/unset; anything else is an error.
// Cheap once the DescriptorSet is loaded: no parsing, a handful of small copies.
#pragma once

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/target.hpp"

#include <nlohmann/json_fwd.hpp>

namespace llgo_wasm {

// Environment variables that take part in resolution.
inline constexpr std::string_view kEnvGoos = "GOOS";
inline constexpr std::string_view kEnvGoarch = "GOARCH";
inline constexpr std::string_view kEnvWasiThreads = "LLGO_WASI_THREADS";
inline constexpr std::string_view kEnvContext = "LLGO_WASM_CONTEXT";
inline constexpr std::string_view kEnvStacks = "LLGO_WASM_STACKS";

ResolvedTarget resolve_target(const DescriptorSet& descriptors, const Query& query);

// A Query from JSON, for the C API: {"target", "goos", "goarch", "context", "stacks", "env": {K: V},
// "descriptor_path": [DIR, ...]}.
Query query_from_json(const nlohmann::json&);

}  // namespace llgo_wasm
