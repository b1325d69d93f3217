// Checks a final module against what its variant promises (P1: no shared memory, no thread
// imports, no asyncify.* imports, exnref only, exports _start and memory; P1T: shared memory).
// Each violation names the offending import, export or instruction.
#pragma once

#include <string>
#include <vector>

#include "llgo_wasm/wasm_module_reader.hpp"

namespace llgo_wasm {

struct ModuleExpectations {
  bool forbid_shared_memory = false;   // P1
  bool require_shared_memory = false;  // P1T
  bool forbid_thread_imports = false;  // pthread / thread-spawn / wasi-threads
  bool forbid_asyncify_imports = false;  // asyncify.* must have been replaced by wasm-opt
  bool forbid_legacy_exceptions = false;  // exnref only
  std::vector<std::string> required_function_exports;
  std::vector<std::string> required_memory_exports;
};

// Expectations for a resolved variant ("P1", "P1T"); empty expectations for others.
ModuleExpectations expectations_for_variant(const std::string& variant);

// Returns one message per violation; empty means the module is acceptable.
std::vector<std::string> validate_module(const WasmModuleSummary& module,
                                         const ModuleExpectations& expectations);

}  // namespace llgo_wasm
