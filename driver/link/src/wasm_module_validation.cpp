// Capability checks over a read module (see wasm_module_validation.hpp).
#include "llgo_wasm/wasm_module_validation.hpp"

#include <algorithm>
#include <cstdio>

namespace llgo_wasm {
namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// wasi-threads' `wasi.thread-spawn`, wasi-libc's `wasi_thread_spawn`/`thread_spawn`, and any
// pthread entry point a host might provide.
bool is_thread_import(const WasmImport& import) {
  std::string module = lowercase(import.module);
  std::string name = lowercase(import.name);
  if (module == "wasi" && name == "thread-spawn") return true;
  for (const char* word : {"thread-spawn", "thread_spawn", "pthread", "wasi-threads", "wasi_threads"}) {
    if (module.find(word) != std::string::npos || name.find(word) != std::string::npos) return true;
  }
  return false;
}

bool exports(const WasmModuleSummary& module, const std::string& name, WasmExternalKind kind) {
  return std::any_of(module.exports.begin(), module.exports.end(),
                     [&](const WasmExport& e) { return e.name == name && e.kind == kind; });
}

std::string offset_text(uint64_t offset) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(offset));
  return buffer;
}

}  // namespace

bool is_checked_wasi_module(const TargetSpec& spec) { return triple_is_wasi(spec.triple); }

ModuleExpectations expectations_for(const TargetSpec& spec) {
  const Capabilities& caps = spec.capabilities;
  ModuleExpectations expectations;
  expectations.forbid_shared_memory = !caps.threads;
  expectations.require_shared_memory = caps.threads;
  expectations.forbid_thread_imports = !caps.threads;
  // Only emcc's own Asyncify resolves asyncify.* imports inside the link; after a post-link
  // wasm-opt, or without Asyncify, none may remain.
  expectations.forbid_asyncify_imports = caps.asyncify != AsyncifyMode::Emscripten;
  expectations.forbid_legacy_exceptions = caps.eh.final == ExceptionModel::Exnref;
  // A WASI command: the engine calls _start and reads the memory export.
  expectations.required_function_exports = {"_start"};
  expectations.required_memory_exports = {"memory"};
  return expectations;
}

std::vector<std::string> validate_module(const WasmModuleSummary& module, const ModuleExpectations& expectations) {
  std::vector<std::string> violations;
  bool any_shared_memory = false;
  for (const auto& import : module.imports) {
    const std::string where = "import " + import.module + "." + import.name;
    if (import.memory_limits && import.memory_limits->shared) {
      any_shared_memory = true;
      if (expectations.forbid_shared_memory) violations.push_back(where + " is a shared memory (threads are not part of this variant)");
    }
    if (expectations.forbid_thread_imports && is_thread_import(import)) {
      violations.push_back(where + " is a thread import (pthread / thread-spawn / wasi-threads)");
    }
    if (expectations.forbid_asyncify_imports && import.module == "asyncify") {
      violations.push_back(where + " was left in the module (wasm-opt --asyncify should have replaced it)");
    }
  }
  for (size_t i = 0; i < module.defined_memories.size(); ++i) {
    if (module.defined_memories[i].shared) {
      any_shared_memory = true;
      if (expectations.forbid_shared_memory) violations.push_back("memory " + std::to_string(i) + " is defined shared");
    }
  }
  if (expectations.require_shared_memory && !any_shared_memory) {
    violations.push_back("no shared memory imported or defined (a threads variant needs one)");
  }
  if (expectations.forbid_legacy_exceptions && !module.legacy_eh_sites.empty()) {
    const auto& first = module.legacy_eh_sites.front();
    std::string function = module.function_name(first.function_index);
    violations.push_back(std::to_string(module.legacy_eh_sites.size()) +
                         " legacy exception instruction(s) left; first: '" + exception_opcode_name(first.opcode) +
                         "' in function " + std::to_string(first.function_index) +
                         (function.empty() ? "" : " (" + function + ")") + " at offset " + offset_text(first.file_offset) +
                         " (the final module must use exnref: was --translate-to-exnref run?)");
  }
  for (const auto& name : expectations.required_function_exports) {
    if (!exports(module, name, WasmExternalKind::function)) violations.push_back("function export '" + name + "' is missing");
  }
  for (const auto& name : expectations.required_memory_exports) {
    if (!exports(module, name, WasmExternalKind::memory)) violations.push_back("memory export '" + name + "' is missing");
  }
  return violations;
}

}  // namespace llgo_wasm
