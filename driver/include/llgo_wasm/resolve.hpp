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
//     descriptor's default; it must be one the descriptor supports.
//  4. The stack mode is --stacks, else LLGO_WASM_STACKS, else the descriptor's
//     default; it must be supported, and "shared" needs a context that can share
//     a stack (asyncify, ucontext): with emscripten-fiber or pthread the default
//     becomes "separate" and asking for "shared" is an error.
// LLGO_WASI_THREADS accepts only "1", "0" or empty/unset; anything else is an error.
// Cheap once the DescriptorSet is loaded: no parsing, a handful of small copies.
#pragma once

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

// Environment variables that take part in resolution.
inline constexpr std::string_view kEnvGoos = "GOOS";
inline constexpr std::string_view kEnvGoarch = "GOARCH";
inline constexpr std::string_view kEnvWasiThreads = "LLGO_WASI_THREADS";
inline constexpr std::string_view kEnvContext = "LLGO_WASM_CONTEXT";
inline constexpr std::string_view kEnvStacks = "LLGO_WASM_STACKS";

ResolvedTarget resolve_target(const DescriptorSet& descriptors, const Query& query);

// The full tag set of a resolved spec: goos, goarch, "llgo", "unix" where Go sets it,
// the descriptor's build tags, the context tag and the stacks tag. Sorted, unique.
std::vector<std::string> resolved_build_tags(const TargetSpec& spec);

}  // namespace llgo_wasm
