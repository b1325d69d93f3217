// Entry point of `llgo-wasm link`: parses the link arguments, plans the link for the resolved
// target, and prints (--dry-run) or runs the plan.  The CLI resolves the common options
// (--target, --goos, ...) first and passes the ResolvedTarget here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

// Returns the process exit status: 0 on success, 1 when a link step fails, 2 on bad input.
// Messages go to stderr; plans and --print-wasm-opt go to stdout. `program_stack_size`: the
// stack size the query asked for (--stack-size, LLGO_WASM_STACK_SIZE), which an executable gets
// compiled in (llgo_stack_size); std::nullopt: the target's own.
int run_link_command(const ResolvedTarget& target, const std::vector<std::string>& args,
                     std::optional<std::uint64_t> program_stack_size = std::nullopt);

// The usage text of `llgo-wasm link`.
std::string link_command_usage();

}  // namespace llgo_wasm
