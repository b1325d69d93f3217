// The switch-point reachability analysis (see asyncify_analysis.hpp): a backward walk over the
// call graph from the switch imports, with indirect calls grouped by signature so that every
// edge is visited once (linear in the size of the module).
#include "llgo_wasm/asyncify_analysis.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace llgo_wasm {
namespace {

enum class ImportRole : uint8_t { plain, switch_point, bottom_marker, table_call };

bool matches_any(const std::vector<std::string>& patterns, const std::string& value) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& pattern) { return asyncify_pattern_matches(pattern, value); });
}

// Binaryen's own asyncify.* intrinsics: start_unwind/stop_rewind change the state (their
// callers are the "top-most runtime"); stop_unwind/start_rewind mark the "bottom-most runtime".
ImportRole role_of(const WasmImport& import, const AsyncifyAnalysisOptions& options) {
  if (import.module == "asyncify") {
    if (import.name == "start_unwind" || import.name == "stop_rewind") return ImportRole::switch_point;
    return ImportRole::bottom_marker;
  }
  const std::string full = import.module + "." + import.name;
  if (matches_any(options.table_call_imports, full)) return ImportRole::table_call;
  if (matches_any(options.switch_imports, full)) return ImportRole::switch_point;
  return ImportRole::plain;
}

bool is_plain_name_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
         c == '-';
}

