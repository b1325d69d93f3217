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
//  5. The stack size is --stack-size, else LLGO_WASM_STACK_SIZE, else the descriptor's: it
//     replaces default-stack-size with shared stacks and separate-stack-size with separate ones
//     (bytes, or a number with K, M or G: KiB, MiB, GiB; rounded up to a multiple of 16; at
//     least 4096 and at most half the address space, else an error).
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
inline constexpr std::string_view kEnvStackSize = "LLGO_WASM_STACK_SIZE";

// The smallest stack a goroutine can be given (the runtime raises smaller sizes to it).
inline constexpr std::uint64_t kMinimumStackSize = 4096;

// A stack size as --stack-size and LLGO_WASM_STACK_SIZE take it: decimal bytes, or with a
// suffix K, M, G (also KiB, MiB, GiB; binary), rounded up to a multiple of 16. Throws DriverError
// naming `source` for anything else, below kMinimumStackSize or above `most`.
std::uint64_t parse_stack_size(const std::string& text, const std::string& source, std::uint64_t most);

// Whether the query asks for a stack size (--stack-size or a non-empty LLGO_WASM_STACK_SIZE).
bool query_sets_stack_size(const Query& query);

ResolvedTarget resolve_target(const DescriptorSet& descriptors, const Query& query);

// A Query from JSON, for the C API: {"target", "goos", "goarch", "context", "stacks", "stack_size",
// "env": {K: V},
// "descriptor_path": [DIR, ...]}.
Query query_from_json(const nlohmann::json&);

}  // namespace llgo_wasm
