// The consistency rules a concrete descriptor must satisfy, as a table of named rules. Each
// rule reads a complete TargetSpec (plus the descriptor's identity keys) and throws a
// DriverError that says what contradicts what, at the value written last along the
// inheritance chain when positions are known. A rule needs nothing but its input, so each can
// be run, and tested, on its own (tests/driver/descriptor_rules_test.cpp); docs/targets.md
// lists them by name.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "llgo_wasm/error.hpp"
#include "llgo_wasm/target.hpp"

namespace llgo_wasm::detail {

// Where the descriptor's values were written. Paths are the loader's leaf paths
// ("capabilities/context/supported"); the default answers "unknown" (rules run on a bare spec).
class DescriptorPositions {
 public:
  virtual ~DescriptorPositions() = default;
  virtual Location value(const std::string& path) const;
  virtual Location item(const std::string& path, std::size_t index) const;
  // How late along the inheritance chain the value was written (larger = later).
  virtual std::size_t rank(const std::string& path) const;
};

struct DescriptorFacts {
  const TargetSpec& spec;
  bool host = false;  // "host": true: goos, goarch, triple and data model came from the platform
  bool platform_default = false;
  const std::map<std::string, std::string>& required_environment;
  const DescriptorPositions& positions;
};

struct DescriptorRule {
  std::string_view name;
  void (*check)(const DescriptorFacts&);
};

// Every rule, in the order they are checked.
const std::vector<DescriptorRule>& descriptor_rules();

// Runs every rule; the first that fails throws.
void check_descriptor_rules(const DescriptorFacts& facts);

}  // namespace llgo_wasm::detail
