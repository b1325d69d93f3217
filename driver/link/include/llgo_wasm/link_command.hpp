// Entry point of `llgo-wasm link`: parses the link arguments, plans the link for the resolved
// target, and prints (--dry-run) or runs the plan.  The CLI resolves the common options
// (--target, --goos, ...) first and passes the ResolvedTarget here.
#pragma once

#include <string>
#include <vector>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

// Returns the process exit status: 0 on success, 1 when a link step fails, 2 on bad input.
// Messages go to stderr; plans and --print-wasm-opt go to stdout.
int run_link_command(const ResolvedTarget& target, const std::vector<std::string>& args);

// The usage text of `llgo-wasm link`.
std::string link_command_usage();

}  // namespace llgo_wasm
