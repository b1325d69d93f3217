// Telling a program's target from the program (see program_target.hpp).
#include "llgo_wasm/program_target.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "llgo_wasm/error.hpp"
#include "llgo_wasm/run_plan.hpp"
#include "llgo_wasm/wasm_module_reader.hpp"

namespace llgo_wasm {
namespace {

namespace fs = std::filesystem;

// What a module says about the target that linked it.
struct ModuleFacts {
  bool shared_memory = false;
  bool memory64 = false;
  bool stack_switching = false;
};

bool is_wasm_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && magic[0] == 0 && magic[1] == 'a' && magic[2] == 's' && magic[3] == 'm';
}

ModuleFacts read_facts(const fs::path& module) {
  WasmModuleSummary summary;
  try {
    summary = read_wasm_module_file(module.string());
  } catch (const std::exception& error) {
    throw DriverError("run: cannot read " + module.string() + " (" + error.what() + "); name its target with --target");
  }
  ModuleFacts facts;
  auto note = [&](const WasmLimits& limits) {
    facts.shared_memory = facts.shared_memory || limits.shared;
    facts.memory64 = facts.memory64 || limits.memory64;
  };
  for (const auto& import : summary.imports) {
    if (import.memory_limits) note(*import.memory_limits);
  }
  for (const auto& memory : summary.defined_memories) note(memory);
  facts.stack_switching = !summary.stack_switching_sites.empty();
  return facts;
}

}  // namespace

std::string infer_program_target(const DescriptorSet& descriptors, const std::string& program) {
  const fs::path path(program);
  std::error_code error;
  if (!fs::is_regular_file(path, error)) throw DriverError("run: " + program + ": no such file");
  const std::string extension = program_extension(program);
  // The module the program is, or the one an Emscripten loader script loads (same stem, .wasm).
  std::optional<fs::path> module;
  if (is_wasm_file(path)) {
    module = path;
  } else if (fs::path sibling = fs::path(path).replace_extension(".wasm"); sibling != path && is_wasm_file(sibling)) {
    module = sibling;
  }
  std::optional<ModuleFacts> facts;
  if (module) facts = read_facts(*module);

  std::vector<const TargetDescriptor*> fitting;
  std::vector<const TargetDescriptor*> any_name;  // targets that accept every name: the host's
  for (const auto& target : descriptors.targets()) {
    const TargetSpec& spec = target.spec;
    const auto& accepted = spec.output.accepted_extensions;
    if (accepted.empty()) {
      if (!triple_is_wasm(spec.triple)) any_name.push_back(&target);
      continue;
    }
    if (std::find(accepted.begin(), accepted.end(), extension) == accepted.end()) continue;
    if (facts && (facts->shared_memory != spec.capabilities.threads || facts->memory64 != spec.capabilities.memory64 ||
                  facts->stack_switching != spec.capabilities.stack_switching)) {
      continue;
    }
    fitting.push_back(&target);
  }
  if (fitting.empty() && !module) fitting = any_name;
  if (fitting.empty()) {
    throw DriverError("run: no built-in target writes a program like " + program +
                      (facts ? std::string(" (a module with") + (facts->shared_memory ? "" : "out") + " shared memory, " +
                                   (facts->memory64 ? "64" : "32") + "-bit memory, " +
                                   (facts->stack_switching ? "" : "no ") + "stack switching)"
                             : std::string()) +
                      "; name its target with --target (llgo-wasm targets lists them)");
  }
  auto preferred = std::find_if(fitting.begin(), fitting.end(), [](const TargetDescriptor* t) { return t->platform_default; });
  return (preferred != fitting.end() ? *preferred : fitting.front())->spec.name;
}

}  // namespace llgo_wasm
