// The named capabilities of a resolved target: what its chosen context backend and stack mode do
// and what its host offers, by name ("single-worker", "shared-stacks", "event-loop", ...). They
// are what the build (CMake) and the test case files ask about a target instead of comparing
// variant or backend names; `llgo-wasm resolve --json` lists those that hold in its `effective`
// record ("capabilities"). This file and target_capabilities.cpp are the one place that knows
// which backend has which trait.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

struct TargetCapability {
  std::string_view name;
  std::string_view meaning;  // one line, for messages and docs
  bool (*holds)(const TargetSpec&);
};

// Every capability name, in a fixed order (the vocabulary a case file's "capabilities" may use).
const std::vector<TargetCapability>& target_capability_vocabulary();
// The names of the capabilities that hold for `spec` (its chosen context and stack mode), in the
// vocabulary's order.
std::vector<std::string> target_capabilities(const TargetSpec& spec);
// Whether the capability `name` holds for `spec` (false for a name not in the vocabulary).
bool target_has_capability(const TargetSpec& spec, std::string_view name);
// Whether `name` is in the vocabulary.
bool is_target_capability(std::string_view name);

}  // namespace llgo_wasm
