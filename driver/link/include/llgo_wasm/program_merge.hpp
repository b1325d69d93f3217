// The commands of a ProgramMerge (target.hpp): WebAssembly modules of llgo-wasm itself that a
// target joins to the linked program after wasm-ld, with Binaryen's wasm-merge - today the
// stack-switching context's switch glue (runtime/src/wasmcontext_stack_switching.wat), written in WebAssembly text because
// LLVM 19 cannot emit its instructions. The program goes first and is named "llgo_program":
// a merged module imports from it under that name (functions it exports with
// __attribute__((export_name)), tags wasm-ld exports with --export=...), and the program
// imports from a merged module under the module's name; after the merge both sides are one
// module and those imports are gone. The exports that only served the merge are removed by
// the wasm-opt step that follows (--remove-exports, '*' wildcards).
// Binaryen gets the features explicitly: -all would also enable encodings engines reject.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

// The oldest Binaryen the merge is tested with (its stack-switching text format changed before).
inline constexpr int kMinimumMergeBinaryenVersion = 131;

// The name the linked program has in wasm-merge (what merged modules import from).
inline constexpr std::string_view kMergedProgramName = "llgo_program";

// "--enable-<feature>" for each feature, in order.
std::vector<std::string> binaryen_feature_flags(const std::vector<std::string>& features);

// wasm-merge <features> <program> llgo_program <source> <name> ... -o <merged>
std::vector<std::string> wasm_merge_command(const ProgramMerge& merge, const std::string& wasm_merge,
                                            const std::string& program, const std::string& merged);

// "--remove-exports=<pattern>,<pattern>", or nothing when no export is internal.
std::optional<std::string> remove_internal_exports_flag(const ProgramMerge& merge);

// The Binaryen tool `name` installed beside `wasm_opt` (Binaryen ships its tools together; the
// project's setup writes wrappers side by side), if it is there and executable.
std::optional<std::string> binaryen_tool_beside(const std::string& wasm_opt, const std::string& name);

}  // namespace llgo_wasm
