// Checks a final WASI module against what its target's capabilities promise: shared memory
// exactly when the target has threads (and then no thread imports forbidden), no asyncify.*
// imports unless emcc runs Asyncify, exnref only when eh.final is exnref, and the exports a
// WASI command needs (_start, memory).  Each violation names the offending import, export or
// instruction.
#pragma once

#include <string>
#include <vector>

#include "llgo_wasm/target.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"

namespace llgo_wasm {

struct ModuleExpectations {
  bool forbid_shared_memory = false;   // a target without threads
  bool require_shared_memory = false;  // a target with threads
  bool forbid_thread_imports = false;  // pthread / thread-spawn / wasi-threads
  bool forbid_asyncify_imports = false;  // asyncify.* must have been replaced by wasm-opt
  bool forbid_legacy_exceptions = false;  // exnref only
  std::vector<std::string> required_function_exports;
  std::vector<std::string> required_memory_exports;
};

// Does the driver publish this target's executables as WASI modules it can check?
bool is_checked_wasi_module(const TargetSpec& spec);

// What a final WASI module of this target must satisfy (derived from its capabilities).
ModuleExpectations expectations_for(const TargetSpec& spec);

// Returns one message per violation; empty means the module is acceptable.
std::vector<std::string> validate_module(const WasmModuleSummary& module,
                                         const ModuleExpectations& expectations);

}  // namespace llgo_wasm
