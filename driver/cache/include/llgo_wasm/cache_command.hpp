// `llgo-wasm cache get|put|has|stats|trim`: the package cache from the command line.
// Exit status: 0 success (a hit for get/has), 1 a miss, 2 bad input. Warnings (a failing remote)
// go to stderr and never change the status.
#pragma once

#include <string>
#include <vector>

namespace llgo_wasm {

int run_cache_command(const std::vector<std::string>& args);

}  // namespace llgo_wasm
