// Target descriptors: loading targets/*.json, merging `inherits`, and checking them.
//
// A DescriptorSet is loaded once (the built-in one is embedded in the library at
// build time, with the original file names kept for messages) and then answers
// lookups without parsing anything again. Loading rejects, with file:line:col:
// JSON syntax errors, duplicate keys, unknown keys (with a did-you-mean), wrong
// types, missing or cyclic parents, duplicate list values after merging, and
// contradictory capabilities. See docs/targets.md for the schema and the rules.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "llgo_wasm/target.hpp"

namespace llgo_wasm {

// One descriptor file: the name used in messages and its text.
struct DescriptorSource {
  std::string file_name;
  std::string text;
};

// A merged, checked, concrete descriptor. spec is complete; for the host descriptor
// its goos, goarch, triple and data model are the driver's own build platform.
struct TargetDescriptor {
  TargetSpec spec;
  // Chosen by plain GOOS/GOARCH (no target name) when required_environment holds.
  bool platform_default = false;
  std::map<std::string, std::string> required_environment;
  // Files merged into this descriptor, parents first, this one last.
  std::vector<std::string> files;
};

class DescriptorSet {
 public:
  // Parses and checks every source. Sources whose descriptor says "abstract": true
  // can be inherited from but not resolved. Throws DriverError on the first problem.
  static DescriptorSet load(const std::vector<DescriptorSource>& sources);

  // The concrete descriptor with this name, or nullptr.
  const TargetDescriptor* find(std::string_view name) const;
  // Concrete descriptors, sorted by name.
  const std::vector<TargetDescriptor>& targets() const;
  // Names of concrete descriptors, sorted.
  std::vector<std::string> names() const;

  // Loads a descriptor that is not part of the set (a user's --target file.json).
  // Its `inherits` may name descriptors of this set (abstract ones too) or other
  // files by a path relative to it, inside its own directory tree or, when the caller
  // gives a search path, inside one of those directories (where relative names are
  // also looked up). The result must be concrete.
  TargetDescriptor load_file(const std::string& path, const std::vector<std::string>& search_path = {}) const;
  TargetDescriptor load_source(const DescriptorSource& source, const std::vector<std::string>& search_path = {}) const;

  struct Impl;

 private:
  std::shared_ptr<const Impl> impl_;
};

// The concrete targets as JSON: [{"name", "variant", "goos", "goarch", "triple",
// "platform_default", "requires_env", "files"}], sorted by name.
nlohmann::json targets_to_json(const DescriptorSet& descriptors);

// Every key the loader accepts, as '/'-separated paths ("capabilities/eh/compile"),
// objects included; keys starting with "//" (comments) are accepted anywhere as well.
// targets/schema.json describes the same keys (a test keeps the two in step).
std::vector<std::string> descriptor_schema_keys();

// The descriptors of targets/*.json, embedded at build time; loaded on first use.
const DescriptorSet& builtin_descriptors();
// The embedded sources themselves (file names like "targets/wasm.json").
const std::vector<DescriptorSource>& builtin_descriptor_sources();

// The platform the driver was compiled for: what the host descriptor resolves to.
struct HostPlatform {
  std::string goos;
  std::string goarch;
  std::string triple;
  DataModel data_model;
};
const HostPlatform& host_platform();

}  // namespace llgo_wasm