// True when `name` is `base` + "_" + digits: what Binaryen makes of a repeated `base`.
bool is_deduplication_of(const std::string& name, const std::string& base) {
  if (name.size() < base.size() + 2 || name.compare(0, base.size(), base) != 0 || name[base.size()] != '_') return false;
  return std::all_of(name.begin() + static_cast<long>(base.size()) + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool asyncify_pattern_matches(const std::string& pattern, const std::string& value) {
  // Iterative glob with backtracking to the last '*'.
  size_t p = 0, v = 0, star = std::string::npos, resume = 0;
  while (v < value.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = v;
    } else if (p < pattern.size() && pattern[p] == value[v]) {
      ++p;
      ++v;
    } else if (star != std::string::npos) {
      p = star + 1;
      v = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string> binaryen_function_names(const WasmModuleSummary& module) {
  const size_t total = module.imported_function_count + module.defined_function_count;
  std::vector<std::string> names(total);
  if (module.function_names.empty()) {
    // No names at all (emcc's wasm-emscripten-finalize drops them before its wasm-opt run):
    // Binaryen 120 and 131 both call the i-th defined function "i".
    for (size_t defined = 0; defined < module.defined_function_count; ++defined) {
      names[module.imported_function_count + defined] = std::to_string(defined);
    }
    return names;
  }
  std::unordered_map<std::string, int> occurrences;
  std::unordered_map<uint32_t, int> entries_per_index;
  for (const auto& [index, name] : module.function_names) {
    ++occurrences[name];
    ++entries_per_index[index];
  }
  std::vector<std::string> repeated;
  for (const auto& [name, count] : occurrences) {
    if (count > 1) repeated.push_back(name);
  }
  for (const auto& [index, name] : module.function_names) {
    if (index >= total || entries_per_index[index] != 1 || occurrences[name] != 1 || name.empty()) continue;
    if (!std::all_of(name.begin(), name.end(), is_plain_name_character)) continue;
    if (std::any_of(repeated.begin(), repeated.end(), [&](const std::string& base) { return is_deduplication_of(name, base); })) continue;
    names[index] = name;
  }
  return names;
}

std::vector<std::string> AsyncifyAnalysis::removable_names() const {
  std::vector<bool> switching(binaryen_names.size());
  for (uint32_t index : can_switch) switching[index] = true;
  std::vector<std::string> names;
  const size_t first_defined = binaryen_names.size() - defined_functions;
  for (size_t index = first_defined; index < binaryen_names.size(); ++index) {
    if (!switching[index] && !binaryen_names[index].empty()) names.push_back(binaryen_names[index]);
  }
  return names;
}

std::vector<std::string> AsyncifyAnalysis::can_switch_names() const {
  std::vector<std::string> names;
  for (uint32_t index : can_switch) {
    names.push_back(binaryen_names[index].empty() ? "function " + std::to_string(index) : binaryen_names[index]);
  }
  return names;
}

uint32_t AsyncifyAnalysis::unnamed_non_switching() const {
  const size_t listed = removable_names().size();
  return static_cast<uint32_t>(defined_functions - can_switch.size() - listed);
}

AsyncifyAnalysis analyse_asyncify(const WasmModuleSummary& module, const AsyncifyAnalysisOptions& options) {
  if (module.has_non_function_types) {
    throw AsyncifyAnalysisError("the module has GC types, rec groups or subtypes, which the call-graph analysis does not model");
  }
  const uint32_t imports = module.imported_function_count;
  const uint32_t total = imports + module.defined_function_count;
  if (module.function_type_indices.size() != total || module.function_calls.size() != module.defined_function_count) {
    throw AsyncifyAnalysisError("the function and code sections disagree (" + std::to_string(module.function_type_indices.size()) +
                                " typed functions, " + std::to_string(module.function_calls.size()) + " bodies)");
  }
  // Signatures interned: equal signatures (even under different type indices) share one id.
  std::map<std::string, uint32_t> signature_ids;
  std::vector<uint32_t> type_signature(module.type_signatures.size());
  for (size_t type = 0; type < module.type_signatures.size(); ++type) {
    type_signature[type] = signature_ids.emplace(module.type_signatures[type], signature_ids.size()).first->second;
  }
  auto signature_of_type = [&](uint32_t type) {
    if (type >= type_signature.size()) throw AsyncifyAnalysisError("type index " + std::to_string(type) + " is out of range");
    return type_signature[type];
  };
  auto check_function = [&](uint32_t index) {
    if (index >= total) throw AsyncifyAnalysisError("function index " + std::to_string(index) + " is out of range");
    return index;
  };

  AsyncifyAnalysis result;
  result.defined_functions = module.defined_function_count;
  result.binaryen_names = binaryen_function_names(module);

  std::vector<ImportRole> roles(total, ImportRole::plain);
  std::vector<uint32_t> table_call_imports;
  // Binaryen's asyncify.start_unwind/stop_rewind: their direct callers are its "top-most
  // runtime" (listed, not instrumented); other switch imports' callers are instrumented.
  std::vector<bool> starts_switch(total);
  {
    uint32_t index = 0;
    for (const auto& import : module.imports) {
      if (import.kind != WasmExternalKind::function) continue;
      roles[index] = role_of(import, options);
      if (import.module == "asyncify") result.has_asyncify_imports = true;
      starts_switch[index] = import.module == "asyncify" && roles[index] == ImportRole::switch_point;
      if (roles[index] == ImportRole::switch_point) result.switch_imports_present.push_back(index);
      if (roles[index] == ImportRole::table_call) table_call_imports.push_back(index);
      ++index;
    }
  }

  // Which functions a reference can exist to.
  std::vector<bool> escaped(total);
  for (uint32_t index : module.referenced_functions) escaped[check_function(index)] = true;
  bool host_hands_references = module.tables_shared_with_host;
  for (size_t global = 0; global < module.global_is_reference.size() && !host_hands_references; ++global) {
    host_hands_references = module.global_is_reference[global];  // conservative: any reference global
  }
  auto type_has_reference = [&](uint32_t function) {
    uint32_t type = module.function_type_indices[function];
    return type < module.type_has_reference.size() && module.type_has_reference[type];
  };
  for (uint32_t index = 0; index < imports && !host_hands_references; ++index) host_hands_references = type_has_reference(index);
  for (const auto& entry : module.exports) {
    if (entry.kind == WasmExternalKind::function && type_has_reference(check_function(entry.index))) host_hands_references = true;
  }
  if (host_hands_references && !options.host_holds_only_export_wrappers) {
    for (const auto& entry : module.exports) {
      if (entry.kind == WasmExternalKind::function) escaped[check_function(entry.index)] = true;
    }
  }

  // Reverse edges.
  std::vector<std::vector<uint32_t>> direct_callers(total);
  std::vector<std::vector<uint32_t>> indirect_callers(signature_ids.size());  // by signature id
  std::vector<bool> bottom_most(total), top_most(total);
  for (uint32_t defined = 0; defined < module.defined_function_count; ++defined) {
    const uint32_t caller = imports + defined;
    for (uint32_t callee : module.function_calls[defined].direct) {
      direct_callers[check_function(callee)].push_back(caller);
      if (callee < imports && roles[callee] == ImportRole::bottom_marker) bottom_most[caller] = true;
      if (starts_switch[callee]) top_most[caller] = true;
    }
    for (uint32_t type : module.function_calls[defined].indirect_types) indirect_callers[signature_of_type(type)].push_back(caller);
  }
  // Backward walk from the switch points.
  std::vector<bool> switching(total), signature_done(signature_ids.size());
  bool table_calls_switch = false;
  std::deque<uint32_t> work;
  auto declared_non_switching = [&](uint32_t function) {
    const std::string& name = result.binaryen_names[function];
    return !name.empty() && matches_any(options.never_switch, name);
  };
  auto mark = [&](uint32_t function) {
    if (switching[function]) return;
    if (function < imports && roles[function] != ImportRole::table_call) return;  // other imports never switch
    if (bottom_most[function]) return;
    if (function >= imports && declared_non_switching(function)) return;
    switching[function] = true;
    work.push_back(function);
  };
  for (uint32_t index : result.switch_imports_present) {
    switching[index] = true;
    work.push_back(index);
  }
  while (!work.empty()) {
    const uint32_t function = work.front();
    work.pop_front();
    for (uint32_t caller : direct_callers[function]) mark(caller);
    if (!escaped[function]) continue;
    const uint32_t signature = signature_of_type(module.function_type_indices[function]);
    if (!signature_done[signature]) {
      signature_done[signature] = true;
      for (uint32_t caller : indirect_callers[signature]) mark(caller);
    }
    if (!table_calls_switch) {
      table_calls_switch = true;
      for (uint32_t index : table_call_imports) mark(index);
    }
  }

  for (uint32_t index = imports; index < total; ++index) {
    if (!switching[index]) continue;
    result.can_switch.push_back(index);
    if (top_most[index]) result.start_switch.push_back(index);
  }
  {
    uint32_t index = 0;
    for (const auto& import : module.imports) {
      if (import.kind != WasmExternalKind::function) continue;
      if (roles[index] == ImportRole::switch_point && (!direct_callers[index].empty() || escaped[index])) {
        result.switch_imports_called.push_back(import.module + "." + import.name);
      }
      ++index;
    }
  }
  return result;
}

}  // namespace llgo_wasm
