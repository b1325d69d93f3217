// Test stand-in for `llgo-wasm link` while the driver CLI is developed separately: resolves
// `--target NAME` to the hand-written resolved-target JSON in tests/link/resolved/NAME.json
// (the same contract as `llgo-wasm resolve --json`) and calls run_link_command.
// Usage: llgo_wasm_link_test_cli link --target NAME [link arguments...]
#include <fstream>
#include <iostream>

#include "llgo_wasm/link_command.hpp"

#ifndef LLGO_WASM_LINK_TEST_RESOLVED_DIR
#error "LLGO_WASM_LINK_TEST_RESOLVED_DIR must name tests/link/resolved"
#endif

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 3 || args[0] != "link" || args[1] != "--target") {
    std::cerr << "usage: llgo_wasm_link_test_cli link --target NAME [link arguments...]\n";
    return 2;
  }
  const std::string path = std::string(LLGO_WASM_LINK_TEST_RESOLVED_DIR) + "/" + args[2] + ".json";
  std::ifstream file(path);
  if (!file) {
    std::cerr << "llgo_wasm_link_test_cli: no resolved target " << path << "\n";
    return 2;
  }
  nlohmann::json resolved = nlohmann::json::parse(file);
  return llgo_wasm::run_link_command(resolved, std::vector<std::string>(args.begin() + 3, args.end()));
}
